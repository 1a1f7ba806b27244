/**
 * A demo agent's on-chain duties (0x01 spec §10.2–10.5), run in
 * the agent's own process over JSON-RPC (lib/chain/node/economy.ts): lock stake at start, pay the
 * lease each epoch (occasionally missing one, catching up later), and at the start of epoch
 * e + 1 submit the BehaviorBatch of epoch e built with lib/protocol buildBatchFromLog from the
 * agent's own log (ordered by timestamp, envelope id), after uploading exactly that log
 * (POST /api/ingest/log), which the indexer verifies the batch against. The lease is paid two
 * epochs ahead, so a payment landing late after an epoch boundary never leaves it in grace.
 * The `cheater` leaves one TypedBid out of every batch that has a bid to leave out (at most one
 * in `cheatEveryEpochs`, default 1), so a contradicted batch inside its challenge window is
 * nearly always there to see, and publishes that batch with its log (the demo's stand-in for batch gossip); the
 * `watcher` checks published batches and challenges one in `challengeEvery` of them (the others stay open for anyone,
 * e.g. the owner page, to challenge): it finds an entry the batch does not report, stages the evidence and resolves the
 * challenge once the window (CHALLENGE_WINDOW_EPOCHS) has passed.
 */

import { type Connection, PublicKey } from '../chain';
import {
  challengeEvidence,
  type EconomyConfig,
  lockStake,
  payLease,
  resolveChallenge,
  stageBuffer,
  submitBatch,
  submitChallenge,
  usdcAccountOf,
} from '../chain/node/economy';
import { createConnection } from '../chain/node/rpc';
import { Keypair } from '../chain/node/send';
import { lease as leaseProgram, stakeLock } from '../chain/programs';
import { SATI_MAINNET } from '../chain/sati';
import { type BehaviorBatch, decodeBatch, encodeBatch } from '../protocol/batch';
import { buildBatchFromLog } from '../protocol/batch-build';
import { CHALLENGE_WINDOW_EPOCHS, MIN_STAKE } from '../protocol/constants';
import { decodeEnvelope } from '../protocol/envelope';
import { fromHex, toHex } from '../protocol/hex';
import { leafHash, logEntryOf, merkleRoot } from '../protocol/merkle';
import { decodeNeg1 } from '../protocol/neg1';
import { type Envelope, MsgType } from '../protocol/types';
import type { HaggleMirrorConfig } from './haggle-mirror';

/** What the parent tells an agent about the chain (IPC JSON: keys as base58). */
export interface AgentChainConfig {
  rpcUrl: string;
  wsUrl?: string;
  usdcMint: string;
  treasury: string;
  stakeVault: string;
  /** The SATI program stake_lock checks registrations against (default SATI's id). */
  satiProgram?: string;
  epochSeconds: number;
  role: 'honest' | 'cheater' | 'watcher';
  /** Probability of skipping one epoch's lease payment. */
  leaseMissRate: number;
  /**
   * Unix ms before which the agent pays no lease at all, not even at start once its lease exists
   * (a restart must not pay what the pause holds back): its lease runs into grace, then it catches up.
   */
  leasePauseUntilMs?: number;
  /** Epochs the lease is kept paid beyond the current one (default {@link LEASE_AHEAD_EPOCHS}). */
  leaseAheadEpochs?: number;
  /** Cheater: epochs between its under-reported batches (default {@link CHEAT_EVERY_EPOCHS}). */
  cheatEveryEpochs?: number;
  /** Watcher: challenges the first published batch and then one in this many (default {@link CHALLENGE_EVERY}). */
  challengeEvery?: number;
  /** ms after an epoch ends before its batch is built (late envelopes and uploads land). */
  settleMs?: number;
  /** Settle a share of deals through the Haggle program (./haggle-mirror.ts); absent = none. */
  haggle?: HaggleMirrorConfig;
}

/** A batch with the log its root covers, as the cheater publishes it (hex). */
export interface PublishedBatch {
  agentIdHex: string;
  epoch: string;
  batchHex: string;
  logHex: string[];
}

/** One entry of the agent's own log: the envelope, its id and encoded bytes. */
export interface LogItem {
  id: Uint8Array;
  envelope: Envelope;
  bytes: Uint8Array;
}

export interface ChainDutiesHooks {
  /** The agent's log entries with timestamps in [fromUs, toUs). */
  log(fromUs: bigint, toUs: bigint): LogItem[];
  /** Uploads pending envelopes now. */
  flush(): Promise<void>;
  /**
   * Uploads the epoch's log (encoded envelopes in log order) and the batch built from it; resolves true when the
   * observer stored it.
   */
  uploadLog(epoch: bigint, envelopes: Uint8Array[], batch?: Uint8Array): Promise<boolean>;
  report(message: string): void;
  publish(b: PublishedBatch): void;
  /** Owner public key (hex) of another agent, from the directory. */
  ownerOf(agentHex: string): string | undefined;
  random(): number;
  now?: () => number;
}

/**
 * Lease epochs paid beyond the current one: two, so that one skipped payment (`leaseMissRate`)
 * followed by a payment landing late on a busy machine still never leaves the lease in grace.
 */
export const LEASE_AHEAD_EPOCHS = 2;
/**
 * The cheater under-reports a batch at most every this many epochs (when the batch has a bid to
 * leave out). A batch of epoch e lands some seconds into e + 1 (the settle delay, the log upload,
 * the transaction: 5–11 s at 20 s epochs on a busy machine) and can be challenged through
 * e + CHALLENGE_WINDOW_EPOCHS. Every two epochs would leave that landing delay uncovered once per
 * cycle (a contradicted batch in its window ~70 % of the time when measured); every epoch, the
 * windows overlap and only epochs without any bid leave a gap.
 */
export const CHEAT_EVERY_EPOCHS = 1;
/** The watcher challenges one published batch in this many, leaving the rest to other challengers. */
export const CHALLENGE_EVERY = 3;

/**
 * The cheater's batch of `epoch`: the honest batch without one TypedBid whose (conversation,
 * counterparty, value) is unique, when at least `every` epochs passed since its last cheat
 * (`lastCheat`, null = never); null when it reports this one honestly (too soon, or no bid to leave out).
 */
export function underReport(
  batch: BehaviorBatch,
  epoch: bigint,
  lastCheat: bigint | null,
  every: number,
): BehaviorBatch | null {
  if (lastCheat !== null && epoch - lastCheat < BigInt(Math.max(1, every))) return null;
  const keys = batch.bidValues.map((b) => `${toHex(b.conversationId)}:${toHex(b.counterparty)}:${b.bidValue}`);
  const unique = keys.findIndex((k) => keys.indexOf(k) === keys.lastIndexOf(k));
  if (unique < 0) return null;
  return { ...batch, bidValues: batch.bidValues.filter((_, i) => i !== unique) };
}

/** Epochs to pay now so the lease is paid through `target` (a lease that does not exist yet starts at `current`). */
export function leaseEpochsOwed(paidThrough: bigint | null, current: bigint, target: bigint): number {
  const owed = paidThrough === null ? target - current + 1n : target - paidThrough;
  return owed > 0n ? Number(owed > 1000n ? 1000n : owed) : 0;
}

const cmp = (a: LogItem, b: LogItem) =>
  a.envelope.timestamp !== b.envelope.timestamp
    ? a.envelope.timestamp < b.envelope.timestamp
      ? -1
      : 1
    : Buffer.compare(a.id, b.id);
const BID_TYPES = new Set<number>([MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT]);

/** The index of a log entry sent by `agent` whose NEG1 bid the batch does not report, or -1. */
export function unreportedBid(log: readonly Envelope[], batch: BehaviorBatch, agent: Uint8Array): number {
  const key = (conv: Uint8Array, cp: Uint8Array, v: bigint) => `${toHex(conv)}:${toHex(cp)}:${v}`;
  const reported = new Set(batch.bidValues.map((b) => key(b.conversationId, b.counterparty, b.bidValue)));
  return log.findIndex((e) => {
    if (!BID_TYPES.has(e.msgType) || Buffer.compare(e.sender, agent) !== 0) return false;
    const n = decodeNeg1(e.payload);
    return n.ok && !reported.has(key(e.conversationId, e.recipient, n.value.bidValue));
  });
}

export class ChainDuties {
  readonly #cfg: AgentChainConfig;
  readonly #hooks: ChainDutiesHooks;
  readonly #owner: Keypair;
  readonly #agent: PublicKey;
  readonly #conn: Connection;
  readonly #eco: EconomyConfig;
  readonly #now: () => number;
  #timer?: NodeJS.Timeout;
  #lastEpoch = -1n;
  #lastCheat: bigint | null = null;
  /** Published batches the watcher has seen. */
  #seen = 0;
  #stopped = false;
  #queue: Promise<unknown> = Promise.resolve();
  /**
   * The watcher's challenges and resolutions run on a queue of their own: staging the evidence
   * takes several transactions, and its own lease and batch (which must land within an epoch) go on meanwhile.
   */
  #challengeQueue: Promise<unknown> = Promise.resolve();

  constructor(cfg: AgentChainConfig, p: { seed: Uint8Array; agentIdHex: string }, hooks: ChainDutiesHooks) {
    if (!(cfg.epochSeconds > 0)) throw new RangeError('chain.epochSeconds must be positive');
    this.#cfg = cfg;
    this.#hooks = hooks;
    this.#owner = Keypair.fromSeed(p.seed);
    this.#agent = new PublicKey(fromHex(p.agentIdHex));
    this.#conn = createConnection({ rpcUrl: cfg.rpcUrl, wsUrl: cfg.wsUrl });
    this.#eco = {
      usdcMint: new PublicKey(cfg.usdcMint),
      treasury: new PublicKey(cfg.treasury),
      stakeVault: new PublicKey(cfg.stakeVault),
      epochSeconds: BigInt(cfg.epochSeconds),
      satiProgram: cfg.satiProgram ? new PublicKey(cfg.satiProgram) : SATI_MAINNET.program,
    };
    this.#now = hooks.now ?? Date.now;
  }

  /** Current protocol epoch by the wall clock (the embedded chain's clock follows it). */
  epoch(): bigint {
    return BigInt(Math.floor(this.#now() / 1000)) / this.#eco.epochSeconds;
  }

  /** Locks stake, pays the first lease, then checks for a new epoch every 500 ms. */
  async start(): Promise<void> {
    const stake = await this.#conn.getAccountInfo(stakeLock.findStakePda(this.#agent)[0], 'confirmed');
    const s = stake ? stakeLock.decodeStake(stake.data) : null;
    if (s?.status !== 1)
      await lockStake(this.#conn, { owner: this.#owner, agent: this.#agent, amount: MIN_STAKE, config: this.#eco });
    const paused = this.#now() < (this.#cfg.leasePauseUntilMs ?? 0);
    const e = this.epoch();
    if (!paused) await this.#payThrough(e + this.#ahead());
    else if (!(await this.#conn.getAccountInfo(leaseProgram.findLeasePda(this.#agent)[0], 'confirmed')))
      await this.#payThrough(e);
    this.#lastEpoch = e;
    this.#hooks.report(`stake locked, lease paid (epoch ${this.#lastEpoch}, role ${this.#cfg.role})`);
    this.#timer = setInterval(() => this.#tick(), 500);
    this.#timer.unref?.();
  }

  #enqueue(what: string, f: () => Promise<unknown>): void {
    const run = (q: Promise<unknown>) =>
      q.then(f).catch((e) => this.#hooks.report(`chain ${what} failed: ${(e as Error)?.message ?? e}`));
    if (what === 'challenge' || what === 'resolve') this.#challengeQueue = run(this.#challengeQueue);
    else this.#queue = run(this.#queue);
  }

  #tick(): void {
    if (this.#stopped) return;
    const e = this.epoch();
    if (e <= this.#lastEpoch) return;
    const ended = this.#lastEpoch;
    this.#lastEpoch = e;
    this.#enqueue('lease', () => this.#payLease(e));
    const settle = this.#cfg.settleMs ?? Math.min(3_000, this.#cfg.epochSeconds * 200);
    setTimeout(() => this.#enqueue('batch', () => this.#submitBatch(ended)), settle).unref?.();
  }

  async #payLease(e: bigint): Promise<void> {
    if (this.#now() < (this.#cfg.leasePauseUntilMs ?? 0)) {
      this.#hooks.report(
        `holds back the lease of epoch ${e} (paused until ${new Date(this.#cfg.leasePauseUntilMs!).toISOString()})`,
      );
      return;
    }
    if (this.#hooks.random() < this.#cfg.leaseMissRate) {
      this.#hooks.report(`skips the lease of epoch ${e}`);
      return;
    }
    await this.#payThrough(e + this.#ahead());
  }

  #ahead(): bigint {
    return BigInt(Math.max(0, this.#cfg.leaseAheadEpochs ?? LEASE_AHEAD_EPOCHS));
  }

  /** Pays what it takes for the lease to be paid through epoch `target` (nothing when it is). */
  async #payThrough(target: bigint): Promise<void> {
    const info = await this.#conn.getAccountInfo(leaseProgram.findLeasePda(this.#agent)[0], 'confirmed');
    const l = info ? leaseProgram.decodeLease(info.data) : null;
    const epochs = leaseEpochsOwed(l ? l.paidThroughEpoch : null, this.epoch(), target);
    if (epochs > 0) await payLease(this.#conn, { payer: this.#owner, agent: this.#agent, epochs, config: this.#eco });
  }

  async #submitBatch(epoch: bigint): Promise<void> {
    if (this.#stopped) return;
    await this.#hooks.flush();
    const s = this.#eco.epochSeconds * 1_000_000n;
    const entries = this.#hooks.log(epoch * s, (epoch + 1n) * s).sort(cmp);
    if (entries.length === 0) return;
    const log = entries.map((x) => x.envelope);
    let batch = buildBatchFromLog({
      agentId: this.#agent.toBytes(),
      epochNumber: epoch,
      slotStart: 0n,
      slotEnd: 0n,
      envelopes: log,
    });
    const cheated =
      this.#cfg.role === 'cheater'
        ? underReport(batch, epoch, this.#lastCheat, this.#cfg.cheatEveryEpochs ?? CHEAT_EVERY_EPOCHS)
        : null;
    const cheat = cheated !== null;
    if (cheated) batch = cheated;
    // The exact log the batch commits to, uploaded first so the indexer can verify the batch as
    // soon as it sees it. The cheater uploads its true log too: its batch then fails the check.
    const uploaded = await this.#hooks
      .uploadLog(
        epoch,
        entries.map((x) => x.bytes),
        encodeBatch(batch),
      )
      .catch(() => false);
    if (!uploaded) this.#hooks.report(`uploading the log of epoch ${epoch} failed (its batch stays unverified)`);
    await submitBatch(this.#conn, { owner: this.#owner, agent: this.#agent, batch });
    this.#hooks.report(
      `submitted batch of epoch ${epoch}: ${log.length} entries, ` +
        `${batch.bidValues.length} bids${cheat ? ' (one bid left out)' : ''}`,
    );
    if (cheat) {
      this.#lastCheat = epoch;
      this.#hooks.publish({
        agentIdHex: toHex(this.#agent.toBytes()),
        epoch: epoch.toString(),
        batchHex: toHex(encodeBatch(batch)),
        logHex: entries.map((x) => toHex(x.bytes)),
      });
    }
  }

  /** Watcher: checks a published batch and challenges an unreported bid (module comment). */
  onPublished(b: PublishedBatch): void {
    if (this.#cfg.role !== 'watcher' || this.#stopped) return;
    const every = Math.max(1, this.#cfg.challengeEvery ?? CHALLENGE_EVERY);
    if (this.#seen++ % every !== 0) {
      this.#hooks.report(
        `leaves the batch of epoch ${b.epoch} of ${b.agentIdHex.slice(0, 8)} ` +
          `unchallenged (it challenges one published batch in ${every}): open to other ` +
          `challengers through epoch ${BigInt(b.epoch) + CHALLENGE_WINDOW_EPOCHS}`,
      );
      return;
    }
    this.#enqueue('challenge', () => this.#challenge(b));
  }

  async #challenge(b: PublishedBatch): Promise<void> {
    const decoded = decodeBatch(fromHex(b.batchHex));
    if (!decoded.ok) return;
    const batch = decoded.value;
    const log: Envelope[] = [];
    for (const h of b.logHex) {
      const d = decodeEnvelope(fromHex(h));
      if (!d.ok) return;
      log.push(d.envelope);
    }
    if (toHex(merkleRoot(log.map((e) => leafHash(logEntryOf(e))))) !== toHex(batch.logMerkleRoot)) return;
    const agentBytes = fromHex(b.agentIdHex);
    const index = unreportedBid(log, batch, agentBytes);
    if (index < 0) return;
    const owner = this.#hooks.ownerOf(b.agentIdHex);
    if (!owner) return;
    const agent = new PublicKey(agentBytes);
    const epoch = BigInt(b.epoch);
    const ev = challengeEvidence({ log, index, batch });
    const { challenge } = await submitChallenge(this.#conn, {
      challenger: this.#owner,
      challengerUsdc: usdcAccountOf(this.#eco.usdcMint, this.#owner.publicKey),
      agent,
      epoch,
      leaf: ev.leaf,
    });
    const buffer = await stageBuffer(this.#conn, { authority: this.#owner, bytes: ev.bytes });
    this.#hooks.report(
      `challenged ${agent.toBase58()} epoch ${epoch} (log entry ${index} not ` +
        `reported); resolving after epoch ${epoch + CHALLENGE_WINDOW_EPOCHS}`,
    );
    // resolve_challenge is accepted once current > epoch + window; wait past that boundary.
    const at = Number((epoch + CHALLENGE_WINDOW_EPOCHS + 1n) * this.#eco.epochSeconds) * 1000 + 1_500;
    const resolve = async () => {
      if (this.#stopped) return;
      await resolveChallenge(this.#conn, {
        payer: this.#owner,
        challenge,
        buffer,
        signer: new PublicKey(fromHex(owner)),
        preimage: ev.preimage,
        signature: ev.signature,
      });
      this.#hooks.report(`resolved the challenge against ${agent.toBase58()} epoch ${epoch}`);
    };
    // A timer, not the queue: lease payments and batches go on meanwhile.
    setTimeout(() => this.#enqueue('resolve', resolve), Math.max(0, at - this.#now())).unref?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    const ws = (this.#conn as unknown as { _rpcWebSocket?: { close(): void; setAutoReconnect?(v: boolean): void } })
      ._rpcWebSocket;
    ws?.setAutoReconnect?.(false);
    try {
      ws?.close();
    } catch {
      /* not open */
    }
  }
}

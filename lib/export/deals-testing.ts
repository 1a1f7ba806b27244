/**
 * Test and bench data for the exports: whole deals played by the demo agents' state machine
 * (lib/agents/scenario.ts), each envelope built and signed with lib/protocol and stored through
 * the store's ingest; per agent-epoch logs uploaded and batches recorded with the root
 * buildBatchFromLog computes, as the demo agents and the chain indexer do. Not runtime code: a
 * test helper (the name the boundary rules treat as a harness), as it drives lib/agents.
 */

import { createRng } from '../agents/rng';
import { type DealState, newDeal, notaryOffer, notaryVerdicts, type Outgoing, step } from '../agents/scenario';
import { STRATEGIES, type StrategyName } from '../agents/strategies';
import { buildBatchFromLog } from '../protocol/batch-build';
import { publicKeyFromSeed } from '../protocol/crypto';
import { buildEnvelope } from '../protocol/envelope';
import { fromHex, toHex } from '../protocol/hex';
import { encodeNeg1 } from '../protocol/neg1';
import { encodeFeedback } from '../protocol/payloads';
import { type Envelope, MsgType } from '../protocol/types';
import type { EnvelopeSource, IngestItem, Store } from '../store';

/** Seed (and so signer key) of demo agent i; its id is the seed too, as in lib/store/testing. */
export function agentSeed(i: number): Uint8Array {
  const b = new Uint8Array(32);
  b[0] = 0xa5;
  new DataView(b.buffer).setUint32(28, i + 1);
  return b;
}

export interface DealsParams {
  agents?: number;
  deals: number;
  seed?: number;
  startUs?: bigint;
  epochSeconds?: number;
}

export interface Fixture {
  items: IngestItem[];
  agents: Uint8Array[];
  /** The one deal whose opening price is 2^70 (beyond int64 and float precision). */
  bigPriceConversation: Uint8Array;
  bigPrice: bigint;
}

/** Plays `deals` deals between random agent pairs (a third agent notarises), in order. */
export function makeDeals(p: DealsParams): Fixture {
  const n = p.agents ?? 6;
  const rng = createRng(p.seed ?? 7);
  const agents = Array.from({ length: n }, (_, i) => agentSeed(i));
  const hexOf = new Map(agents.map((a) => [toHex(a), a]));
  const nonces = new Map<string, bigint>();
  let clock = p.startUs ?? 1_767_225_600_000_000n; // 2026-01-01T00:00:00Z
  const items: IngestItem[] = [];
  const emit = (from: string, o: Outgoing) => {
    clock += BigInt(rng.int(50, 20_000)) * 1000n; // 50 ms .. 20 s between messages
    const nonce = (nonces.get(from) ?? 0n) + 1n;
    nonces.set(from, nonce);
    const sender = hexOf.get(from)!;
    const recipient = o.to.kind === 'peer' ? hexOf.get(o.to.agent)! : new Uint8Array(32);
    const built = buildEnvelope(
      {
        msgType: o.msgType,
        sender,
        recipient,
        conversationId: o.conversationId,
        nonce,
        timestamp: clock,
        payload: o.payload,
        blockRef: clock / 400_000n,
      },
      sender,
    );
    const source: EnvelopeSource = o.to.kind === 'topic' ? 'gossip' : rng.next() < 0.3 ? 'upload' : 'stream';
    items.push({
      id: built.id,
      envelope: built.envelope,
      raw: built.bytes,
      source,
      topic: o.to.kind === 'topic' ? `/0x01/v1/${o.to.topic}` : undefined,
      receivedAt: new Date(Number(clock / 1000n) + 5),
    });
  };
  for (let d = 0; d < p.deals; d++) {
    const bi = rng.int(0, n - 1);
    let si = rng.int(0, n - 2);
    if (si >= bi) si++;
    let ni = rng.int(0, n - 1);
    while (ni === bi || ni === si) ni = (ni + 1) % n;
    const [A, B, N] = [toHex(agents[bi]), toHex(agents[si]), toHex(agents[ni])];
    const conv = new Uint8Array(16);
    new DataView(conv.buffer).setUint32(0, p.seed ?? 7);
    new DataView(conv.buffer).setUint32(12, d + 1);
    const sealed = rng.next() < 0.3;
    const strat = (): StrategyName => rng.pick(STRATEGIES);
    const base = rng.int(100, 5_000) * 1_000_000;
    const common = { conversationId: conv, serviceHash: new Uint8Array(32).fill(d % 251), sealed };
    let buyer: DealState = newDeal({
      ...common,
      role: 'buyer',
      self: A,
      peer: B,
      salt: new Uint8Array(32).fill(2),
      stance: {
        strategy: strat(),
        side: 'buyer',
        initial: base,
        reservation: base * 2 + (rng.int(-1, 1) * base) / 2,
        maxRounds: rng.int(3, 6),
      },
    });
    let seller: DealState = newDeal({
      ...common,
      role: 'seller',
      self: B,
      peer: A,
      salt: new Uint8Array(32).fill(3),
      stance: {
        strategy: strat(),
        side: 'seller',
        initial: base * 3,
        reservation: base * 2 - (rng.int(-1, 1) * base) / 2,
        maxRounds: rng.int(3, 6),
      },
    });
    const queue: Array<{ from: string; o: Outgoing }> = [];
    const send = (from: string, out: Outgoing[]) =>
      out.forEach((o) => {
        emit(from, o);
        queue.push({ from, o });
      });
    let timer = false;
    let r = step(buyer, { kind: 'open' });
    buyer = r.state;
    send(A, r.out);
    for (let guard = 0; guard < 200; guard++) {
      const m = queue.shift();
      if (!m) {
        if (timer) {
          timer = false;
          r = step(buyer, { kind: 'auction_closed' });
          buyer = r.state;
          send(A, r.out);
          continue;
        }
        break;
      }
      const { from, o } = m;
      const to = (who: string) => o.to.kind === 'topic' || (o.to.kind === 'peer' && o.to.agent === who);
      const ev = { kind: 'message' as const, from, msgType: o.msgType, payload: o.payload };
      if (from !== A && to(A)) {
        r = step(buyer, ev);
        buyer = r.state;
        send(A, r.out);
        if (r.startAuctionTimerMs) timer = true;
      }
      if (from !== B && to(B)) {
        r = step(seller, ev);
        seller = r.state;
        send(B, r.out);
      }
      if (from !== N && o.msgType === MsgType.NOTARIZE_BID && o.to.kind === 'topic') {
        const off = notaryOffer(o.payload, rng.int(5, 50));
        if (off) send(N, [off]);
      }
      if (o.msgType === MsgType.NOTARIZE_ASSIGN && to(N))
        send(N, notaryVerdicts(o.conversationId, o.payload, rng.next() < 0.8));
    }
  }
  // One proposal priced beyond int64, then rejected: exercises exact wide prices end to end.
  const bigPrice = 1n << 70n;
  const conv = new Uint8Array(16).fill(0xb1);
  const [A, B] = [toHex(agents[0]), toHex(agents[1])];
  const neg = (price: bigint, round: number, reason = 0) =>
    encodeNeg1({
      bidValue: price,
      tokenMint: new Uint8Array(32),
      serviceHash: new Uint8Array(32).fill(9),
      round,
      deadline: 0n,
      decayBps: 50,
      maxRounds: 4,
      verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
      reason,
      metadata: new Uint8Array(0),
    });
  emit(A, {
    msgType: MsgType.PROPOSE,
    to: { kind: 'peer', agent: B },
    conversationId: conv,
    payload: neg(bigPrice, 0),
  });
  emit(B, {
    msgType: MsgType.REJECT,
    to: { kind: 'peer', agent: A },
    conversationId: conv,
    payload: neg(bigPrice, 0, 4),
  });
  return { items, agents, bigPriceConversation: conv, bigPrice };
}

/** Stores the fixture: signer keys, envelopes (in ingest batches), and per agent-epoch logs and verified batches. */
export async function loadFixture(
  store: Store,
  fx: Fixture,
  epochSeconds: number,
  o: { batches?: boolean } = {},
): Promise<void> {
  for (const a of fx.agents) await store.registerSignerKey({ agentId: a, publicKey: publicKeyFromSeed(a) });
  for (let i = 0; i < fx.items.length; i += 2_000) await store.ingestEnvelopes(fx.items.slice(i, i + 2_000));
  if (o.batches === false) return;
  const epochUs = BigInt(epochSeconds) * 1_000_000n;
  const logs = new Map<string, { agent: Uint8Array; epoch: bigint; items: IngestItem[] }>();
  const add = (agent: Uint8Array, it: IngestItem) => {
    const epoch = it.envelope.timestamp / epochUs;
    const k = `${toHex(agent)}:${epoch}`;
    const l = logs.get(k) ?? { agent, epoch, items: [] };
    if (!l.items.includes(it)) l.items.push(it);
    logs.set(k, l);
  };
  for (const it of fx.items) {
    const e = it.envelope;
    for (const a of fx.agents) {
      if (isIn(a, e)) add(a, it);
    }
  }
  let slot = 1_000n;
  for (const l of logs.values()) {
    l.items.sort((x, y) =>
      x.envelope.timestamp < y.envelope.timestamp
        ? -1
        : x.envelope.timestamp > y.envelope.timestamp
          ? 1
          : toHex(x.id) < toHex(y.id)
            ? -1
            : 1,
    );
    const batch = buildBatchFromLog({
      agentId: l.agent,
      epochNumber: l.epoch,
      slotStart: 0n,
      slotEnd: 0n,
      envelopes: l.items.map((x) => x.envelope),
    });
    await store.saveEpochLog(
      l.agent,
      l.epoch,
      l.items.map((x) => x.id),
    );
    await store.upsertBatch({
      agentId: l.agent,
      epoch: l.epoch,
      batchHash: fromHex('ee'.repeat(32)),
      root: batch.logMerkleRoot,
      slot: slot++,
      signature: `sig${slot}`,
    });
    await store.setBatchStatus(l.agent, l.epoch, 'verified', batch.logMerkleRoot);
  }
  // A challenge against the first batch, opened then upheld, through the indexer's store method.
  const [first] = logs.values();
  if (first) {
    const c = {
      address: 'Chal1111111111111111111111111111111111111111',
      agentId: first.agent,
      epoch: first.epoch,
      challenger: fx.agents[fx.agents.length - 1],
    };
    await store.upsertChallenge({ ...c, status: 'pending', slot: slot++, signature: 'sigOpen' });
    await store.upsertChallenge({ ...c, status: 'upheld', slot: slot++, signature: 'sigResolve' });
  }
}

/** Whether `agent`'s log holds `e` (lib/agents/chain-duties.ts rule: sent, addressed to it, or FEEDBACK about it). */
export function isIn(agent: Uint8Array, e: Envelope): boolean {
  const eq = (x: Uint8Array) => x.length === agent.length && x.every((b, i) => b === agent[i]);
  if (eq(e.sender) || eq(e.recipient)) return true;
  return e.msgType === MsgType.FEEDBACK && e.payload.length === 52 && eq(e.payload.subarray(16, 48));
}

export const U64_MAX = (1n << 64n) - 1n;
export const I128_MAX = (1n << 127n) - 1n;

/** Envelopes at the edges of what the protocol allows (extremeItems). */
export interface Extremes {
  items: IngestItem[];
  /**
   * COUNTER at timestamp, nonce and block_ref 2^64-1, priced 2^127-1 with deadline 2^64-1, in a fixture negotiation.
   */
  counterMax: IngestItem;
  /** PROPOSE at timestamp 0 (1970, epoch 0) priced -(2^127-1), in a conversation of its own. */
  proposeZero: IngestItem;
  /** PROPOSE at timestamp 2^64-1 (a negotiation that starts there), priced 2^127-1. */
  proposeMax: IngestItem;
  /** FEEDBACK at timestamp 2^64-1. */
  feedbackMax: IngestItem;
  /** The fixture conversation counterMax joins, and the time of its PROPOSE. */
  joined: Uint8Array;
  joinedAtUs: bigint;
}

/**
 * Signed envelopes of fixture agents 0 and 1 with extreme but valid values (docs/protocol.md §2:
 * any u64 timestamp, nonce and slot; NEG1 prices are int128). Stored straight into a store, as a
 * database written earlier or by another observer may hold them, whatever an upload accepts today.
 */
export function extremeItems(fx: Fixture): Extremes {
  const [A, B] = fx.agents;
  const first = fx.items.find((i) => i.envelope.msgType === MsgType.PROPOSE)!;
  const neg = (price: bigint, round: number, deadline = 0n) =>
    encodeNeg1({
      bidValue: price,
      tokenMint: new Uint8Array(32),
      serviceHash: new Uint8Array(32).fill(7),
      round,
      deadline,
      decayBps: 100,
      maxRounds: 5,
      verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
      reason: 0,
      metadata: new Uint8Array(0),
    });
  const item = (
    from: Uint8Array,
    to: Uint8Array,
    msgType: number,
    conversationId: Uint8Array,
    timestamp: bigint,
    nonce: bigint,
    blockRef: bigint,
    payload: Uint8Array,
  ): IngestItem => {
    const b = buildEnvelope(
      { msgType, sender: from, recipient: to, conversationId, nonce, timestamp, payload, blockRef },
      from,
    );
    return { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'upload', receivedAt: new Date() };
  };
  const joined = first.envelope.conversationId;
  const to = toHex(first.envelope.sender) === toHex(A) ? B : A;
  const counterMax = item(
    to,
    first.envelope.sender,
    MsgType.COUNTER,
    joined,
    U64_MAX,
    U64_MAX,
    U64_MAX,
    neg(I128_MAX, 1, U64_MAX),
  );
  const proposeZero = item(A, B, MsgType.PROPOSE, new Uint8Array(16).fill(0xc0), 0n, 1n, 0n, neg(-I128_MAX, 0));
  const proposeMax = item(
    A,
    B,
    MsgType.PROPOSE,
    new Uint8Array(16).fill(0xc1),
    U64_MAX,
    U64_MAX - 1n,
    U64_MAX,
    neg(I128_MAX, 0),
  );
  const feedbackMax = item(
    A,
    B,
    MsgType.FEEDBACK,
    joined,
    U64_MAX,
    U64_MAX - 2n,
    U64_MAX,
    encodeFeedback({ conversationId: joined, targetAgent: B, score: -100, outcome: 0, isDispute: true, role: 0 }),
  );
  return {
    items: [counterMax, proposeZero, proposeMax, feedbackMax],
    counterMax,
    proposeZero,
    proposeMax,
    feedbackMax,
    joined,
    joinedAtUs: first.envelope.timestamp,
  };
}

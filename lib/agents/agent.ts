/**
 * One demo agent (0x01 spec §6 flows) on its own libp2p node: keys, monotonic nonce, strategy,
 * deals driven by the pure state machine of ./scenario, BEACON/ADVERTISE/DISCOVER on the
 * broadcast topic, notary offers and verdicts, periodic upload of its bilateral envelopes,
 * and (for the misbehaving agent) invalid envelopes of every docs/protocol.md §3 reason.
 */
import {
  createMeshNode,
  type MeshNode,
  type MeshValidationOutcome,
  TOPIC_BROADCAST,
  TOPIC_NOTARY,
  TOPIC_REPUTATION,
} from '../mesh';
import { encodeCanonical } from '../protocol/cbor';
import { keccak256, publicKeyFromSeed, sha256 } from '../protocol/crypto';
import { buildEnvelope } from '../protocol/envelope';
import { encodeSignedLogUpload } from '../protocol/epoch-log';
import { fromHex, toHex } from '../protocol/hex';
import { decodeFeedback, decodeNotarizeBid } from '../protocol/payloads';
import type { ReasonCode } from '../protocol/types';
import { MsgType } from '../protocol/types';
import { validateEnvelopeSync } from '../protocol/validate';
import { AgentLog } from './agent-log';
import { beaconMessages, broadcast, concat, parseBeacon, SERVICE, u64 } from './beacon';
import { ChainDuties, type PublishedBatch } from './chain-duties';
import { FAULT_REASONS, makeFault } from './faults';
import { HaggleMirror } from './haggle-mirror';
import { createRng } from './rng';
import {
  type DealEvent,
  type DealState,
  newDeal,
  notaryOffer,
  notaryVerdicts,
  type Outgoing,
  ringFeedback,
  step,
} from './scenario';
import { drawSealed, drawStance } from './stances';
import type { AgentConfig, AgentHooks } from './types';

const TOPICS = { broadcast: TOPIC_BROADCAST, notary: TOPIC_NOTARY, reputation: TOPIC_REPUTATION } as const;
/** A deal with no message for this long is dropped (generous: on a busy machine the agents run niced and slow). */
const DEAL_IDLE_MS = 30_000;
const RING_TAG = new TextEncoder().encode('zerox1-demo/ring');
/** Longest an agent waits for a subscriber of the broadcast topic before its first beacon, ms. */
const FIRST_GOSSIP_WAIT_MS = 5_000;

export class DemoAgent {
  readonly cfg: AgentConfig;
  readonly #hooks: AgentHooks;
  readonly #seed: Uint8Array;
  readonly #id: Uint8Array;
  readonly #self: string;
  /** Separate streams so timing (how many beacons went out) never shifts a deal's stance. */
  readonly #rng;
  readonly #rngMisc;
  readonly #rngNotary;
  readonly #rngRing;
  readonly #now: () => number;
  #nonce: bigint;
  #mesh?: MeshNode;
  #peers = new Map<string, string[]>();
  #sellers = new Set<string>();
  #advertised = false;
  #deals = new Map<string, { state: DealState; touched: number }>();
  #nonces = new Map<string, bigint>();
  #registry: { keysFor(id: Uint8Array): Uint8Array[] };
  #outbox: Uint8Array[] = [];
  #timers = new Set<NodeJS.Timeout>();
  #chain: Promise<unknown> = Promise.resolve();
  #stopped = false;
  #faultIndex = 0;
  #lastAccepted = 0n;
  /** The agent's own log (sent, addressed to it, FEEDBACK about it): its batches are built from it. */
  readonly #log = new AgentLog();
  #duties?: ChainDuties;
  /** Settles a share of its deals through the Haggle program too (./haggle-mirror). */
  #haggle?: HaggleMirror;
  #started?: Promise<void>;
  #live?: Promise<void>;
  #funded = false;

  constructor(cfg: AgentConfig, hooks: AgentHooks) {
    this.cfg = cfg;
    this.#hooks = hooks;
    this.#seed = fromHex(cfg.seedHex);
    this.#id = fromHex(cfg.agentIdHex);
    this.#self = cfg.agentIdHex;
    this.#rng = createRng(cfg.rngSeed);
    this.#rngMisc = createRng(cfg.rngSeed ^ 0x5bd1e995);
    this.#rngNotary = createRng(cfg.rngSeed ^ 0x27d4eb2f);
    this.#rngRing = createRng(cfg.rngSeed ^ 0x165667b1);
    this.#now = hooks.now ?? Date.now;
    this.#nonce = BigInt(cfg.nonceStart);
    const dir = new Map(
      Object.entries(cfg.directory).map(([a, k]) => [a, [fromHex(k), ...(cfg.signers?.[a] ?? []).map(fromHex)]]),
    );
    this.#registry = { keysFor: (id) => dir.get(toHex(id)) ?? [] };
  }

  get mesh(): MeshNode | undefined {
    return this.#mesh;
  }

  /**
   * Starts the agent's node and joins the mesh (emits `ready`). It stays silent until
   * {@link registered}: the observer refuses envelopes of an agent whose identity it cannot find,
   * so the node connects while the identity confirms, and gossip starts the moment it has.
   */
  start(): Promise<void> {
    this.#started ??= this.#start();
    return this.#started;
  }

  async #start(): Promise<void> {
    this.#mesh = await createMeshNode({
      listen: ['/ip4/127.0.0.1/tcp/0'],
      bootstrap: this.cfg.bootstrap,
      validate: (bytes) => this.#validate(bytes),
      onEnvelope: (bytes, meta) => this.#enqueue(() => this.#onEnvelope(bytes, meta.via)),
    });
    this.#hooks.emit({
      t: 'ready',
      agentIdHex: this.#self,
      peerId: this.#mesh.peerId,
      multiaddrs: this.#mesh.multiaddrs(),
    });
  }

  /** The agent's identity is registered: beacons, deals, uploads (and faults) begin. Once. */
  registered(): Promise<void> {
    this.#live ??= this.#goLive();
    return this.#live;
  }

  /** The wallet is funded: the on-chain duties start (after {@link registered}). Once. */
  funded(): void {
    if (this.#funded || !this.cfg.chain) return;
    this.#funded = true;
    void this.registered().then(() => this.#startDuties());
  }

  async #goLive(): Promise<void> {
    // Registration may be announced while the node is still starting.
    await this.start();
    if (!this.#mesh || this.#stopped) return;
    // A gossip message published before any peer has announced the topic reaches no one;
    // flood publishing reaches every subscriber as soon as one is known, without waiting for
    // the mesh to form at a heartbeat.
    const until = this.#now() + FIRST_GOSSIP_WAIT_MS;
    while (this.#mesh.subscribers(TOPIC_BROADCAST).length === 0 && this.#now() < until && !this.#stopped)
      await new Promise((r) => setTimeout(r, 25));
    // Through the queue like every other send: a beacon's nonce taken while a stream send is still
    // on its way would reach the peer first by gossip, and the peer's live validation would then
    // refuse the stream envelope as a replay (one nonce sequence per sender, docs/protocol.md §3).
    this.#every(2_000 + this.#rngMisc.int(0, 500), () => this.#enqueue(() => this.#beacon()));
    this.#every(this.cfg.uploadIntervalMs, () => this.flush());
    this.#every(5_000, () => this.#expireDeals());
    if (this.cfg.autopilot) this.#every(this.cfg.tickMs, () => this.#autopilot());
    if (this.cfg.ring && this.cfg.ring.members.length > 1)
      this.#every(this.cfg.ring.everyMs, () => this.#enqueue(() => this.#ringRound()));
    if (this.cfg.misbehave)
      this.#every(Math.max(200, this.cfg.tickMs / 2), () =>
        this.#enqueue(() => this.sendFault(FAULT_REASONS[this.#faultIndex++ % FAULT_REASONS.length])),
      );
    await this.#enqueue(() => this.#beacon());
  }

  #startDuties(): void {
    if (!this.cfg.chain || this.#stopped) return;
    const duties = new ChainDuties(
      this.cfg.chain,
      { seed: this.#seed, agentIdHex: this.#self },
      {
        log: (fromUs, toUs) => this.#log.window(fromUs, toUs),
        flush: () => this.#enqueue(() => this.flush()),
        // Signed with the owner key (the one registered for the agent): only the agent decides its log.
        uploadLog: async (epoch, envelopes, batch) =>
          this.#hooks.uploadLog
            ? this.#hooks.uploadLog(
                encodeSignedLogUpload({
                  agent: this.#id,
                  epoch,
                  envelopes,
                  batch,
                  signer: publicKeyFromSeed(this.#seed),
                  seed: this.#seed,
                }),
              )
            : false,
        report: (message) => this.#hooks.emit({ t: 'chain', message }),
        publish: (batch) => this.#hooks.emit({ t: 'published', batch }),
        ownerOf: (agentHex) => this.cfg.directory[agentHex],
        random: () => this.#rng.next(),
        now: this.#now,
      },
    );
    this.#duties = duties;
    const c = this.cfg.chain;
    if (c.haggle && c.haggle.share > 0) {
      this.#haggle = new HaggleMirror(
        c.haggle,
        { seed: this.#seed, rpcUrl: c.rpcUrl, wsUrl: c.wsUrl, usdcMint: c.usdcMint, treasury: c.treasury },
        {
          report: (message) => this.#hooks.emit({ t: 'chain', message }),
          ownerOf: (agentHex) => this.cfg.directory[agentHex],
          now: this.#now,
        },
      );
    }
    duties.start().catch((e) => this.#hooks.emit({ t: 'error', message: `chain start failed: ${e?.message ?? e}` }));
  }

  /** A batch another agent published with its log (the watcher checks it). */
  onPublished(batch: PublishedBatch): void {
    this.#duties?.onPublished(batch);
  }

  /** Peer directory from the parent: agent hex → multiaddrs. */
  setPeers(peers: Record<string, string[]>): void {
    for (const [a, addrs] of Object.entries(peers)) if (a !== this.#self) this.#peers.set(a, addrs);
  }

  /** Opens a deal as buyer with `seller` (tests and autopilot). */
  open(seller: string, sealed: boolean, conversationIdHex?: string): Promise<unknown> {
    return this.#enqueue(async () => {
      const conv = conversationIdHex
        ? fromHex(conversationIdHex)
        : sha256(concat(this.#id, u64(this.#nonce))).slice(0, 16);
      const r = this.#rng;
      const state = newDeal({
        role: 'buyer',
        conversationId: conv,
        self: this.#self,
        peer: seller,
        serviceHash: SERVICE,
        sealed,
        salt: sha256(concat(this.#seed, conv)),
        stance: drawStance(this.cfg.strategy, 'buyer', r),
      });
      await this.#drive(state, { kind: 'open' });
    });
  }

  /** Uploads the bilateral envelopes logged since the last flush. */
  async flush(): Promise<void> {
    if (this.#outbox.length === 0) return;
    const batch = this.#outbox;
    this.#outbox = [];
    let ok = false;
    try {
      ok = await this.#hooks.upload(encodeCanonical(batch));
    } catch {
      ok = false;
    }
    if (!ok) this.#outbox = batch.concat(this.#outbox).slice(-5_000);
  }

  /** Sends one invalid envelope with `reason` straight to the observer (the bootstrap peer). */
  async sendFault(reason: ReasonCode): Promise<string> {
    const nowUs = BigInt(this.#now()) * 1000n;
    const bytes = makeFault(reason, {
      seed: this.#envelopeSeed(),
      agentId: this.#id,
      nonce: ++this.#nonce,
      staleNonce: this.#lastAccepted,
      nowUs,
      random: sha256(concat(this.#id, u64(this.#nonce))),
    });
    const target = this.cfg.bootstrap[0];
    if (target && this.#mesh) await this.#mesh.sendEnvelope(target, bytes).catch(() => undefined);
    return toHex(keccak256(bytes));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#duties?.stop();
    await this.#haggle?.stop();
    for (const t of this.#timers) clearInterval(t);
    await this.#chain.catch(() => undefined);
    await this.flush().catch(() => undefined);
    await this.#mesh?.stop();
  }

  #every(ms: number, f: () => unknown): void {
    const t = setInterval(() => {
      if (!this.#stopped)
        Promise.resolve()
          .then(f)
          .catch((e) => this.#hooks.emit({ t: 'error', message: String(e?.stack ?? e) }));
    }, ms);
    t.unref?.();
    this.#timers.add(t);
  }

  /** Serialises state changes and sends: nonces go out in order. */
  #enqueue<T>(f: () => Promise<T> | T): Promise<T> {
    const p = this.#chain.then(f);
    this.#chain = p.catch((e) => this.#hooks.emit({ t: 'error', message: String(e?.stack ?? e) }));
    return p;
  }

  /** The key envelopes are signed with: the delegate hot wallet while it is in use, else the owner. */
  #envelopeSeed(): Uint8Array {
    const d = this.cfg.delegate;
    if (!d) return this.#seed;
    if (d.fallbackAtMs !== undefined && this.#now() >= d.fallbackAtMs) return this.#seed;
    return fromHex(d.seedHex);
  }

  #isFeedbackAboutMe(msgType: number, payload: Uint8Array): boolean {
    if (msgType !== MsgType.FEEDBACK) return false;
    const f = decodeFeedback(payload);
    return f.ok && toHex(f.value.targetAgent) === this.#self;
  }

  #validate(bytes: Uint8Array): MeshValidationOutcome {
    const r = validateEnvelopeSync(bytes, {
      mode: 'live',
      registry: this.#registry,
      nonces: this.#nonces,
      nowUs: BigInt(this.#now()) * 1000n,
    });
    return r.ok
      ? 'accept'
      : { result: r.reason === 'replay' || r.reason === 'timestamp' ? 'ignore' : 'reject', reason: r.reason };
  }

  async #send(o: Outgoing): Promise<void> {
    if (!this.#mesh) return;
    const nonce = ++this.#nonce;
    const recipient = o.to.kind === 'peer' ? fromHex(o.to.agent) : new Uint8Array(32);
    const env = buildEnvelope(
      {
        msgType: o.msgType,
        sender: this.#id,
        recipient,
        timestamp: BigInt(this.#now()) * 1000n,
        nonce,
        conversationId: o.conversationId,
        payload: o.payload,
      },
      this.#envelopeSeed(),
    );
    // Only gossip is sure to reach the observer: the `replay` fault reuses the last gossiped nonce.
    if (o.to.kind === 'topic') this.#lastAccepted = nonce;
    this.#log.record({ id: env.id, envelope: env.envelope, bytes: env.bytes });
    // On chain the agent's batch must match what the observer stored: upload gossip too (idempotent).
    if (o.to.kind === 'topic' && this.cfg.chain) this.#outbox.push(env.bytes);
    const base = { id: toHex(env.id), msgType: o.msgType, conversationIdHex: toHex(o.conversationId) };
    if (o.to.kind === 'topic') {
      await this.#mesh.publish(TOPICS[o.to.topic], env.bytes).catch(() => undefined);
      this.#hooks.emit({ t: 'sent', ...base, to: o.to.topic, via: 'gossip' });
      return;
    }
    this.#outbox.push(env.bytes);
    this.#haggle?.sent(o.to.agent, o.msgType, o.conversationId, o.payload);
    const addrs = this.#peers.get(o.to.agent) ?? [];
    let delivered = false;
    let lastErr: unknown = 'no known address';
    for (const a of addrs) {
      try {
        await this.#mesh.sendEnvelope(a, env.bytes);
        delivered = true;
        break;
      } catch (e) {
        lastErr = e;
      }
    }
    if (!delivered)
      this.#hooks.emit({
        t: 'error',
        message: `send to ${o.to.agent.slice(0, 8)} failed: ${String((lastErr as Error)?.message ?? lastErr)}`,
      });
    this.#hooks.emit({ t: 'sent', ...base, to: o.to.agent, via: 'stream' });
  }

  async #drive(state: DealState, ev: DealEvent): Promise<void> {
    const r = step(state, ev);
    const key = toHex(state.conversationId);
    this.#deals.set(key, { state: r.state, touched: this.#now() });
    if (r.state.phase !== state.phase || ev.kind === 'open') {
      this.#hooks.emit({
        t: 'deal',
        conversationIdHex: key,
        role: r.state.role,
        phase: r.state.phase,
        outcome: r.state.outcome,
        price: r.state.price,
      });
    }
    for (const o of r.out) await this.#send(o);
    if (r.startAuctionTimerMs !== undefined) {
      const t = setTimeout(
        () =>
          this.#enqueue(() => {
            const d = this.#deals.get(key);
            return d && this.#drive(d.state, { kind: 'auction_closed' });
          }),
        r.startAuctionTimerMs,
      );
      this.#timers.add(t);
    }
    if (r.state.phase === 'closed') this.#deals.delete(key);
  }

  async #onEnvelope(bytes: Uint8Array, via: 'gossip' | 'stream'): Promise<void> {
    const v = validateEnvelopeSync(bytes, { mode: 'archive', registry: this.#registry });
    if (!v.ok) return;
    const e = v.envelope;
    const from = toHex(e.sender);
    const key = toHex(e.conversationId);
    if (via === 'stream') this.#outbox.push(bytes);
    if (from !== this.#self && (toHex(e.recipient) === this.#self || this.#isFeedbackAboutMe(e.msgType, e.payload)))
      this.#log.record({ id: v.id, envelope: e, bytes });
    if (e.msgType === MsgType.BEACON || e.msgType === MsgType.ADVERTISE) {
      const addrs = parseBeacon(e.payload);
      if (addrs) this.#peers.set(from, addrs);
      if (e.msgType === MsgType.ADVERTISE) this.#sellers.add(from);
      return;
    }
    if (e.msgType === MsgType.NOTARIZE_BID) {
      const b = decodeNotarizeBid(e.payload);
      if (b.ok && b.value.bidType === 0 && !this.#deals.has(key)) {
        const off = notaryOffer(e.payload, this.#rngNotary.int(10, 60));
        if (off) await this.#send(off);
        return;
      }
    }
    if (e.msgType === MsgType.NOTARIZE_ASSIGN && toHex(e.recipient) === this.#self) {
      for (const o of notaryVerdicts(e.conversationId, e.payload, this.#rngNotary.next() < this.cfg.verdictPassRate))
        await this.#send(o);
      return;
    }
    if (toHex(e.recipient) === this.#self) this.#haggle?.received(from, e.msgType, e.conversationId, e.payload);
    const deal = this.#deals.get(key);
    if (deal) return this.#drive(deal.state, { kind: 'message', from, msgType: e.msgType, payload: e.payload });
    if (e.msgType === MsgType.PROPOSE && toHex(e.recipient) === this.#self && !this.cfg.idle) {
      const r = this.#rng;
      const state = newDeal({
        role: 'seller',
        conversationId: e.conversationId,
        self: this.#self,
        peer: from,
        serviceHash: SERVICE,
        sealed: e.payload[3] === 0x43 /* 'NEGC' */,
        salt: sha256(concat(this.#seed, e.conversationId)),
        stance: drawStance(this.cfg.strategy, 'seller', r),
      });
      return this.#drive(state, { kind: 'message', from, msgType: e.msgType, payload: e.payload });
    }
  }

  async #beacon(): Promise<void> {
    if (!this.#mesh) return;
    // The first beacon always comes with an ADVERTISE so observers learn the capabilities at once.
    const advertise = this.#rngMisc.next() < 0.3 || !this.#advertised;
    this.#advertised = true;
    for (const o of beaconMessages(
      this.#mesh.peerId,
      this.#mesh.multiaddrs(),
      advertise ? this.cfg.strategy : undefined,
    ))
      await this.#send(o);
  }

  #autopilot(): Promise<unknown> | undefined {
    if (this.cfg.misbehave || this.cfg.idle) return;
    const mine = [...this.#deals.values()].filter((d) => d.state.role === 'buyer').length;
    if (mine > 0) return;
    const candidates = [...this.#peers.keys()].filter(
      (a) => a in this.cfg.directory && a !== this.#self && !this.cfg.avoid?.includes(a),
    );
    if (candidates.length === 0) {
      return this.#enqueue(() => this.#send(broadcast(MsgType.DISCOVER, SERVICE)));
    }
    const known = candidates.filter((a) => this.#sellers.has(a));
    const seller = this.#rngMisc.pick(known.length ? known : candidates);
    return this.open(seller, drawSealed(this.#rngMisc));
  }

  /** Rates every other ring member highly, in a fresh conversation with no deal behind it. */
  async #ringRound(): Promise<void> {
    const ring = this.cfg.ring;
    if (!ring) return;
    const conv = sha256(concat(concat(this.#id, u64(this.#nonce + 1n)), RING_TAG)).slice(0, 16);
    for (const o of ringFeedback(conv, this.#self, ring.members, this.#rngRing.int(92, 100))) await this.#send(o);
  }

  #expireDeals(): void {
    const now = this.#now();
    for (const [k, d] of this.#deals) if (now - d.touched > DEAL_IDLE_MS) this.#deals.delete(k);
  }
}

/**
 * A demo agent's on-chain mirror of its NEG1 negotiations (programs/README.md "Haggle
 * (decisions)", docs/protocol.md §8): for a share of conversations, chosen from the conversation
 * id so both parties agree without asking, every negotiation message the agent sends is also
 * signed on chain by its wallet. The buyer creates the negotiation with the escrow when it opens
 * the deal, the seller joins when the opening arrives, each NEG1 PROPOSE / COUNTER becomes a
 * submit_offer, ACCEPT an accept_offer, REJECT a reject, and the sealed NEGC / NEGR become
 * commit_reservation / reveal_reservation. The two parties act from separate processes, so each
 * action first waits until the chain shows the step before it (the other side's offer, both
 * commitments). The gossip never waits for the chain: a mirror that fails is reported and
 * dropped, and the buyer expires a negotiation left open past its response window.
 */
import { type Connection, PublicKey } from '../chain';
import type { HaggleConfig, haggle, NegotiationRef } from '../chain/haggle';
import {
  acceptNegotiation,
  acceptOffer,
  commitReservation,
  createNegotiation,
  expireNegotiation,
  fetchNegotiation,
  rejectNegotiation,
  revealReservation,
  submitOffer,
} from '../chain/node/haggle';
import { createConnection } from '../chain/node/rpc';
import { Keypair } from '../chain/node/send';
import { fromHex, toHex } from '../protocol/hex';
import { parseNegotiationPayload } from '../protocol/neg1';
import { MsgType } from '../protocol/types';

/** What the parent tells an agent about haggle settlement (IPC JSON). */
export interface HaggleMirrorConfig {
  /** Share of conversations settled on chain, 0..1. */
  share: number;
  /** Escrow per negotiation, USDC base units (decimal string). */
  deposit?: string;
  /** Seconds a party may stay silent before anyone may expire the negotiation (60..3600). */
  responseWindow?: number;
}

export interface HaggleMirrorHooks {
  report(message: string): void;
  /** Owner (wallet) public key hex of an agent, from the directory. */
  ownerOf(agentHex: string): string | undefined;
  now?: () => number;
}

/** True when the conversation is settled on chain: both parties compute the same from the id. */
export function mirroredConversation(conversationId: Uint8Array, share: number): boolean {
  return conversationId.length === 16 && conversationId[0] < Math.round(Math.min(1, Math.max(0, share)) * 256);
}

const NEGOTIATION_TYPES = new Set<number>([MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT, MsgType.REJECT]);
const POLL_MS = 250;
const WAIT_MS = 20_000;
const FEE_BPS = 200;

interface Mirror {
  role: 'buyer' | 'seller';
  ref: NegotiationRef;
  /** NEG1 offers seen so far (sent and received), in order: the round the chain must show before the next one. */
  offers: number;
  queue: Promise<unknown>;
  dead: boolean;
  expiry?: NodeJS.Timeout;
}

type Negotiation = haggle.Negotiation;

export class HaggleMirror {
  readonly #cfg: HaggleMirrorConfig;
  readonly #hooks: HaggleMirrorHooks;
  readonly #owner: Keypair;
  readonly #conn: Connection;
  readonly #config: HaggleConfig;
  readonly #now: () => number;
  readonly #deals = new Map<string, Mirror>();
  #stopped = false;

  constructor(
    cfg: HaggleMirrorConfig,
    p: { seed: Uint8Array; rpcUrl: string; wsUrl?: string; usdcMint: string; treasury: string },
    hooks: HaggleMirrorHooks,
  ) {
    if (!(cfg.share >= 0 && cfg.share <= 1)) throw new RangeError('haggle.share must be in 0..1');
    this.#cfg = cfg;
    this.#hooks = hooks;
    this.#owner = Keypair.fromSeed(p.seed);
    this.#conn = createConnection({ rpcUrl: p.rpcUrl, wsUrl: p.wsUrl });
    this.#config = { usdcMint: new PublicKey(p.usdcMint), treasury: new PublicKey(p.treasury) };
    this.#now = hooks.now ?? Date.now;
  }

  /** A negotiation message this agent sent to `peer`. */
  sent(peer: string, msgType: number, conversationId: Uint8Array, payload: Uint8Array): void {
    if (this.#stopped || !NEGOTIATION_TYPES.has(msgType) || !mirroredConversation(conversationId, this.#cfg.share))
      return;
    const key = toHex(conversationId);
    let m = this.#deals.get(key);
    const p = parseNegotiationPayload(payload);
    if (!m) {
      // Only the buyer opens; anything else without a mirror started before this process knew it.
      if (msgType !== MsgType.PROPOSE) return;
      m = this.#open(key, 'buyer', peer, conversationId);
      if (!m) return;
      const sealed = p.kind === 'negc';
      const decayBps = p.kind === 'neg1' ? p.neg1.decayBps : 50;
      const maxRounds = p.kind === 'neg1' ? p.neg1.maxRounds : 20;
      this.#step(m, 'create', async () => {
        await createNegotiation(this.#conn, {
          buyer: this.#owner,
          seller: m!.ref.seller,
          conversationId,
          config: this.#config,
          deposit: BigInt(this.#cfg.deposit ?? '2000'),
          deadline: BigInt(Math.floor(this.#now() / 1000) + 900),
          responseWindow: this.#cfg.responseWindow ?? 60,
          decayBps,
          maxRounds,
          protocolFeeBps: FEE_BPS,
          zopaDetection: sealed,
        });
        this.#armExpiry(m!);
      });
    }
    const mm = m;
    if (p.kind === 'negc') {
      this.#step(mm, 'commit', async () => {
        await this.#waitFor(mm, (n) => n !== null);
        await commitReservation(this.#conn, { ...mm.ref, party: this.#owner, commitment: p.commitment });
      });
    } else if (p.kind === 'negr') {
      this.#step(mm, 'reveal', async () => {
        await this.#waitFor(mm, (n) => n !== null && (n.sealed & 3) === 3);
        await revealReservation(this.#conn, {
          ...mm.ref,
          config: this.#config,
          party: this.#owner,
          price: p.reveal.price,
          salt: p.reveal.salt,
        });
      });
    } else if (p.kind === 'neg1' && (msgType === MsgType.PROPOSE || msgType === MsgType.COUNTER)) {
      const round = mm.offers++;
      this.#step(mm, `offer ${round + 1}`, async () => {
        await this.#waitFor(mm, (n) => n !== null && n.joined === 1 && n.round === round);
        await submitOffer(this.#conn, { ...mm.ref, config: this.#config, party: this.#owner, amount: p.neg1.bidValue });
      });
    } else if (msgType === MsgType.ACCEPT) {
      const round = mm.offers;
      this.#step(mm, 'accept', async () => {
        await this.#waitFor(mm, (n) => n !== null && n.round === round);
        await acceptOffer(this.#conn, { ...mm.ref, config: this.#config, party: this.#owner });
        this.#finish(mm, 'settled on chain');
      });
    } else if (msgType === MsgType.REJECT) {
      const round = mm.offers;
      this.#step(mm, 'reject', async () => {
        // Let the last offer land first, and with both sides committed both reveals: without a
        // ZOPA the second reveal closes the negotiation itself (a refund with reason "no ZOPA").
        const n = await this.#waitFor(
          mm,
          (x) => x === null || (x.round === round && ((x.sealed & 3) !== 3 || (x.sealed & 12) === 12)),
          true,
        );
        if (n === null) return this.#finish(mm, 'closed on chain');
        await rejectNegotiation(this.#conn, { ...mm.ref, config: this.#config, party: this.#owner });
        this.#finish(mm, 'rejected on chain');
      });
    }
  }

  /** A negotiation message `from` sent to this agent; call before the deal answers it. */
  received(from: string, msgType: number, conversationId: Uint8Array, payload: Uint8Array): void {
    if (this.#stopped || !NEGOTIATION_TYPES.has(msgType) || !mirroredConversation(conversationId, this.#cfg.share))
      return;
    const key = toHex(conversationId);
    let m = this.#deals.get(key);
    const p = parseNegotiationPayload(payload);
    if (!m) {
      if (msgType !== MsgType.PROPOSE || (p.kind !== 'neg1' && p.kind !== 'negc')) return;
      m = this.#open(key, 'seller', from, conversationId);
      if (!m) return;
      const mm = m;
      this.#step(mm, 'join', async () => {
        await this.#waitFor(mm, (n) => n !== null);
        await acceptNegotiation(this.#conn, { ...mm.ref, seller: this.#owner });
      });
    }
    if (p.kind === 'neg1' && (msgType === MsgType.PROPOSE || msgType === MsgType.COUNTER)) m.offers++;
    if (msgType === MsgType.ACCEPT || msgType === MsgType.REJECT) {
      // The other side closes it on chain; keep nothing here.
      if (m.role === 'seller') this.#deals.delete(key);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const m of this.#deals.values()) clearInterval(m.expiry);
    const ws = (this.#conn as unknown as { _rpcWebSocket?: { close(): void; setAutoReconnect?(v: boolean): void } })
      ._rpcWebSocket;
    ws?.setAutoReconnect?.(false);
    try {
      ws?.close();
    } catch {
      /* not open */
    }
  }

  #open(key: string, role: 'buyer' | 'seller', peer: string, conversationId: Uint8Array): Mirror | undefined {
    const peerOwner = this.#hooks.ownerOf(peer);
    if (!peerOwner) return undefined;
    const other = new PublicKey(fromHex(peerOwner));
    const me = this.#owner.publicKey;
    const ref = {
      buyer: role === 'buyer' ? me : other,
      seller: role === 'buyer' ? other : me,
      conversationId: new Uint8Array(conversationId),
    };
    const m: Mirror = { role, ref, offers: 0, queue: Promise.resolve(), dead: false };
    this.#deals.set(key, m);
    return m;
  }

  /** Runs `f` after the deal's previous steps; a failure reports and drops the mirror. */
  #step(m: Mirror, what: string, f: () => Promise<void>): void {
    m.queue = m.queue.then(async () => {
      if (m.dead || this.#stopped) return;
      try {
        await f();
      } catch (e) {
        m.dead = true;
        this.#hooks.report(
          `haggle ${toHex(m.ref.conversationId).slice(0, 8)}: ${what} ` +
            `failed, the deal goes on off chain (${(e as Error)?.message ?? e})`,
        );
      }
    });
  }

  /** Polls the negotiation until `ok` holds; throws after WAIT_MS (or returns the last state with `lenient`). */
  async #waitFor(m: Mirror, ok: (n: Negotiation | null) => boolean, lenient = false): Promise<Negotiation | null> {
    const until = this.#now() + WAIT_MS;
    for (;;) {
      const n = await fetchNegotiation(this.#conn, m.ref);
      if (ok(n)) return n;
      if (this.#stopped) throw new Error('agent stopping');
      if (this.#now() > until) {
        if (lenient) return n;
        throw new Error(
          `the chain did not reach the expected state (round ${n?.round ?? 'none'}, sealed ${n?.sealed ?? '-'})`,
        );
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  #finish(m: Mirror, message: string): void {
    clearInterval(m.expiry);
    this.#deals.delete(toHex(m.ref.conversationId));
    this.#hooks.report(`haggle ${toHex(m.ref.conversationId).slice(0, 8)}: ${message}`);
  }

  /** Buyer: expires the negotiation once nobody acted within its response window (the escrow comes back). */
  #armExpiry(m: Mirror): void {
    const window = (this.#cfg.responseWindow ?? 60) * 1000;
    m.expiry = setInterval(
      () => {
        if (this.#stopped) return clearInterval(m.expiry);
        void (async () => {
          const n = await fetchNegotiation(this.#conn, m.ref).catch(() => undefined);
          if (n === undefined) return;
          if (n === null) {
            clearInterval(m.expiry);
            if (this.#deals.get(toHex(m.ref.conversationId)) === m) this.#deals.delete(toHex(m.ref.conversationId));
            return;
          }
          const now = BigInt(Math.floor(this.#now() / 1000));
          if (now <= n.lastActionAt + BigInt(n.responseWindow) && now <= n.deadline) return;
          await expireNegotiation(this.#conn, { ...m.ref, config: this.#config, payer: this.#owner });
          this.#finish(m, 'expired on chain (a party went silent)');
        })().catch(() => undefined);
      },
      Math.max(5_000, window / 4),
    );
    m.expiry.unref?.();
  }
}

/**
 * A negotiation generator for the analytics tests (not the demo agents): two parties alternate
 * NEG1 offers drawn from Faratin time-dependent tactics with known β on one shared clock,
 * x(t) = p0 + (r − p0)·(t/t_last)^(1/β), optionally seal and reveal their reservations (NEGC/NEGR),
 * then accept, and the seller may DELIVER. Every message is a real signed 0x01 envelope with a
 * NEG1 / NEGC / NEGR payload built by this folder's encoders, so the analytics and the views read
 * exactly what the mesh would carry. Prices are bigint end to end.
 */
import { type BuildEnvelopeResult, buildEnvelope } from './envelope';
import { encodeNeg1, encodeNegCommit, encodeNegReveal, makeReservationCommitment } from './neg1';
import { MsgType } from './types';

export interface GenSide {
  /** Opening price. */
  p0: bigint;
  /** Reservation price, reached at the last offer of the negotiation. */
  reservation: bigint;
  beta: number;
  decayBps?: number;
  /** Explicit prices instead of the curve (zig-zag, identical, moving away). */
  prices?: bigint[];
  /**
   * Sealed reservation: `commit` NEGC then NEGR (verified), `reveal-only` a NEGR with no NEGC,
   * `bad-reveal` a NEGR that does not open its NEGC, `commit-only` a NEGC never revealed.
   */
  sealed?: 'commit' | 'reveal-only' | 'bad-reveal' | 'commit-only';
}

export interface GenSpec {
  buyer: GenSide;
  seller: GenSide;
  /** Who makes the first offer. */
  first: 'buyer' | 'seller';
  /** Offers per side (the first mover may make one more with `extraFirst`). */
  offersEach: number;
  extraFirst?: boolean;
  /** Time between messages, µs. */
  stepUs?: bigint;
  /** Offers come in pairs stamped with the same millisecond. */
  sameMs?: boolean;
  /** The party that did not make the last offer accepts it (default true)… */
  accept?: boolean;
  /** …at this price instead of the last offer's. */
  acceptPrice?: bigint;
  /** The seller sends DELIVER after the deal (role evidence). */
  deliver?: boolean;
  deadline?: bigint;
  maxRounds?: number;
  conversation?: number;
}

export interface GenMessage extends BuildEnvelopeResult {
  msgType: number;
  senderRole: 'buyer' | 'seller';
}

export interface Generated {
  buyer: Uint8Array;
  seller: Uint8Array;
  conversationId: Uint8Array;
  messages: GenMessage[];
  /** Offers per side in order, and the accepted price. */
  offers: { buyer: bigint[]; seller: bigint[] };
  deal: bigint | null;
  /** Time (µs from the first offer) of each side's offers. */
  times: { buyer: bigint[]; seller: bigint[] };
}

export const GEN_BUYER = (() => {
  const b = new Uint8Array(32);
  b[0] = 0xb0;
  b[31] = 1;
  return b;
})();
export const GEN_SELLER = (() => {
  const b = new Uint8Array(32);
  b[0] = 0x5e;
  b[31] = 2;
  return b;
})();
export const GEN_START_US = 1_790_000_000_000_000n;

/** Faratin offer at u ∈ [0, 1]: p0 + (r − p0)·u^(1/β), rounded to a whole unit, exact in bigint. */
export function faratinPrice(p0: bigint, r: bigint, beta: number, u: number): bigint {
  const f = u ** (1 / beta);
  // Scaled integer arithmetic keeps int128-sized spans exact to the unit.
  const SCALE = 1n << 52n;
  const k = BigInt(Math.round(f * Number(SCALE)));
  const num = (r - p0) * k;
  const q = num / SCALE,
    rem = num % SCALE;
  const twice = (rem < 0n ? -rem : rem) * 2n;
  return p0 + q + (twice >= SCALE ? (num < 0n ? -1n : 1n) : 0n);
}

/** Builds one negotiation as signed envelopes (see the file header). */
export function generateNegotiation(spec: GenSpec): Generated {
  const conv = new Uint8Array(16);
  new DataView(conv.buffer).setUint32(12, spec.conversation ?? 1);
  const id = { buyer: GEN_BUYER, seller: GEN_SELLER };
  const other = (r: 'buyer' | 'seller') => (r === 'buyer' ? 'seller' : 'buyer');
  const step = spec.stepUs ?? 1_000_000n;
  const messages: GenMessage[] = [];
  const nonce = { buyer: 0n, seller: 0n };
  let clock = GEN_START_US;
  const send = (role: 'buyer' | 'seller', msgType: number, payload: Uint8Array, at: bigint) => {
    nonce[role]++;
    const b = buildEnvelope(
      {
        msgType,
        sender: id[role],
        recipient: id[other(role)],
        timestamp: at,
        nonce: nonce[role],
        conversationId: conv,
        payload,
      },
      id[role],
    );
    messages.push({ ...b, msgType, senderRole: role });
  };
  const salt = (role: 'buyer' | 'seller') => new Uint8Array(32).fill(role === 'buyer' ? 0x11 : 0x22);
  const neg1 = (role: 'buyer' | 'seller', price: bigint, round: number, reason = 0) =>
    encodeNeg1({
      bidValue: price,
      tokenMint: new Uint8Array(32),
      serviceHash: new Uint8Array(32).fill(7),
      round,
      deadline: spec.deadline ?? 0n,
      decayBps: spec[role].decayBps ?? 0,
      maxRounds: spec.maxRounds ?? 20,
      verification: { tier: 1, testSuiteHash: new Uint8Array(0) },
      reason,
      metadata: new Uint8Array(0),
    });

  const order: ('buyer' | 'seller')[] = [spec.first, other(spec.first)];
  for (const role of order) {
    const s = spec[role].sealed;
    if (s === 'commit' || s === 'bad-reveal' || s === 'commit-only') {
      send(
        role,
        role === spec.first ? MsgType.PROPOSE : MsgType.COUNTER,
        encodeNegCommit(makeReservationCommitment(spec[role].reservation, salt(role))),
        clock,
      );
      clock += step;
    }
  }
  // Offers on one shared clock: turn k at t_k = k·step from the first offer.
  const total = spec.offersEach * 2 + (spec.extraFirst ? 1 : 0);
  const t0 = clock;
  const offers = { buyer: [] as bigint[], seller: [] as bigint[] };
  const times = { buyer: [] as bigint[], seller: [] as bigint[] };
  for (let k = 0; k < total; k++) {
    const role = order[k % 2];
    const sd = spec[role];
    const i = offers[role].length;
    const u = total > 1 ? k / (total - 1) : 0;
    const price = sd.prices ? sd.prices[i] : faratinPrice(sd.p0, sd.reservation, sd.beta, u);
    // Same-millisecond pairs: both offers of a pair carry the pair's first time.
    const at = spec.sameMs ? t0 + BigInt(Math.floor(k / 2)) * step : t0 + BigInt(k) * step;
    offers[role].push(price);
    times[role].push(at - t0);
    send(role, k === 0 ? MsgType.PROPOSE : MsgType.COUNTER, neg1(role, price, k), at);
    clock = at + step;
  }
  for (const role of order) {
    const s = spec[role].sealed;
    if (s === 'commit' || s === 'reveal-only' || s === 'bad-reveal') {
      const price = s === 'bad-reveal' ? spec[role].reservation + 1n : spec[role].reservation;
      send(role, MsgType.COUNTER, encodeNegReveal({ price, salt: salt(role) }), clock);
      clock += step;
    }
  }
  let deal: bigint | null = null;
  if (spec.accept !== false && total > 0) {
    const lastRole = order[(total - 1) % 2];
    deal = spec.acceptPrice ?? offers[lastRole][offers[lastRole].length - 1];
    send(other(lastRole), MsgType.ACCEPT, neg1(other(lastRole), deal, total), clock);
    clock += step;
  }
  if (spec.deliver) send('seller', MsgType.DELIVER, new Uint8Array([1, 2, 3]), clock);
  return { buyer: GEN_BUYER, seller: GEN_SELLER, conversationId: conv, messages, offers, deal, times };
}

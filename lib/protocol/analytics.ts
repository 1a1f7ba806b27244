/**
 * Negotiation analytics over one conversation's NEG1 / NEGC / NEGR messages (docs/protocol.md §8;
 * docs/analytics.md defines every figure, from analytics-defs.ts). Two rules run through it:
 * a figure is computed only from verified inputs (roles from evidence, reservations whose reveal
 * opens the same party's earlier commitment), otherwise it is "unknown" with the reason; and prices
 * stay exact (bigint, or a ratio of bigints for the Nash and Rubinstein prices). Floats appear only
 * in ratios and in the curve fit.
 */

import { decodeAdvertise } from './advertise';
import { FIT, type FigureKey, ROLE_SOURCES, type RoleSource } from './analytics-defs';
import { toHex } from './hex';
import type { Neg1Payload, NegReveal } from './neg1';
import { checkZopaCommitment, parseNegotiationPayload } from './neg1';
import { MsgType } from './types';

export { FIGURE_KEYS, FIGURES, FIT, type FigureKey, ROLE_SOURCES, type RoleSource } from './analytics-defs';

/** One message of the conversation, in the order it was stored. Give `neg1` decoded or the raw `payload`. */
export interface NegotiationMessage {
  sender: string | Uint8Array;
  /** Absent or all zero: broadcast. */
  recipient?: string | Uint8Array;
  msgType: number;
  /** Envelope timestamp (docs/protocol.md §2 item 4, µs); only differences matter. */
  timestamp: bigint | number;
  neg1?: Neg1Payload;
  payload?: Uint8Array;
}

export type Role = 'buyer' | 'seller';

/** A statement that `agent` is the buyer or the seller, and where it comes from. */
export interface RoleClaim {
  source: RoleSource;
  agent: string | Uint8Array;
  role: Role;
}

export interface RoleAssignment {
  buyer: string | null;
  seller: string | null;
  /** Sources that named a role, in the order they were applied. */
  sources: RoleSource[];
  /** Claims left out and why (contradictions). */
  ignored: string[];
}

/** An exact rational amount in token units; den > 0. */
export interface Ratio {
  num: bigint;
  den: bigint;
}

export type CurveClass = 'boulware' | 'linear' | 'conceder';
export type Movement =
  | 'single offer'
  | 'no movement'
  | 'conceding'
  | 'moving away'
  | 'zig-zag'
  | 'monotone, direction unknown';

/** Least-squares Faratin fit x(t) = a + b·u^(1/β), u = t/t_max on the shared clock. */
export interface CurveFit {
  beta: number;
  /** sqrt(mean squared error) in token units (float). */
  rmse: number;
  /** rmse over the side's price range. */
  relativeRmse: number;
  /** β is at the edge of the search range: the data do not pin it down. */
  atBound: boolean;
  /** a and b (float, for drawing) and the clock: u = (t − t0)/(tMax − t0), t in the messages' unit. */
  a: number;
  b: number;
  t0: number;
  tMax: number;
}

export interface SideOffer {
  price: bigint;
  round: number;
  time: bigint;
}

export interface SideAnalysis {
  agent: string;
  role: Role | null;
  /** NEG1 PROPOSE/COUNTER offers in round order. */
  offers: SideOffer[];
  /** Per offer after the first, toward the other side; null when the role is unknown. */
  concessions: bigint[] | null;
  movement: Movement;
  /** Decay the side's own NEG1 messages state; null when it sent none or they differ. */
  decayBps: number | null;
  fit: CurveFit | null;
  class: CurveClass | null;
  /** Why a side figure is unknown: concessions, fit, class, decay. */
  unknown: Partial<Record<'concessions' | 'fit' | 'class' | 'decay', string>>;
}

export interface ReservationCheck {
  agent: string;
  status: 'verified' | 'no commitment' | 'mismatch' | 'not revealed';
  /** The revealed price, verified or not (for display; only verified ones are used). */
  revealed: bigint | null;
}

export interface NegotiationAnalysis {
  /** Negotiating parties: senders and recipients of PROPOSE, COUNTER, ACCEPT, REJECT. */
  parties: string[];
  roles: RoleAssignment;
  /** NEG1 offers (PROPOSE + COUNTER) of both sides. */
  rounds: number;
  firstMover: string | null;
  sides: SideAnalysis[];
  deal: { price: bigint; acceptedBy: string } | null;
  reservations: ReservationCheck[];
  zopa: { exists: boolean; buyerReservation: bigint; sellerReservation: bigint; width: bigint } | null;
  nash: { price: Ratio } | null;
  nashDistance: { distance: Ratio; relative: number | null } | null;
  /** Shares of the ZOPA width: null when the width is 0 or the deal lies outside the ZOPA (see outsideZopaBy). */
  surplus: { buyer: bigint; seller: bigint; buyerShare: number | null; sellerShare: number | null } | null;
  /**
   * How far the deal price lies outside the ZOPA: the most either side passed its own verified
   * reservation by (max(price − r_buyer, r_seller − price, 0)); 0 inside; null without a deal or a known ZOPA.
   */
  outsideZopaBy: bigint | null;
  rubinstein: {
    firstMover: string;
    deltaFirst: Ratio;
    deltaSecond: Ratio;
    share: Ratio;
    limit: boolean;
    price: Ratio;
  } | null;
  escrowBurned: { deposit: bigint; burned: bigint; decayBps: number; rounds: number } | null;
  /** Why each null figure is unknown (docs/analytics.md "Unknown when"). */
  unknown: Partial<Record<FigureKey, string>>;
}

/** The Haggle negotiation account of the conversation, when there is one (amounts as the chain holds them). */
export interface EscrowOnChain {
  deposit: bigint;
  burned: bigint;
  decayBps: number;
  rounds: number;
}

/**
 * The conversation's Haggle account as role evidence: its buyer and seller wallets (base58) and its
 * on-chain offers in order (side 1 buyer, 2 seller). `addressOf` turns an agent id (hex) into the
 * address form of the wallets, so a party whose id is the wallet is matched directly.
 */
export interface HaggleAccount {
  buyer: string;
  seller: string;
  /** On-chain offers in chain order; `round` is the chain's round after the offer (1 for the first). */
  offers: readonly { side: number | null; amount: bigint | null; round?: number | null }[];
  addressOf?: (agentHex: string) => string;
}

export interface AnalyzeOptions {
  /** Role evidence gathered outside the conversation (ADVERTISE, DISCOVER). */
  evidence?: RoleClaim[];
  /** The Haggle account (role evidence). */
  haggle?: HaggleAccount | null;
  /** Its escrow (the figure "escrow burned"). */
  escrow?: EscrowOnChain | null;
}

/**
 * Roles a Haggle account states: a party whose id is a wallet, and the sender of the gossiped NEG1
 * offer paired by round with an on-chain offer of the same amount (offer-match.ts's rule: chain
 * round r + shift, where the opening PROPOSE is the chain's round 1), who is then that offer's
 * side. Contradictory claims are dropped by {@link assignRoles}.
 */
export function haggleRoleClaims(
  h: HaggleAccount,
  parties: readonly string[],
  gossip: readonly { sender: string; price: bigint; round: number; opening?: boolean }[],
): RoleClaim[] {
  const out: RoleClaim[] = [];
  if (h.addressOf) {
    for (const p of parties) {
      const addr = h.addressOf(p);
      if (addr === h.buyer) out.push({ source: 'haggle', agent: p, role: 'buyer' });
      if (addr === h.seller) out.push({ source: 'haggle', agent: p, role: 'seller' });
    }
  }
  // `gossip` is in round order; a second offer in one round has no on-chain counterpart.
  const opening = gossip.find((g) => g.opening);
  const shift = opening ? 1 - opening.round : 1;
  const at = new Map<number, { sender: string; price: bigint }>();
  for (const g of gossip) if (!at.has(g.round + shift)) at.set(g.round + shift, g);
  h.offers.forEach((c, i) => {
    const g = at.get(typeof c.round === 'number' ? c.round : i + 1);
    const side = c.side === 1 ? 'buyer' : c.side === 2 ? 'seller' : null;
    if (g && side && c.amount === g.price) out.push({ source: 'haggle', agent: g.sender, role: side });
  });
  return out;
}

const BPS = 10_000n;
const NO_RATE = '(it stated none, or different rates)';
const hexOf = (s: string | Uint8Array) => (typeof s === 'string' ? s.toLowerCase() : toHex(s));
const isZero = (h: string) => /^0*$/.test(h);
const abs = (x: bigint) => (x < 0n ? -x : x);

function reduce(num: bigint, den: bigint): Ratio {
  if (den === 0n) throw new RangeError('zero denominator');
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  let a = abs(num),
    b = den;
  while (b) [a, b] = [b, a % b];
  return a > 1n ? { num: num / a, den: den / a } : { num, den };
}

/** A ratio as a decimal string, rounded half away from zero to `digits` places (trailing zeros dropped). */
export function ratioToDecimal(r: Ratio, digits = 6): string {
  const scale = 10n ** BigInt(digits);
  const neg = r.num < 0n;
  const n = abs(r.num) * scale;
  let q = n / r.den;
  if ((n % r.den) * 2n >= r.den) q++;
  const s = q.toString().padStart(digits + 1, '0');
  const int = s.slice(0, s.length - digits);
  const frac = s.slice(s.length - digits).replace(/0+$/, '');
  return `${neg && q !== 0n ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

export const ratioToNumber = (r: Ratio) => Number(r.num) / Number(r.den);

/**
 * Rubinstein's first-mover share x* = (1 − δB)/(1 − δA·δB) with δ = 1 − bps/10,000 per side, exact.
 * No decay on both sides (δ = 1) is the equal-discounting limit ½; δB = 1 alone gives 0, δA = 1 alone 1.
 */
export function rubinsteinShareBps(decayFirstBps: number, decaySecondBps: number): { share: Ratio; limit: boolean } {
  for (const [n, d] of [
    ['decayFirstBps', decayFirstBps],
    ['decaySecondBps', decaySecondBps],
  ] as const) {
    if (!Number.isInteger(d) || d < 0 || d > 10_000) throw new RangeError(`${n} must be an integer 0..10000`);
  }
  const a = BigInt(decayFirstBps),
    b = BigInt(decaySecondBps);
  if (a === 0n && b === 0n) return { share: { num: 1n, den: 2n }, limit: true };
  // (b/10⁴) / (1 − (10⁴−a)(10⁴−b)/10⁸) = b·10⁴ / (10⁸ − (10⁴−a)(10⁴−b))
  return { share: reduce(b * BPS, BPS * BPS - (BPS - a) * (BPS - b)), limit: false };
}

/** Rubinstein alternating-offers share of the first mover for discount factors in [0, 1]; both 1 → ½ (the limit). */
export function rubinsteinShare(deltaA: number, deltaB: number): number {
  for (const [n, d] of [
    ['deltaA', deltaA],
    ['deltaB', deltaB],
  ] as const) {
    if (!(d >= 0 && d <= 1)) throw new RangeError(`${n} must be in [0, 1]`);
  }
  if (deltaA === 1 && deltaB === 1) return 0.5;
  return (1 - deltaB) / (1 - deltaA * deltaB);
}

/** Nash bargaining price (rB + rS)/2 with linear utilities, exact; null when rB < rS. */
export function nashBargainingPoint(p: { buyerReservation: bigint; sellerReservation: bigint }): Ratio | null {
  if (p.buyerReservation < p.sellerReservation) return null;
  return reduce(p.buyerReservation + p.sellerReservation, 2n);
}

/**
 * Least-squares fit of y = a + b·u^(1/β) (u in [0, 1]): a and b in closed form for each β, ln β by a
 * grid over [−bound, bound] refined by golden-section search. Returns null when u does not vary.
 */
export function fitFaratin(
  us: number[],
  ys: number[],
): { beta: number; a: number; b: number; sse: number; atBound: boolean } | null {
  const n = us.length;
  if (n < 2 || ys.length !== n) return null;
  const solve = (lnBeta: number) => {
    const e = Math.exp(-lnBeta);
    let sg = 0,
      sy = 0,
      sgg = 0,
      sgy = 0;
    const raw = us.map((u) => (u <= 0 ? 0 : u ** e));
    // Scaled to a maximum of 1 (b absorbs the scale): steep curves would otherwise vanish in
    // floating point (0.8^148 ≈ 5e-15) and look like no fit at all.
    const top = Math.max(...raw);
    const g = top > 0 ? raw.map((x) => x / top) : raw;
    for (let i = 0; i < n; i++) {
      sg += g[i];
      sy += ys[i];
      sgg += g[i] * g[i];
      sgy += g[i] * ys[i];
    }
    const varG = sgg - (sg * sg) / n;
    const b = varG > 1e-18 ? (sgy - (sg * sy) / n) / varG : 0;
    const a = (sy - b * sg) / n;
    let sse = 0;
    for (let i = 0; i < n; i++) {
      const d = a + b * g[i] - ys[i];
      sse += d * d;
    }
    return { a, b: top > 0 ? b / top : b, sse, varG };
  };
  if (Math.min(...us) === Math.max(...us)) return null;
  const B = FIT.lnBetaBound;
  const step = 0.05;
  let best = -B,
    bestSse = Infinity;
  for (let x = -B; x <= B + 1e-9; x += step) {
    const s = solve(x).sse;
    if (s < bestSse) {
      bestSse = s;
      best = x;
    }
  }
  let lo = Math.max(-B, best - step),
    hi = Math.min(B, best + step);
  const g = (Math.sqrt(5) - 1) / 2;
  let c = hi - g * (hi - lo),
    d = lo + g * (hi - lo);
  let fc = solve(c).sse,
    fd = solve(d).sse;
  for (let i = 0; i < 80; i++) {
    if (fc < fd) {
      hi = d;
      d = c;
      fd = fc;
      c = hi - g * (hi - lo);
      fc = solve(c).sse;
    } else {
      lo = c;
      c = d;
      fc = fd;
      d = lo + g * (hi - lo);
      fd = solve(d).sse;
    }
  }
  const lnBeta = (lo + hi) / 2;
  const r = solve(lnBeta);
  return { beta: Math.exp(lnBeta), a: r.a, b: r.b, sse: r.sse, atBound: Math.abs(lnBeta) > B - 0.01 };
}

/** Faratin class of a fitted β (analytics-defs.ts FIT.linearBand). */
export function curveClass(beta: number): CurveClass {
  const l = Math.log(beta);
  return Math.abs(l) <= FIT.linearBand ? 'linear' : l < 0 ? 'boulware' : 'conceder';
}

function movementOf(prices: bigint[], role: Role | null): Movement {
  if (prices.length === 1) return 'single offer';
  let up = false,
    down = false;
  for (let i = 1; i < prices.length; i++) {
    if (prices[i] > prices[i - 1]) up = true;
    else if (prices[i] < prices[i - 1]) down = true;
  }
  if (!up && !down) return 'no movement';
  if (up && down) return 'zig-zag';
  if (role === null) return 'monotone, direction unknown';
  return (role === 'buyer') === up ? 'conceding' : 'moving away';
}

/** Applies role claims in source order (analytics-defs.ts ROLE_SOURCES) to the negotiating parties. */
export function assignRoles(parties: readonly string[], claims: readonly RoleClaim[]): RoleAssignment {
  const out: RoleAssignment = { buyer: null, seller: null, sources: [], ignored: [] };
  const isParty = new Set(parties);
  for (const source of ROLE_SOURCES) {
    const mine = claims
      .filter((c) => c.source === source)
      .map((c) => ({ agent: hexOf(c.agent), role: c.role }))
      .filter((c) => isParty.has(c.agent));
    if (mine.length === 0) continue;
    const buyers = new Set(mine.filter((c) => c.role === 'buyer').map((c) => c.agent));
    const sellers = new Set(mine.filter((c) => c.role === 'seller').map((c) => c.agent));
    if (buyers.size > 1 || sellers.size > 1 || [...buyers].some((a) => sellers.has(a))) {
      out.ignored.push(`${source}: names more than one party for a role, or one party for both`);
      continue;
    }
    let buyer = [...buyers][0] ?? null,
      seller = [...sellers][0] ?? null;
    if (parties.length === 2) {
      const other = (a: string) => parties.find((p) => p !== a)!;
      if (buyer && !seller) seller = other(buyer);
      else if (seller && !buyer) buyer = other(seller);
    }
    if (
      (buyer && (buyer === out.seller || (out.buyer && out.buyer !== buyer))) ||
      (seller && (seller === out.buyer || (out.seller && out.seller !== seller)))
    ) {
      out.ignored.push(`${source}: contradicts ${out.sources.join(', ')}`);
      continue;
    }
    if ((buyer && !out.buyer) || (seller && !out.seller)) out.sources.push(source);
    out.buyer ??= buyer;
    out.seller ??= seller;
    if (out.buyer && out.seller) break;
  }
  return out;
}

interface Neg1Msg {
  who: string;
  type: number;
  neg1: Neg1Payload;
  time: bigint;
  index: number;
}

/** Analyses one conversation's negotiation (docs/analytics.md). */
export function analyzeNegotiation(messages: NegotiationMessage[], opts: AnalyzeOptions = {}): NegotiationAnalysis {
  if (!Array.isArray(messages)) throw new TypeError('messages must be an array');
  const unknown: NegotiationAnalysis['unknown'] = {};
  const parties: string[] = [];
  const addParty = (a: string) => {
    if (!isZero(a) && !parties.includes(a)) parties.push(a);
  };
  const neg1s: Neg1Msg[] = [];
  const commits = new Map<string, Uint8Array>();
  const reveals = new Map<string, { reveal: NegReveal; commitment: Uint8Array | undefined }>();
  const claims: RoleClaim[] = [...(opts.evidence ?? [])];
  messages.forEach((m, index) => {
    const who = hexOf(m.sender);
    const time = BigInt(m.timestamp);
    if (m.msgType === MsgType.DELIVER) {
      claims.push({ source: 'deliver', agent: who, role: 'seller' });
      return;
    }
    if (m.msgType === MsgType.DISCOVER) {
      claims.push({ source: 'discover', agent: who, role: 'buyer' });
      return;
    }
    if (m.msgType === MsgType.ADVERTISE) {
      const role = m.payload ? advertisedRole(m.payload) : null;
      if (role) claims.push({ source: 'advertise', agent: who, role });
      return;
    }
    if (m.msgType < MsgType.PROPOSE || m.msgType > MsgType.REJECT) return;
    addParty(who);
    if (m.recipient !== undefined) addParty(hexOf(m.recipient));
    let neg1 = m.neg1;
    if (!neg1 && m.payload) {
      const p = parseNegotiationPayload(m.payload);
      if (p.kind === 'neg1') neg1 = p.neg1;
      else if (p.kind === 'negc') {
        if (!reveals.has(who)) commits.set(who, p.commitment);
      } else if (p.kind === 'negr') {
        if (!reveals.has(who)) reveals.set(who, { reveal: p.reveal, commitment: commits.get(who) });
      }
    }
    if (neg1) neg1s.push({ who, type: m.msgType, neg1, time, index });
  });

  const offerMsgs = neg1s.filter((m) => m.type === MsgType.PROPOSE || m.type === MsgType.COUNTER);
  const byRound = [...offerMsgs].sort(
    (x, y) => x.neg1.round - y.neg1.round || (x.time < y.time ? -1 : x.time > y.time ? 1 : x.index - y.index),
  );
  const firstMover = byRound[0]?.who ?? null;

  if (opts.haggle)
    claims.push(
      ...haggleRoleClaims(
        opts.haggle,
        parties,
        byRound.map((m) => ({
          sender: m.who,
          price: m.neg1.bidValue,
          round: m.neg1.round,
          opening: m.type === MsgType.PROPOSE,
        })),
      ),
    );
  const roles = assignRoles(parties, claims);
  if (!roles.buyer && !roles.seller)
    unknown.roles = 'no evidence names a buyer or a seller (no Haggle account, DELIVER, ADVERTISE role or DISCOVER)';
  const roleOf = (a: string): Role | null => (a === roles.buyer ? 'buyer' : a === roles.seller ? 'seller' : null);

  // The shared clock runs from the first offer of either side. Faratin's t_max (the deadline, else
  // the last message) only rescales u = t/t_max, which the free span b absorbs (u^(1/β) scales by a
  // constant), so the fit runs on t/t_last: the same β without underflow when a deadline is far off.
  const t0 = offerMsgs.length ? offerMsgs.reduce((m, o) => (o.time < m ? o.time : m), offerMsgs[0].time) : 0n;
  const tMax = neg1s.reduce((m, o) => (o.time > m ? o.time : m), t0);

  /** The decay a party's own NEG1 messages state (offers, ACCEPT, REJECT); null when none or they differ. */
  const decayOf = (agent: string): number | null => {
    const ds = new Set(neg1s.filter((m) => m.who === agent).map((m) => m.neg1.decayBps));
    return ds.size === 1 ? [...ds][0] : null;
  };
  const agents = [...new Set(offerMsgs.map((m) => m.who))];
  const sides: SideAnalysis[] = agents.map((agent) => {
    const mine = byRound.filter((m) => m.who === agent);
    const offers = mine.map((m) => ({ price: m.neg1.bidValue, round: m.neg1.round, time: m.time }));
    const role = roleOf(agent);
    const prices = offers.map((o) => o.price);
    const side: SideAnalysis = {
      agent,
      role,
      offers,
      concessions: null,
      movement: movementOf(prices, role),
      decayBps: null,
      fit: null,
      class: null,
      unknown: {},
    };
    if (role) side.concessions = prices.slice(1).map((p, i) => (role === 'buyer' ? p - prices[i] : prices[i] - p));
    else side.unknown.concessions = 'roles unknown: which way is a concession is not known';
    side.decayBps = decayOf(agent);
    if (side.decayBps === null) side.unknown.decay = 'its NEG1 messages state different decay rates';
    if (offers.length < FIT.minOffers)
      side.unknown.fit = `too few offers to fit a curve (${offers.length}; at least ${FIT.minOffers})`;
    else if (side.movement === 'no movement') side.unknown.fit = 'no movement: every offer is the same price';
    else {
      let lo = prices[0],
        hi = prices[0];
      for (const p of prices) {
        if (p < lo) lo = p;
        if (p > hi) hi = p;
      }
      const range = Number(hi - lo);
      const span = Number(tMax - t0);
      const us = offers.map((o) => (span > 0 ? Number(o.time - t0) / span : 0));
      const ys = prices.map((p) => Number(p - lo) / range);
      const f = span > 0 ? fitFaratin(us, ys) : null;
      if (!f) side.unknown.fit = 'all offers at one instant: no time to fit a curve on';
      else {
        const rel = Math.sqrt(f.sse / offers.length);
        side.fit = {
          beta: f.beta,
          rmse: rel * range,
          relativeRmse: rel,
          atBound: f.atBound,
          a: Number(lo) + f.a * range,
          b: f.b * range,
          t0: Number(t0),
          tMax: Number(tMax),
        };
        const why =
          side.movement === 'zig-zag'
            ? 'offers are not monotone (zig-zag)'
            : !role
              ? 'roles unknown: a curve moving away would look like a concession'
              : side.movement === 'moving away'
                ? 'moving away from the other side'
                : f.atBound
                  ? `β is at the search bound (ln β = ±${FIT.lnBetaBound}): the offers do not determine it`
                  : rel > FIT.maxRelativeRmse
                    ? `poor fit: error ${(rel * 100).toFixed(1)}% of the ` +
                      `price range (above ${FIT.maxRelativeRmse * 100}%)`
                    : null;
        if (why) side.unknown.class = why;
        else side.class = curveClass(f.beta);
      }
    }
    if (side.unknown.fit) side.unknown.class = side.unknown.fit;
    return side;
  });

  const acceptMsg = [...neg1s].reverse().find((m) => m.type === MsgType.ACCEPT);
  const deal = acceptMsg ? { price: acceptMsg.neg1.bidValue, acceptedBy: acceptMsg.who } : null;

  const reservations: ReservationCheck[] = [];
  for (const a of new Set([...commits.keys(), ...reveals.keys()])) {
    const r = reveals.get(a);
    reservations.push({
      agent: a,
      revealed: r?.reveal.price ?? null,
      status: !r
        ? 'not revealed'
        : !r.commitment
          ? 'no commitment'
          : checkZopaCommitment(r.commitment, r.reveal)
            ? 'verified'
            : 'mismatch',
    });
  }
  const verified = (a: string | null) =>
    reservations.find((r) => r.agent === a && r.status === 'verified')?.revealed ?? null;
  const negative =
    neg1s.some((m) => m.neg1.bidValue < 0n) || reservations.some((r) => r.status === 'verified' && r.revealed! < 0n);

  let zopa: NegotiationAnalysis['zopa'] = null;
  const rb = verified(roles.buyer),
    rs = verified(roles.seller);
  const resWhy = (role: Role, agent: string | null) => {
    const r = reservations.find((x) => x.agent === agent);
    if (!r || r.status === 'not revealed') return `the ${role} revealed no reservation`;
    if (r.status === 'no commitment') return `the ${role}'s reveal has no earlier commitment`;
    return `the ${role}'s reveal does not match its commitment`;
  };
  if (!roles.buyer || !roles.seller) unknown.zopa = 'roles unknown';
  else if (rb === null) unknown.zopa = resWhy('buyer', roles.buyer);
  else if (rs === null) unknown.zopa = resWhy('seller', roles.seller);
  else if (negative) unknown.zopa = 'a price is negative: not a valid price for a ZOPA';
  else zopa = { exists: rb >= rs, buyerReservation: rb, sellerReservation: rs, width: rb - rs };

  const noZopa = unknown.zopa ? `ZOPA unknown (${unknown.zopa})` : 'no ZOPA: the reservations do not overlap';
  let nash: NegotiationAnalysis['nash'] = null;
  let nashDistance: NegotiationAnalysis['nashDistance'] = null;
  let surplus: NegotiationAnalysis['surplus'] = null;
  let rubinstein: NegotiationAnalysis['rubinstein'] = null;
  if (zopa?.exists) {
    const { buyerReservation: b, sellerReservation: s, width: w } = zopa;
    nash = { price: nashBargainingPoint({ buyerReservation: b, sellerReservation: s })! };
    if (deal) {
      const d = reduce(abs(2n * deal.price - b - s), 2n);
      nashDistance = { distance: d, relative: w > 0n ? ratioToNumber(d) / Number(w) : null };
      if (w === 0n) unknown.nashDistance = 'relative distance: the ZOPA has zero width';
      // A share outside [0, 1] is no share of the ZOPA: a deal outside it says by how much instead.
      const inside = deal.price >= s && deal.price <= b;
      const shared = w > 0n && inside;
      surplus = {
        buyer: b - deal.price,
        seller: deal.price - s,
        buyerShare: shared ? Number(b - deal.price) / Number(w) : null,
        sellerShare: shared ? Number(deal.price - s) / Number(w) : null,
      };
      if (!inside) unknown.surplus = `shares: the deal is outside the ZOPA by ${outsideBy(deal.price, b, s)}`;
      else if (w === 0n) unknown.surplus = 'shares: the ZOPA has zero width';
    } else {
      unknown.nashDistance = 'no deal';
      unknown.surplus = 'no deal';
    }
    const other = firstMover === roles.buyer ? roles.seller : roles.buyer;
    const dA = firstMover ? decayOf(firstMover) : null,
      dB = other ? decayOf(other) : null;
    if (!firstMover) unknown.rubinstein = 'no first offer';
    else if (dA === null || dB === null)
      unknown.rubinstein = `decay unknown for the ${dA === null ? 'first mover' : 'other side'} ${NO_RATE}`;
    else {
      const { share, limit } = rubinsteinShareBps(dA, dB);
      const price =
        firstMover === roles.buyer
          ? reduce(b * share.den - share.num * w, share.den)
          : reduce(s * share.den + share.num * w, share.den);
      rubinstein = {
        firstMover,
        deltaFirst: reduce(BPS - BigInt(dA), BPS),
        deltaSecond: reduce(BPS - BigInt(dB), BPS),
        share,
        limit,
        price,
      };
    }
  } else {
    unknown.nash = noZopa;
    unknown.nashDistance = noZopa;
    unknown.surplus = noZopa;
    unknown.rubinstein = noZopa;
  }
  if (!deal && !unknown.nashDistance) unknown.nashDistance = 'no deal';

  const outsideZopaBy = deal && zopa ? outsideBy(deal.price, zopa.buyerReservation, zopa.sellerReservation) : null;
  const escrowBurned = opts.escrow ? { ...opts.escrow } : null;
  if (!escrowBurned)
    unknown.escrowBurned = 'no escrow: the negotiation was not settled on chain, so no decay was burned';
  if (!roles.buyer || !roles.seller) unknown.concessions = 'roles unknown';
  if (sides.some((s) => s.unknown.class))
    unknown.curve = sides
      .filter((s) => s.unknown.class)
      .map((s) => `${s.role ?? s.agent.slice(0, 8)}: ${s.unknown.class}`)
      .join('; ');

  return {
    parties,
    roles,
    rounds: offerMsgs.length,
    firstMover,
    sides,
    deal,
    reservations,
    zopa,
    nash,
    nashDistance,
    surplus,
    outsideZopaBy,
    rubinstein,
    escrowBurned,
    unknown,
  };
}

/** The most a price passes either reservation by: the buyer's above r_buyer, the seller's below r_seller; 0 inside. */
function outsideBy(price: bigint, buyerReservation: bigint, sellerReservation: bigint): bigint {
  const over = price - buyerReservation,
    under = sellerReservation - price;
  const m = over > under ? over : under;
  return m > 0n ? m : 0n;
}

/** The `role` an ADVERTISE payload states (docs/protocol.md §8 ADVERTISE hints), if buyer or seller. */
export function advertisedRole(payload: Uint8Array): Role | null {
  const d = decodeAdvertise(payload);
  if (!d.ok || !d.value || typeof d.value !== 'object' || Array.isArray(d.value)) return null;
  const r = (d.value as Record<string, unknown>).role;
  return r === 'buyer' || r === 'seller' ? r : null;
}

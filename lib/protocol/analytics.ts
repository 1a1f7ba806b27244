/**
 * Negotiation analytics over one conversation's NEG1 messages (docs/protocol.md §8; Haggle):
 * rounds, concessions, Faratin time-dependent curve fits, escrow decay cost, ZOPA from
 * revealed reservation prices, the Nash bargaining point and the Rubinstein share.
 * Prices are converted to JS numbers here: analytics, not consensus arithmetic.
 */
import type { Neg1Payload, NegReveal } from './neg1';
import { parseNegotiationPayload, checkZopaCommitment } from './neg1';
import { MsgType } from './types';
import { toHex } from './hex';

/** One message of the conversation, in order. Give `neg1` decoded or the raw `payload`. */
export interface NegotiationMessage {
  sender: string | Uint8Array;
  msgType: number;
  timestamp: bigint | number;
  neg1?: Neg1Payload;
  payload?: Uint8Array;
}

/** Curve class of the Faratin family offer(t) = p0 + (pEnd - p0)·(t)^(1/β). */
export type CurveClass = 'boulware' | 'linear' | 'conceder';

/** A side's concession curve fit; β < 1 Boulware, ≈ 1 linear, > 1 conceder. */
export interface CurveFit { class: CurveClass; beta: number; rmse: number }

/** Per-side analysis. */
export interface SideAnalysis {
  agent: string;
  role: 'buyer' | 'seller';
  offers: number[];
  /** Concession per own round toward the other side (positive = conceded). */
  concessions: number[];
  /** null with fewer than 3 offers or no movement. */
  curve: CurveFit | null;
}

/** Options of {@link analyzeNegotiation}. */
export interface AnalyzeOptions {
  /** Hex agent id of the buyer; default: the side whose first offer is lower. */
  buyer?: string;
  /** Reservation prices for the Nash point (buyer: highest it pays; seller: lowest it takes). */
  reservation?: { buyer: number; seller: number };
  /** Amount the escrow decay applies to; default the deal price. */
  escrow?: number;
  /** Curve time axis: own offer index (default) or message timestamps. */
  timeBasis?: 'round' | 'timestamp';
  /** β band treated as linear: [1/linearBand, linearBand]; default 1.25. */
  linearBand?: number;
}

/** Result of {@link analyzeNegotiation}. */
export interface NegotiationAnalysis {
  rounds: number;
  sides: SideAnalysis[];
  deal: { price: number; acceptedBy: string } | null;
  escrowDecay: { decayBps: number; rounds: number; amount: number; cost: number } | null;
  zopa: { exists: boolean; buyerReservation: number; sellerReservation: number; width: number; commitmentsValid: boolean } | null;
  nash: { price: number; distance: number; relativeDistance: number } | null;
}

/** Rubinstein alternating-offers share of the first mover: x* = (1-δB)/(1-δA·δB). */
export function rubinsteinShare(deltaA: number, deltaB: number): number {
  for (const [n, d] of [['deltaA', deltaA], ['deltaB', deltaB]] as const) {
    if (!(d >= 0 && d < 1)) throw new RangeError(`${n} must be in [0, 1)`);
  }
  return (1 - deltaB) / (1 - deltaA * deltaB);
}

/**
 * Nash bargaining price with linear utilities u_buyer = rB - p, u_seller = p - rS and
 * disagreement payoffs 0 (or given): argmax (rB - p - dB)(p - rS - dS) = (rB - dB + rS + dS)/2.
 * Returns null when there is no ZOPA.
 */
export function nashBargainingPoint(p: { buyerReservation: number; sellerReservation: number; buyerDisagreement?: number; sellerDisagreement?: number }): number | null {
  const hi = p.buyerReservation - (p.buyerDisagreement ?? 0);
  const lo = p.sellerReservation + (p.sellerDisagreement ?? 0);
  if (!Number.isFinite(hi) || !Number.isFinite(lo)) throw new RangeError('reservation prices must be finite');
  if (hi < lo) return null;
  return (hi + lo) / 2;
}

/** Least-squares fit of f(t) = t^e on [0,1] by golden-section search over ln e ∈ [-6, 6]. */
export function fitFaratin(ts: number[], fs: number[], linearBand = 1.25): CurveFit {
  const sse = (lnE: number) => {
    const e = Math.exp(lnE);
    let s = 0;
    for (let i = 0; i < ts.length; i++) { const d = Math.pow(ts[i], e) - fs[i]; s += d * d; }
    return s;
  };
  let a = -6, b = 6;
  const g = (Math.sqrt(5) - 1) / 2;
  let c = b - g * (b - a), d = a + g * (b - a);
  for (let i = 0; i < 100; i++) {
    if (sse(c) < sse(d)) b = d; else a = c;
    c = b - g * (b - a); d = a + g * (b - a);
  }
  const lnE = (a + b) / 2;
  const beta = 1 / Math.exp(lnE);
  const cls: CurveClass = beta < 1 / linearBand ? 'boulware' : beta > linearBand ? 'conceder' : 'linear';
  return { class: cls, beta, rmse: Math.sqrt(sse(lnE) / ts.length) };
}

const hexOf = (s: string | Uint8Array) => (typeof s === 'string' ? s.toLowerCase() : toHex(s));

/** Analyses one conversation (docs/protocol.md §8 NEG1/NEGC/NEGR messages, in order). */
export function analyzeNegotiation(messages: NegotiationMessage[], opts: AnalyzeOptions = {}): NegotiationAnalysis {
  if (!Array.isArray(messages)) throw new TypeError('messages must be an array');
  type Offer = { price: number; t: number; neg1: Neg1Payload };
  const offers = new Map<string, Offer[]>();
  const commits = new Map<string, Uint8Array>();
  const reveals = new Map<string, NegReveal>();
  let deal: NegotiationAnalysis['deal'] = null;
  let firstNeg1: Neg1Payload | undefined;
  let lastNeg1: Neg1Payload | undefined;
  let rounds = 0;
  for (const m of messages) {
    const who = hexOf(m.sender);
    let neg1 = m.neg1;
    if (!neg1 && m.payload) {
      const p = parseNegotiationPayload(m.payload);
      if (p.kind === 'neg1') neg1 = p.neg1;
      else if (p.kind === 'negc') commits.set(who, p.commitment);
      else if (p.kind === 'negr') reveals.set(who, p.reveal);
    }
    if (!neg1) continue;
    firstNeg1 ??= neg1;
    lastNeg1 = neg1;
    if (m.msgType === MsgType.PROPOSE || m.msgType === MsgType.COUNTER) {
      const list = offers.get(who) ?? [];
      list.push({ price: Number(neg1.bidValue), t: Number(m.timestamp), neg1 });
      offers.set(who, list);
      rounds++;
    } else if (m.msgType === MsgType.ACCEPT) {
      deal = { price: Number(neg1.bidValue), acceptedBy: who };
    }
  }
  const agents = [...offers.keys()];
  let buyer = opts.buyer?.toLowerCase();
  if (!buyer && agents.length === 2) buyer = offers.get(agents[0])![0].price <= offers.get(agents[1])![0].price ? agents[0] : agents[1];
  const sides: SideAnalysis[] = agents.map((agent) => {
    const list = offers.get(agent)!;
    const role = agent === buyer ? 'buyer' : 'seller';
    const sign = role === 'buyer' ? 1 : -1;
    const prices = list.map((o) => o.price);
    const concessions = prices.slice(1).map((p, i) => sign * (p - prices[i]));
    let curve: CurveFit | null = null;
    const span = prices[prices.length - 1] - prices[0];
    if (prices.length >= 3 && span !== 0) {
      const t0 = opts.timeBasis === 'timestamp' ? list[0].t : 0;
      const tEnd = opts.timeBasis === 'timestamp' ? list[list.length - 1].t : list.length - 1;
      if (tEnd > t0) {
        const ts = list.map((o, i) => ((opts.timeBasis === 'timestamp' ? o.t : i) - t0) / (tEnd - t0));
        curve = fitFaratin(ts, prices.map((p) => (p - prices[0]) / span), opts.linearBand);
      }
    }
    return { agent, role, offers: prices, concessions, curve };
  });

  let escrowDecay: NegotiationAnalysis['escrowDecay'] = null;
  const amount = opts.escrow ?? deal?.price;
  if (firstNeg1 && lastNeg1 && amount !== undefined) {
    const r = lastNeg1.round;
    const remaining = amount * Math.pow(1 - firstNeg1.decayBps / 10_000, r);
    escrowDecay = { decayBps: firstNeg1.decayBps, rounds: r, amount, cost: amount - remaining };
  }

  let zopa: NegotiationAnalysis['zopa'] = null;
  const seller = agents.find((a) => a !== buyer);
  if (buyer && seller && reveals.has(buyer) && reveals.has(seller)) {
    const rb = reveals.get(buyer)!, rs = reveals.get(seller)!;
    const valid = [buyer, seller].every((a) => !commits.has(a) || checkZopaCommitment(commits.get(a)!, reveals.get(a)!));
    const b = Number(rb.price), s = Number(rs.price);
    zopa = { exists: b >= s, buyerReservation: b, sellerReservation: s, width: b - s, commitmentsValid: valid };
  }

  let nash: NegotiationAnalysis['nash'] = null;
  const res = opts.reservation ?? (zopa ? { buyer: zopa.buyerReservation, seller: zopa.sellerReservation } : undefined);
  if (res && deal) {
    const point = nashBargainingPoint({ buyerReservation: res.buyer, sellerReservation: res.seller });
    if (point !== null) {
      const width = res.buyer - res.seller;
      const distance = Math.abs(deal.price - point);
      nash = { price: point, distance, relativeDistance: width > 0 ? distance / width : 0 };
    }
  }
  return { rounds, sides, deal, escrowDecay, zopa, nash };
}

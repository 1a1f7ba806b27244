/**
 * One deal from one agent's point of view (0x01 spec §6 flows), as a pure state machine:
 * PROPOSE → COUNTER… → ACCEPT | REJECT with NEG1 payloads (optionally opened by a sealed-bid
 * NEGC commitment and NEGR reveal, docs/protocol.md §8), DELIVER, the notary auction
 * (NOTARIZE_BID request / offers, NOTARIZE_ASSIGN), VERDICT, FEEDBACK both ways, DISPUTE.
 * `step(state, event)` returns the next state and the envelopes to send; the runner owns keys,
 * nonces, clocks and transport. Randomness comes in as numbers on the events that need it.
 */

import { decodeCanonical, encodeCanonical } from '../protocol/cbor';
import { fromHex } from '../protocol/hex';
import {
  checkZopaCommitment,
  encodeNeg1,
  encodeNegCommit,
  encodeNegReveal,
  makeReservationCommitment,
  Neg1Reason,
  parseNegotiationPayload,
} from '../protocol/neg1';
import { decodeNotarizeBid, encodeFeedback, encodeNotarizeBid } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { nextOffer, type Stance, shouldAccept, zopaExists } from './strategies';

/** Where an outgoing envelope goes: a peer over the envelope stream, or a gossip topic (docs/protocol.md §9). */
export type Destination =
  | { kind: 'peer'; agent: string }
  | { kind: 'topic'; topic: 'broadcast' | 'notary' | 'reputation' };

export interface Outgoing {
  msgType: number;
  to: Destination;
  conversationId: Uint8Array;
  payload: Uint8Array;
}

export type Phase = 'commit' | 'reveal' | 'offers' | 'agreed' | 'auction' | 'assigned' | 'closed';

export interface DealState {
  role: 'buyer' | 'seller';
  conversationId: Uint8Array;
  /** Lowercase hex agent ids. */
  self: string;
  peer: string;
  stance: Stance;
  serviceHash: Uint8Array;
  sealed: boolean;
  /** 32-byte salt of this side's reservation commitment (sealed deals). */
  salt: Uint8Array;
  phase: Phase;
  myOffers: number[];
  theirOffers: number[];
  theirCommitment?: Uint8Array;
  price?: number;
  /** Notary offers seen in the auction: agent hex → fee. */
  notaryOffers: Record<string, number>;
  notary?: string;
  verdictPassed?: boolean;
  outcome?: 'agreed' | 'rejected' | 'no_zopa';
}

export type DealEvent =
  | { kind: 'open' }
  | { kind: 'message'; from: string; msgType: number; payload: Uint8Array }
  | { kind: 'auction_closed' };

export interface StepResult {
  state: DealState;
  out: Outgoing[];
  /** Set when the runner should deliver `auction_closed` after this many ms. */
  startAuctionTimerMs?: number;
}

/** Milliseconds the buyer collects notary offers. */
export const AUCTION_WINDOW_MS = 400;

export function newDeal(p: Omit<DealState, 'phase' | 'myOffers' | 'theirOffers' | 'notaryOffers'>): DealState {
  if (p.conversationId.length !== 16) throw new RangeError('conversationId must be 16 bytes');
  if (p.salt.length !== 32) throw new RangeError('salt must be 32 bytes');
  if (p.stance.side !== p.role) throw new RangeError('stance.side must equal role');
  return { ...p, phase: p.sealed ? 'commit' : 'offers', myOffers: [], theirOffers: [], notaryOffers: {} };
}

const ZERO32 = new Uint8Array(32);

function neg1(s: DealState, price: number, round: number, reason = 0): Uint8Array {
  return encodeNeg1({
    bidValue: BigInt(price),
    tokenMint: ZERO32,
    serviceHash: s.serviceHash,
    round,
    deadline: 0n,
    decayBps: 50,
    maxRounds: Math.min(20, s.stance.maxRounds * 2),
    verification: { tier: 2, testSuiteHash: new Uint8Array(0) },
    reason,
    metadata: new Uint8Array(0),
  });
}

function toPeer(s: DealState, msgType: number, payload: Uint8Array, agent = s.peer): Outgoing {
  return { msgType, to: { kind: 'peer', agent }, conversationId: s.conversationId, payload };
}

function feedback(
  s: DealState,
  target: string,
  score: number,
  outcome: number,
  role: number,
  isDispute = false,
): Outgoing {
  const payload = encodeFeedback({
    conversationId: s.conversationId,
    targetAgent: fromHex(target),
    score,
    outcome,
    isDispute,
    role,
  });
  return {
    msgType: MsgType.FEEDBACK,
    to: { kind: 'topic', topic: 'reputation' },
    conversationId: s.conversationId,
    payload,
  };
}

/** The seller delivers on agreement; agreement is reached by either side's ACCEPT. */
function agreed(s: DealState, price: number, out: Outgoing[]): StepResult {
  const next: DealState = { ...s, phase: 'agreed', price, outcome: 'agreed' };
  if (s.role === 'seller') out.push(toPeer(s, MsgType.DELIVER, encodeCanonical([BigInt(price), s.serviceHash])));
  return { state: next, out };
}

/** This side's move after receiving an offer (or to open): counter, accept or reject. */
function respondToOffer(s: DealState, offer: number | undefined, round: number): StepResult {
  const theirOffers = offer === undefined ? s.theirOffers : [...s.theirOffers, offer];
  const mine = nextOffer(s.stance, s.myOffers.length, theirOffers, s.myOffers);
  const st = { ...s, theirOffers };
  if (offer !== undefined && shouldAccept(s.stance, offer, mine)) {
    return agreed(st, offer, [toPeer(st, MsgType.ACCEPT, neg1(st, offer, round))]);
  }
  if (st.myOffers.length >= st.stance.maxRounds) {
    return {
      state: { ...st, phase: 'closed', outcome: 'rejected' },
      out: [toPeer(st, MsgType.REJECT, neg1(st, offer ?? mine, round, Neg1Reason.PRICE))],
    };
  }
  const type = round === 0 ? MsgType.PROPOSE : MsgType.COUNTER;
  return { state: { ...st, myOffers: [...st.myOffers, mine] }, out: [toPeer(st, type, neg1(st, mine, round))] };
}

function onNegotiation(s: DealState, msgType: number, payload: Uint8Array): StepResult {
  const p = parseNegotiationPayload(payload);
  if (msgType === MsgType.REJECT)
    return { state: { ...s, phase: 'closed', outcome: s.outcome ?? 'rejected' }, out: [] };
  if (msgType === MsgType.ACCEPT) {
    if (s.phase !== 'offers' || p.kind !== 'neg1') return { state: s, out: [] };
    return agreed(s, Number(p.neg1.bidValue), []);
  }
  if (p.kind === 'negc' && s.phase === 'commit') {
    const st: DealState = { ...s, theirCommitment: p.commitment, phase: 'reveal' };
    // The seller answers a commitment with its own; the buyer, having committed first, reveals.
    const mine = encodeNegCommit(makeReservationCommitment(BigInt(s.stance.reservation), s.salt));
    if (s.role === 'seller') return { state: st, out: [toPeer(s, MsgType.COUNTER, mine)] };
    return {
      state: st,
      out: [toPeer(s, MsgType.COUNTER, encodeNegReveal({ price: BigInt(s.stance.reservation), salt: s.salt }))],
    };
  }
  if (p.kind === 'negr' && s.phase === 'reveal') {
    if (!s.theirCommitment || !checkZopaCommitment(s.theirCommitment, p.reveal)) {
      return {
        state: { ...s, phase: 'closed', outcome: 'rejected' },
        out: [toPeer(s, MsgType.REJECT, neg1(s, s.stance.reservation, 0, Neg1Reason.TRUST_INSUFFICIENT))],
      };
    }
    const theirs = Number(p.reveal.price);
    const zopa =
      s.role === 'buyer' ? zopaExists(s.stance.reservation, theirs) : zopaExists(theirs, s.stance.reservation);
    const st: DealState = { ...s, phase: 'offers' };
    if (s.role === 'seller') {
      const reveal = toPeer(s, MsgType.COUNTER, encodeNegReveal({ price: BigInt(s.stance.reservation), salt: s.salt }));
      if (!zopa)
        return {
          state: { ...st, phase: 'closed', outcome: 'no_zopa' },
          out: [reveal, toPeer(s, MsgType.REJECT, neg1(s, s.stance.reservation, 0, Neg1Reason.PRICE))],
        };
      return { state: st, out: [reveal] };
    }
    // Buyer: the seller rejects when there is no ZOPA; otherwise open the offers.
    if (!zopa) return { state: { ...st, outcome: 'no_zopa' }, out: [] };
    const r = respondToOffer(st, undefined, 1);
    return r;
  }
  if (p.kind === 'neg1' && s.phase === 'offers' && (msgType === MsgType.PROPOSE || msgType === MsgType.COUNTER)) {
    return respondToOffer(s, Number(p.neg1.bidValue), p.neg1.round + 1);
  }
  return { state: s, out: [] };
}

/** Advances one side of a deal by one event. Unknown or out-of-order messages change nothing. */
export function step(s: DealState, ev: DealEvent): StepResult {
  if (ev.kind === 'open') {
    if (s.role !== 'buyer') throw new RangeError('only the buyer opens a deal');
    if (s.sealed) {
      const c = encodeNegCommit(makeReservationCommitment(BigInt(s.stance.reservation), s.salt));
      return { state: s, out: [toPeer(s, MsgType.PROPOSE, c)] };
    }
    return respondToOffer(s, undefined, 0);
  }
  if (ev.kind === 'auction_closed') {
    if (s.phase !== 'auction') return { state: s, out: [] };
    const offers = Object.entries(s.notaryOffers).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
    if (offers.length === 0) {
      return { state: { ...s, phase: 'closed' }, out: [feedback(s, s.peer, 50, 2, 0)] };
    }
    const [notary, fee] = offers[0];
    const assign = encodeCanonical([fromHex(s.self), fromHex(s.peer), BigInt(fee)]);
    return { state: { ...s, phase: 'assigned', notary }, out: [toPeer(s, MsgType.NOTARIZE_ASSIGN, assign, notary)] };
  }
  const { msgType, payload, from } = ev;
  if (msgType === MsgType.NOTARIZE_BID) {
    const b = decodeNotarizeBid(payload);
    if (
      s.role !== 'buyer' ||
      s.phase !== 'auction' ||
      !b.ok ||
      b.value.bidType !== 1 ||
      from === s.self ||
      from === s.peer
    )
      return { state: s, out: [] };
    return { state: { ...s, notaryOffers: { ...s.notaryOffers, [from]: decodeFee(b.value.terms) } }, out: [] };
  }
  if (from !== s.peer && from !== s.notary && msgType !== MsgType.VERDICT) return { state: s, out: [] };
  if (msgType === MsgType.DELIVER) {
    if (s.role !== 'buyer' || s.phase !== 'agreed' || from !== s.peer) return { state: s, out: [] };
    const req = encodeNotarizeBid({
      bidType: 0,
      conversationId: s.conversationId,
      terms: encodeCanonical([BigInt(s.price ?? 0)]),
    });
    return {
      state: { ...s, phase: 'auction' },
      out: [
        {
          msgType: MsgType.NOTARIZE_BID,
          to: { kind: 'topic', topic: 'notary' },
          conversationId: s.conversationId,
          payload: req,
        },
      ],
      startAuctionTimerMs: AUCTION_WINDOW_MS,
    };
  }
  if (msgType === MsgType.VERDICT) {
    const v = decodeVerdict(payload);
    if (!v || (s.phase !== 'agreed' && s.phase !== 'assigned')) return { state: s, out: [] };
    const st: DealState = { ...s, phase: 'closed', verdictPassed: v.passed, notary: from };
    const out: Outgoing[] = [];
    if (v.passed) {
      out.push(feedback(s, s.peer, s.role === 'buyer' ? 80 : 70, 2, 0), feedback(s, from, 60, 2, 1));
    } else if (s.role === 'buyer') {
      out.push(feedback(s, s.peer, -60, 0, 0), feedback(s, from, 40, 1, 1));
    } else {
      // The seller contests a failing verdict.
      out.push(
        toPeer(s, MsgType.DISPUTE, encodeCanonical([s.conversationId, 1]), from),
        feedback(s, from, -40, 0, 1, true),
      );
    }
    return { state: st, out };
  }
  if (s.phase === 'closed' || s.phase === 'agreed' || s.phase === 'auction' || s.phase === 'assigned')
    return { state: s, out: [] };
  return onNegotiation(s, msgType, payload);
}

/** A decoded CBOR integer (bigint or number) as a safe number, else undefined. */
function int(v: unknown): number | undefined {
  if (typeof v === 'bigint')
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : undefined;
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
}

/** NOTARIZE_BID offer terms: CBOR [fee]. */
export function encodeFee(fee: number): Uint8Array {
  return encodeCanonical([BigInt(fee)]);
}

function decodeFee(terms: Uint8Array): number {
  try {
    const v = decodeCanonical(terms);
    const fee = Array.isArray(v) ? int(v[0]) : undefined;
    if (fee !== undefined && fee >= 0) return fee;
  } catch {
    /* opaque terms: an unpriced offer ranks last */
  }
  return Number.MAX_SAFE_INTEGER;
}

/** VERDICT payload of the demo: CBOR [passed 0|1, score -100..100]. */
export function encodeVerdict(passed: boolean, score: number): Uint8Array {
  return encodeCanonical([passed ? 1 : 0, score]);
}

export function decodeVerdict(bytes: Uint8Array): { passed: boolean; score: number } | undefined {
  try {
    const v = decodeCanonical(bytes);
    if (Array.isArray(v) && v.length === 2) {
      const passed = int(v[0]);
      const score = int(v[1]);
      if ((passed === 0 || passed === 1) && score !== undefined && score >= -100 && score <= 100)
        return { passed: passed === 1, score };
    }
  } catch {
    /* not a demo verdict */
  }
  return undefined;
}

/** A notary's side: an offer for a participant request, and verdicts on assignment. */
export function notaryOffer(requestPayload: Uint8Array, fee: number): Outgoing | undefined {
  const r = decodeNotarizeBid(requestPayload);
  if (!r.ok || r.value.bidType !== 0) return undefined;
  const payload = encodeNotarizeBid({ bidType: 1, conversationId: r.value.conversationId, terms: encodeFee(fee) });
  return {
    msgType: MsgType.NOTARIZE_BID,
    to: { kind: 'topic', topic: 'notary' },
    conversationId: r.value.conversationId,
    payload,
  };
}

/** On NOTARIZE_ASSIGN [buyer, seller, fee]: VERDICT to both parties. `passed` is the runner's draw. */
export function notaryVerdicts(conversationId: Uint8Array, assignPayload: Uint8Array, passed: boolean): Outgoing[] {
  let parties: string[];
  try {
    const v = decodeCanonical(assignPayload);
    if (!Array.isArray(v) || v.length !== 3 || !(v[0] instanceof Uint8Array) || !(v[1] instanceof Uint8Array))
      return [];
    parties = [v[0], v[1]].map((b) => Array.from(b as Uint8Array, (x) => x.toString(16).padStart(2, '0')).join(''));
  } catch {
    return [];
  }
  const payload = encodeVerdict(passed, passed ? 90 : -70);
  return parties.map((agent) => ({ msgType: MsgType.VERDICT, to: { kind: 'peer', agent }, conversationId, payload }));
}

/**
 * One round of a feedback ring (the demo's colluders): `self` rates every other member highly in
 * conversation `conversationId`, a conversation with no negotiation and no delivery behind it. The
 * observatory's collusion signals are meant to find exactly this.
 */
export function ringFeedback(
  conversationId: Uint8Array,
  self: string,
  members: readonly string[],
  score: number,
): Outgoing[] {
  if (conversationId.length !== 16) throw new RangeError('conversationId must be 16 bytes');
  return members
    .filter((m) => m !== self)
    .map((target) => ({
      msgType: MsgType.FEEDBACK,
      to: { kind: 'topic', topic: 'reputation' },
      conversationId,
      payload: encodeFeedback({
        conversationId,
        targetAgent: fromHex(target),
        score,
        outcome: 2,
        isDispute: false,
        role: 0,
      }),
    }));
}

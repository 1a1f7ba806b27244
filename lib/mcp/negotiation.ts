/**
 * get_negotiation's answer: a compact trace of the conversation (one short row per message) and
 * the negotiation analytics of lib/protocol/analytics.ts (docs/analytics.md) over its NEG1 / NEGC /
 * NEGR payloads, with amounts as exact decimal strings and every unknown figure with its reason.
 * Roles come from the conversation's own evidence (DELIVER); the web API adds the Haggle account,
 * ADVERTISE and DISCOVER.
 */
import { analyzeNegotiation, type NegotiationAnalysis, ratioToDecimal, ratioToNumber } from '../protocol/analytics';
import type { ConversationView } from '../wire';

const s = (v: bigint | null | undefined) => (v === null || v === undefined ? null : v.toString());

/** The analysis in JSON terms: bigints and exact ratios as decimal strings, floats only for ratios and fits. */
export function analyticsDigest(a: NegotiationAnalysis) {
  return {
    rounds: a.rounds,
    parties: a.parties,
    roles: a.roles,
    firstMover: a.firstMover,
    sides: a.sides.map((x) => ({
      agent: x.agent,
      role: x.role,
      offers: x.offers.map((o) => ({ price: o.price.toString(), round: o.round })),
      concessions: x.concessions?.map(String) ?? null,
      movement: x.movement,
      decayBps: x.decayBps,
      curve: x.fit
        ? { beta: x.fit.beta, relativeRmse: x.fit.relativeRmse, atBound: x.fit.atBound, class: x.class }
        : null,
      unknown: x.unknown,
    })),
    deal: a.deal && { price: a.deal.price.toString(), acceptedBy: a.deal.acceptedBy },
    reservations: a.reservations.map((r) => ({ agent: r.agent, status: r.status, revealed: s(r.revealed) })),
    zopa: a.zopa && {
      exists: a.zopa.exists,
      buyerReservation: s(a.zopa.buyerReservation),
      sellerReservation: s(a.zopa.sellerReservation),
      width: s(a.zopa.width),
    },
    nash: a.nash && {
      price: ratioToDecimal(a.nash.price),
      distance: a.nashDistance ? ratioToDecimal(a.nashDistance.distance) : null,
      relativeDistance: a.nashDistance?.relative ?? null,
    },
    surplus: a.surplus && {
      buyer: s(a.surplus.buyer),
      seller: s(a.surplus.seller),
      buyerShare: a.surplus.buyerShare,
      sellerShare: a.surplus.sellerShare,
    },
    outsideZopaBy: s(a.outsideZopaBy),
    rubinstein: a.rubinstein && {
      share: ratioToNumber(a.rubinstein.share),
      limit: a.rubinstein.limit,
      price: ratioToDecimal(a.rubinstein.price),
      firstMover: a.rubinstein.firstMover,
    },
    escrowBurned: a.escrowBurned && {
      deposit: s(a.escrowBurned.deposit),
      burned: s(a.escrowBurned.burned),
      decayBps: a.escrowBurned.decayBps,
      rounds: a.escrowBurned.rounds,
    },
    unknown: a.unknown,
  };
}

export function negotiationDigest(
  c: ConversationView,
  payloads: { id: string; sender: string; msgType: number; timestamp: bigint; payload: Uint8Array }[],
) {
  const price = new Map(c.pricePath.map((p) => [p.envelopeId, p]));
  let analytics: ReturnType<typeof analyticsDigest> | null = null;
  let analyticsError: string | undefined;
  try {
    analytics = analyticsDigest(
      analyzeNegotiation(
        payloads.map((p) => ({ sender: p.sender, msgType: p.msgType, timestamp: p.timestamp, payload: p.payload })),
      ),
    );
  } catch (e) {
    // A conversation with malformed or no NEG1 payloads still has a trace worth showing.
    analyticsError = e instanceof Error ? e.message : String(e);
  }
  return {
    id: c.id,
    participants: c.participants,
    stage: c.stage,
    outcome: c.outcome,
    state: c.state,
    messages: c.messages,
    firstMs: c.firstMs,
    lastMs: c.lastMs,
    trace: c.envelopes.map((e) => {
      const p = price.get(e.id);
      return {
        id: e.id,
        type: e.type,
        sender: e.sender,
        timestampMs: e.timestampMs,
        ...(p ? { kind: p.kind, round: p.round, bid: p.bidValue } : {}),
      };
    }),
    feedback: c.feedback.map((f) => ({
      from: f.from,
      target: f.target,
      score: f.score,
      outcome: f.outcome,
      dispute: f.isDispute,
    })),
    notaryBids: c.notaryBids.length,
    analytics,
    ...(analyticsError ? { analyticsError } : {}),
  };
}

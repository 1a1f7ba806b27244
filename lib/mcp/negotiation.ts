/**
 * get_negotiation's answer: a compact trace of the conversation (one short row per message) and
 * the negotiation analytics of lib/protocol/analytics.ts (docs/protocol.md §8) over its NEG1 /
 * NEGC / NEGR payloads.
 */
import { analyzeNegotiation } from '../protocol/analytics';
import type { ConversationView } from '../wire';

export function negotiationDigest(c: ConversationView, payloads: { id: string; sender: string; msgType: number; timestamp: bigint; payload: Uint8Array }[]) {
  const price = new Map(c.pricePath.map((p) => [p.envelopeId, p]));
  let analytics: ReturnType<typeof analyzeNegotiation> | null = null;
  let analyticsError: string | undefined;
  try {
    analytics = analyzeNegotiation(payloads.map((p) => ({ sender: p.sender, msgType: p.msgType, timestamp: p.timestamp, payload: p.payload })));
  } catch (e) {
    // A conversation with malformed or no NEG1 payloads still has a trace worth showing.
    analyticsError = e instanceof Error ? e.message : String(e);
  }
  return {
    id: c.id,
    participants: c.participants,
    state: c.state,
    messages: c.messages,
    firstMs: c.firstMs,
    lastMs: c.lastMs,
    trace: c.envelopes.map((e) => {
      const p = price.get(e.id);
      return { id: e.id, type: e.type, sender: e.sender, timestampMs: e.timestampMs, ...(p ? { kind: p.kind, round: p.round, bid: p.bidValue } : {}) };
    }),
    feedback: c.feedback.map((f) => ({ from: f.from, target: f.target, score: f.score, outcome: f.outcome, dispute: f.isDispute })),
    notaryBids: c.notaryBids.length,
    analytics,
    ...(analyticsError ? { analyticsError } : {}),
  };
}

/**
 * Store rows → JSON view models (lib/wire/views.ts), shared by the API routes and the
 * server-rendered pages. Server-only: runs in the process that holds the observatory.
 */

import { type ConversationOutcome, type ConversationStage, stateLabel } from '../../lib/protocol/conversation-state';
import { parseNegotiationPayload } from '../../lib/protocol/neg1';
import type { ReputationState } from '../../lib/protocol/reputation';
import { MsgType } from '../../lib/protocol/types';
import type { AgentRow, ConversationDetail, ConversationGraph, ConversationRow, StoredEnvelope } from '../../lib/store';
import type {
  AgentView,
  ConversationSummaryView,
  ConversationView,
  EnvelopeView,
  GraphView,
  PriceStepView,
  ReputationView,
} from '../../lib/wire';
import { msgTypeName, bytesToHex as toHex } from '../../lib/wire';

const ms = (d: Date | null | undefined): number | null => (d instanceof Date ? d.getTime() : null);

export function envelopeView(s: StoredEnvelope): EnvelopeView {
  const e = s.envelope;
  return {
    id: toHex(s.id),
    msgType: e.msgType,
    type: msgTypeName(e.msgType),
    sender: toHex(e.sender),
    recipient: toHex(e.recipient),
    conversationId: toHex(e.conversationId),
    timestampMs: Number(e.timestamp / 1000n),
    receivedAtMs: ms(s.receivedAt),
    source: s.source,
    topic: s.topic,
    nonce: e.nonce.toString(),
    payloadLen: e.payloadLen,
  };
}

export function reputationView(r: ReputationState | null | undefined): ReputationView | null {
  if (!r) return null;
  return {
    reliabilityScore: r.reliabilityScore.toString(),
    cooperationIndex: r.cooperationIndex.toString(),
    notaryAccuracy: r.notaryAccuracy.toString(),
    totalTasks: r.totalTasks.toString(),
    totalNotarized: r.totalNotarized.toString(),
    totalDisputes: r.totalDisputes.toString(),
  };
}

/** An agent counts as online when the observer marks it so or it sent within this window. */
export const ONLINE_WINDOW_MS = 60_000;

export function agentView(a: AgentRow, reputation?: ReputationState | null, now = Date.now()): AgentView {
  return {
    id: toHex(a.id),
    name: a.label,
    firstSeenMs: ms(a.firstSeen),
    lastSeenMs: ms(a.lastSeen),
    online: a.online || now - a.lastSeen.getTime() <= ONLINE_WINDOW_MS,
    envelopes: a.sent,
    reputation: reputationView(reputation),
  };
}

export function graphView(g: ConversationGraph, now = Date.now()): GraphView {
  return {
    nodes: g.nodes.map((n) => ({
      id: toHex(n.id),
      online: n.online || now - n.lastSeen.getTime() <= ONLINE_WINDOW_MS,
    })),
    links: g.edges.map((e) => ({ source: toHex(e.a), target: toHex(e.b), messages: e.messages })),
  };
}

export function conversationSummaryView(c: ConversationRow): ConversationSummaryView {
  return {
    id: toHex(c.id),
    participants: c.participants.map(toHex),
    messages: c.messageCount,
    stage: c.state as ConversationStage,
    outcome: (c.outcome ?? 'open') as ConversationOutcome,
    state: stateLabel(c.state, c.outcome),
    firstMs: ms(c.firstSeen),
    lastMs: ms(c.lastSeen),
  };
}

const NEGOTIATION_TYPES = new Set<number>([MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT, MsgType.REJECT]);

/** The NEG1 price path of a conversation (docs/protocol.md, negotiation): one step per negotiation envelope. */
export function pricePath(envelopes: StoredEnvelope[]): PriceStepView[] {
  const steps: PriceStepView[] = [];
  for (const s of envelopes) {
    const e = s.envelope;
    if (!NEGOTIATION_TYPES.has(e.msgType)) continue;
    const p = parseNegotiationPayload(e.payload);
    const base = {
      envelopeId: toHex(s.id),
      type: msgTypeName(e.msgType),
      sender: toHex(e.sender),
      timestampMs: Number(e.timestamp / 1000n),
    };
    if (p.kind === 'neg1')
      steps.push({ ...base, kind: 'neg1', round: p.neg1.round, bidValue: p.neg1.bidValue.toString() });
    else if (p.kind === 'negr') steps.push({ ...base, kind: 'negr', round: null, bidValue: p.reveal.price.toString() });
    else steps.push({ ...base, kind: p.kind, round: null, bidValue: null });
  }
  return steps;
}

/** The store returns envelopes in protocol order (timestamp, nonce); kept as is. */
export function conversationView(c: ConversationDetail): ConversationView {
  return {
    ...conversationSummaryView(c),
    envelopes: c.envelopes.map(envelopeView),
    pricePath: pricePath(c.envelopes),
    feedback: c.feedback.map((f) => ({
      envelopeId: toHex(f.envelopeId),
      from: toHex(f.fromAgent),
      target: toHex(f.targetAgent),
      score: f.score,
      outcome: f.outcome,
      isDispute: f.isDispute,
      role: f.role,
    })),
    notaryBids: c.notaryBids.map((b) => ({
      envelopeId: toHex(b.envelopeId),
      bidder: toHex(b.bidder),
      recipient: toHex(b.recipient),
      bidType: b.bidType,
    })),
  };
}

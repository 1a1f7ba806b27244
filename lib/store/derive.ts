/**
 * Pure derivation of the rows an ingest batch adds besides the envelopes themselves: agents,
 * conversations (spec §6 flows), agent pairs, FEEDBACK and NOTARIZE_BID rows (PROTOCOL.md §4).
 * Input is only the envelopes newly stored by this batch, so every count is exact once.
 */
import { decodeFeedback, decodeNotarizeBid } from '../protocol/payloads';
import { toHex } from '../protocol/hex';
import { MsgType } from '../protocol/types';
import type { IngestItem } from './types';

/** Conversation stage by msg type: later stages win regardless of arrival order. */
const STAGES: Record<number, readonly [string, number]> = {
  [MsgType.DISCOVER]: ['discovery', 0],
  [MsgType.PROPOSE]: ['negotiating', 1],
  [MsgType.COUNTER]: ['negotiating', 1],
  [MsgType.REJECT]: ['rejected', 2],
  [MsgType.ACCEPT]: ['accepted', 3],
  [MsgType.DELIVER]: ['delivered', 4],
  [MsgType.NOTARIZE_BID]: ['notarizing', 5],
  [MsgType.NOTARIZE_ASSIGN]: ['notarizing', 5],
  [MsgType.VERDICT]: ['verdict', 6],
  [MsgType.FEEDBACK]: ['completed', 7],
  [MsgType.DISPUTE]: ['disputed', 8],
};

/** Stage name and rank of a msg type; null for ADVERTISE/BEACON (no conversation). */
export function conversationStage(msgType: number): { state: string; rank: number } | null {
  const s = STAGES[msgType];
  return s ? { state: s[0], rank: s[1] } : null;
}

/** Outcome implied by the furthest stage reached (null while still open). */
export function outcomeOf(rank: number): string | null {
  if (rank >= 8) return 'disputed';
  if (rank >= 3) return 'agreed';
  if (rank === 2) return 'rejected';
  return null;
}

const ZERO32 = new Uint8Array(32);
function isBroadcast(b: Uint8Array): boolean {
  if (b.length !== 32) return false;
  for (let i = 0; i < 32; i++) if (b[i] !== ZERO32[i]) return false;
  return true;
}

export interface AgentDelta { id: Uint8Array; first: Date; last: Date; sent: number }
export interface ConversationDelta {
  id: Uint8Array; participants: Uint8Array[]; first: Date; last: Date; lastTs: bigint; lastType: number;
  state: string; rank: number; outcome: string | null; count: number;
}
export interface PairDelta { a: Uint8Array; b: Uint8Array; messages: number; last: Date }
export interface FeedbackDelta {
  envelopeId: Uint8Array; conversationId: Uint8Array; from: Uint8Array; target: Uint8Array;
  score: number; outcome: number; isDispute: boolean; role: number; timestamp: bigint; epoch: number;
}
export interface BidDelta {
  envelopeId: Uint8Array; conversationId: Uint8Array; bidder: Uint8Array; recipient: Uint8Array;
  bidType: number; terms: Uint8Array; timestamp: bigint;
}
export interface Derived {
  agents: AgentDelta[]; conversations: ConversationDelta[]; pairs: PairDelta[];
  feedback: FeedbackDelta[]; bids: BidDelta[]; typeCounts: Map<number, number>;
}

const minDate = (a: Date, b: Date) => (a < b ? a : b);
const maxDate = (a: Date, b: Date) => (a > b ? a : b);
const byKey = <T>(m: Map<string, T>) => [...m.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1)).map((e) => e[1]);

/**
 * Aggregates the newly stored items into upsert rows, each list sorted by key so concurrent
 * writers lock rows in the same order (no deadlocks between observers on one Postgres).
 */
export function derive(items: readonly IngestItem[], epochOf: (ts: bigint) => number): Derived {
  const agents = new Map<string, AgentDelta>();
  const convs = new Map<string, ConversationDelta & { parts: Map<string, Uint8Array> }>();
  const pairs = new Map<string, PairDelta>();
  const feedback: FeedbackDelta[] = [];
  const bids: BidDelta[] = [];
  const typeCounts = new Map<number, number>();
  const touchAgent = (id: Uint8Array, at: Date, sent: number) => {
    const k = toHex(id);
    const a = agents.get(k);
    if (!a) agents.set(k, { id, first: at, last: at, sent });
    else { a.first = minDate(a.first, at); if (sent) a.last = maxDate(a.last, at); a.sent += sent; }
  };
  for (const it of items) {
    const e = it.envelope;
    const at = it.receivedAt;
    typeCounts.set(e.msgType, (typeCounts.get(e.msgType) ?? 0) + 1);
    touchAgent(e.sender, at, 1);
    const direct = !isBroadcast(e.recipient);
    if (direct) {
      touchAgent(e.recipient, at, 0);
      const [a, b] = toHex(e.sender) < toHex(e.recipient) ? [e.sender, e.recipient] : [e.recipient, e.sender];
      const k = toHex(a) + toHex(b);
      const p = pairs.get(k);
      if (!p) pairs.set(k, { a, b, messages: 1, last: at });
      else { p.messages++; p.last = maxDate(p.last, at); }
    }
    const stage = conversationStage(e.msgType);
    if (stage) {
      const k = toHex(e.conversationId);
      let c = convs.get(k);
      if (!c) {
        c = { id: e.conversationId, participants: [], parts: new Map(), first: at, last: at, lastTs: e.timestamp, lastType: e.msgType, state: stage.state, rank: stage.rank, outcome: outcomeOf(stage.rank), count: 0 };
        convs.set(k, c);
      }
      c.count++;
      c.first = minDate(c.first, at);
      c.last = maxDate(c.last, at);
      if (e.timestamp >= c.lastTs) { c.lastTs = e.timestamp; c.lastType = e.msgType; }
      if (stage.rank > c.rank) { c.rank = stage.rank; c.state = stage.state; c.outcome = outcomeOf(stage.rank); }
      c.parts.set(toHex(e.sender), e.sender);
      if (direct) c.parts.set(toHex(e.recipient), e.recipient);
    }
    if (e.msgType === MsgType.FEEDBACK) {
      const f = decodeFeedback(e.payload);
      if (f.ok) {
        feedback.push({ envelopeId: it.id, conversationId: f.value.conversationId, from: e.sender, target: f.value.targetAgent, score: f.value.score, outcome: f.value.outcome, isDispute: f.value.isDispute, role: f.value.role, timestamp: e.timestamp, epoch: epochOf(e.timestamp) });
      }
    } else if (e.msgType === MsgType.NOTARIZE_BID) {
      const b = decodeNotarizeBid(e.payload);
      if (b.ok) bids.push({ envelopeId: it.id, conversationId: b.value.conversationId, bidder: e.sender, recipient: e.recipient, bidType: b.value.bidType, terms: b.value.terms, timestamp: e.timestamp });
    }
  }
  const conversations = byKey(convs).map(({ parts, ...c }) => ({ ...c, participants: byKey(parts) }));
  return { agents: byKey(agents), conversations, pairs: byKey(pairs), feedback, bids, typeCounts };
}

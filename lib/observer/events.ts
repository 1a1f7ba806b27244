/**
 * Live events for newly stored envelopes (0x01 spec §9 event stream; issue 3 event types).
 * Pure: the caller passes the item, whether its sender is new, and the reputation fold state.
 * JSON-ready: bytes as lowercase hex, 64-bit integers as decimal strings.
 */
import { MsgType, type MsgTypeName } from '../protocol/types';
import { toHex } from '../protocol/hex';
import { decodeFeedback, decodeNotarizeBid } from '../protocol/payloads';
import { applyFeedback, emptyReputation, type ReputationState } from '../protocol/reputation';
import type { IngestItem } from '../store/types';
import type { LiveEvent } from './types';

const NAMES: Record<number, MsgTypeName> = Object.fromEntries(Object.entries(MsgType).map(([k, v]) => [v, k as MsgTypeName]));

/** Name of a msg type (spec §5.3), e.g. 'PROPOSE'. */
export function msgTypeName(t: number): string {
  return NAMES[t] ?? `0x${t.toString(16)}`;
}

function repJson(r: ReputationState): Record<string, string> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)]));
}

const json = new WeakMap<LiveEvent, string>();
/** Events built here hold only JSON values: they serialise without a replacer. */
const plain = new WeakSet<LiveEvent>();

/**
 * The JSON text of an event, made once per event object and shared by every consumer (WebSocket
 * clients, the cross-process NOTIFY). Bigints become decimal strings and bytes lowercase hex, for
 * any event that still carries them.
 */
export function eventJson(event: LiveEvent): string {
  let s = json.get(event);
  if (s === undefined) {
    s = plain.has(event) ? JSON.stringify(event) : JSON.stringify(event, (_key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
      return value;
    });
    json.set(event, s);
  }
  return s;
}

/** The `message` event's data for a stored envelope. */
export function messageData(item: IngestItem): Record<string, unknown> {
  const e = item.envelope;
  return {
    id: toHex(item.id), msgType: e.msgType, type: msgTypeName(e.msgType), sender: toHex(e.sender), recipient: toHex(e.recipient),
    conversationId: toHex(e.conversationId), nonce: String(e.nonce), timestamp: String(e.timestamp), blockRef: String(e.blockRef),
    payloadLen: e.payloadLen, source: item.source, topic: item.topic ?? null, receivedAt: item.receivedAt.getTime(),
  };
}

/** Gossip reputation states by agent hex (PROTOCOL.md §7 real-time fold); a Map satisfies it. */
export type ReputationCache = Map<string, ReputationState>;

/**
 * Events for one newly stored envelope: `message`; `agent_joined` for each agent in
 * `newAgents`; `reputation_update` after a FEEDBACK (folding it into `reputations`);
 * `notary_assigned`, `verdict_issued`, `dispute_raised` for their msg types.
 */
export function eventsFor(item: IngestItem, newAgents: readonly Uint8Array[], reputations: ReputationCache, at: number): LiveEvent[] {
  const e = item.envelope;
  const out: LiveEvent[] = [];
  const msg = messageData(item);
  for (const a of newAgents) out.push({ type: 'agent_joined', at, data: { agent: toHex(a), firstSeenBy: msg.id } });
  out.push({ type: 'message', at, data: msg });
  const base = { envelopeId: msg.id as string, conversationId: msg.conversationId as string, sender: msg.sender as string, recipient: msg.recipient as string };
  switch (e.msgType) {
    case MsgType.FEEDBACK: {
      const f = decodeFeedback(e.payload);
      if (!f.ok) break;
      const target = toHex(f.value.targetAgent);
      const next = applyFeedback(reputations.get(target) ?? emptyReputation(), f.value);
      reputations.set(target, next);
      out.push({
        type: 'reputation_update', at,
        data: { ...base, agent: target, from: base.sender, score: f.value.score, outcome: f.value.outcome, role: f.value.role, isDispute: f.value.isDispute, reputation: repJson(next) },
      });
      break;
    }
    case MsgType.NOTARIZE_ASSIGN:
      out.push({ type: 'notary_assigned', at, data: { ...base, notary: base.recipient, assignedBy: base.sender } });
      break;
    case MsgType.VERDICT:
      out.push({ type: 'verdict_issued', at, data: { ...base, notary: base.sender, party: base.recipient } });
      break;
    case MsgType.DISPUTE:
      out.push({ type: 'dispute_raised', at, data: { ...base, disputant: base.sender } });
      break;
    case MsgType.NOTARIZE_BID: {
      // Not an event of its own: the bid type rides on the `message` event for the feed.
      const b = decodeNotarizeBid(e.payload);
      if (b.ok) (out[out.length - 1].data as Record<string, unknown>).bidType = b.value.bidType;
      break;
    }
  }
  for (const ev of out) plain.add(ev);
  return out;
}

/**
 * Live events for newly stored envelopes (docs/architecture.md, live events; shapes in
 * lib/wire/events.ts). Pure: the caller passes the item, whether its sender is new, and the
 * reputation fold state. JSON-ready: bytes as lowercase hex, 64-bit integers as decimal strings.
 */

import { toHex } from '../protocol/hex';
import { decodeFeedback, decodeNotarizeBid } from '../protocol/payloads';
import { applyFeedback, emptyReputation, type ReputationState } from '../protocol/reputation';
import { MsgType } from '../protocol/types';
import type { IngestItem } from '../store';
import { jsonReplacer } from '../wire/codec';
import type { LiveEvent, LiveEventData, LiveEventOf } from '../wire/events';
import { msgTypeName } from '../wire/msg-type';
import type { ReputationView } from '../wire/views';

export { msgTypeName };

function repJson(r: ReputationState): ReputationView {
  return {
    reliabilityScore: String(r.reliabilityScore),
    cooperationIndex: String(r.cooperationIndex),
    notaryAccuracy: String(r.notaryAccuracy),
    totalTasks: String(r.totalTasks),
    totalNotarized: String(r.totalNotarized),
    totalDisputes: String(r.totalDisputes),
  };
}

const json = new WeakMap<LiveEvent, string>();
/** Events built here hold only JSON values: they serialise without a replacer. */
const plain = new WeakSet<LiveEvent>();

/**
 * The JSON text of an event, made once per event object and shared by every consumer (WebSocket
 * clients, the cross-process NOTIFY). Bigints become decimal strings and bytes lowercase hex
 * (lib/wire jsonReplacer), for any event that still carries them.
 */
export function eventJson(event: LiveEvent): string {
  let s = json.get(event);
  if (s === undefined) {
    s = plain.has(event) ? JSON.stringify(event) : JSON.stringify(event, jsonReplacer);
    json.set(event, s);
  }
  return s;
}

/**
 * The `drop` events of one flush: per reason, how many were dropped since the previous flush
 * (`per`) and since the observer started (`totals`).
 */
export function dropEvents(
  per: Readonly<Record<string, number>>,
  totals: Readonly<Record<string, number>>,
  at: number,
): LiveEventOf<'drop'>[] {
  const out = Object.entries(per).map(
    ([reason, count]): LiveEventOf<'drop'> => ({
      type: 'drop',
      at,
      data: { reason, count, total: totals[reason] ?? count },
    }),
  );
  for (const ev of out) plain.add(ev);
  return out;
}

/** The `message` event's data for a stored envelope. */
export function messageData(item: IngestItem): LiveEventData<'message'> {
  const e = item.envelope;
  return {
    id: toHex(item.id),
    msgType: e.msgType,
    type: msgTypeName(e.msgType),
    sender: toHex(e.sender),
    recipient: toHex(e.recipient),
    conversationId: toHex(e.conversationId),
    nonce: String(e.nonce),
    timestamp: String(e.timestamp),
    blockRef: String(e.blockRef),
    payloadLen: e.payloadLen,
    source: item.source,
    topic: item.topic ?? null,
    receivedAt: item.receivedAt.getTime(),
  };
}

/** Gossip reputation states by agent hex (docs/protocol.md, reputation: the real-time fold); a Map satisfies it. */
export type ReputationCache = Map<string, ReputationState>;

/**
 * Events for one newly stored envelope: `message`; `agent_joined` for each agent in
 * `newAgents`; `reputation_update` after a FEEDBACK (folding it into `reputations`);
 * `notary_assigned`, `verdict_issued`, `dispute_raised` for their msg types.
 */
export function eventsFor(
  item: IngestItem,
  newAgents: readonly Uint8Array[],
  reputations: ReputationCache,
  at: number,
): LiveEvent[] {
  const e = item.envelope;
  const out: LiveEvent[] = [];
  const msg = messageData(item);
  for (const a of newAgents) out.push({ type: 'agent_joined', at, data: { agent: toHex(a), firstSeenBy: msg.id } });
  out.push({ type: 'message', at, data: msg });
  const base = { envelopeId: msg.id, conversationId: msg.conversationId, sender: msg.sender, recipient: msg.recipient };
  switch (e.msgType) {
    case MsgType.FEEDBACK: {
      const f = decodeFeedback(e.payload);
      if (!f.ok) break;
      const target = toHex(f.value.targetAgent);
      const next = applyFeedback(reputations.get(target) ?? emptyReputation(), f.value);
      reputations.set(target, next);
      out.push({
        type: 'reputation_update',
        at,
        data: {
          ...base,
          agent: target,
          from: base.sender,
          score: f.value.score,
          outcome: f.value.outcome,
          role: f.value.role,
          isDispute: f.value.isDispute,
          reputation: repJson(next),
        },
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
      if (b.ok) msg.bidType = b.value.bidType;
      break;
    }
  }
  for (const ev of out) plain.add(ev);
  return out;
}

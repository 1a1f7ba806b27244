import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildEnvelope } from '../protocol/envelope';
import { toHex } from '../protocol/hex';
import { encodeFeedback, encodeNotarizeBid } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import type { IngestItem } from '../store';
import { eventsFor, msgTypeName, type ReputationCache } from './events';

const seed = new Uint8Array(32).fill(3);
const A = new Uint8Array(32).fill(0xaa);
const B = new Uint8Array(32).fill(0xbb);
const conv = new Uint8Array(16).fill(9);

function item(msgType: number, payload: Uint8Array, recipient = B): IngestItem {
  const b = buildEnvelope(
    { msgType, sender: A, recipient, timestamp: 1_700_000_000_000_000n, nonce: 7n, conversationId: conv, payload },
    seed,
  );
  return {
    id: b.id,
    envelope: b.envelope,
    raw: b.bytes,
    source: 'gossip',
    topic: '/0x01/v1/reputation',
    receivedAt: new Date(1_700_000_000_000),
  };
}

test('message event fields, agent_joined first', () => {
  const it = item(MsgType.PROPOSE, new Uint8Array([1]));
  const ev = eventsFor(it, [A], new Map(), 5);
  assert.deepEqual(
    ev.map((e) => e.type),
    ['agent_joined', 'message'],
  );
  assert.deepEqual(ev[0].data, { agent: toHex(A), firstSeenBy: toHex(it.id) });
  assert.deepEqual(ev[1], {
    type: 'message',
    at: 5,
    data: {
      id: toHex(it.id),
      msgType: 3,
      type: 'PROPOSE',
      sender: toHex(A),
      recipient: toHex(B),
      conversationId: toHex(conv),
      nonce: '7',
      timestamp: '1700000000000000',
      blockRef: '0',
      payloadLen: 1,
      source: 'gossip',
      topic: '/0x01/v1/reputation',
      receivedAt: 1_700_000_000_000,
    },
  });
});

test('FEEDBACK folds the gossip reputation (docs/protocol.md §7) and emits reputation_update', () => {
  const reps: ReputationCache = new Map();
  const fb = (score: number) =>
    item(
      MsgType.FEEDBACK,
      encodeFeedback({ conversationId: conv, targetAgent: B, score, outcome: 2, isDispute: false, role: 0 }),
      new Uint8Array(32),
    );
  eventsFor(fb(80), [], reps, 1);
  const ev = eventsFor(fb(-40), [], reps, 2);
  const u = ev.find((e) => e.type === 'reputation_update')!;
  assert.equal(u.data.agent, toHex(B));
  assert.deepEqual(u.data.reputation, {
    reliabilityScore: '20000000',
    cooperationIndex: '100000000',
    notaryAccuracy: '0',
    totalTasks: '2',
    totalNotarized: '0',
    totalDisputes: '0',
  });
});

test('notary, verdict and dispute events; NOTARIZE_BID carries its bid type', () => {
  assert.equal(
    eventsFor(item(MsgType.NOTARIZE_ASSIGN, new Uint8Array(0)), [], new Map(), 0)[1].type,
    'notary_assigned',
  );
  assert.equal(eventsFor(item(MsgType.VERDICT, new Uint8Array(0)), [], new Map(), 0)[1].type, 'verdict_issued');
  assert.equal(eventsFor(item(MsgType.DISPUTE, new Uint8Array(0)), [], new Map(), 0)[1].type, 'dispute_raised');
  const bid = eventsFor(
    item(MsgType.NOTARIZE_BID, encodeNotarizeBid({ bidType: 1, conversationId: conv, terms: new Uint8Array(0) })),
    [],
    new Map(),
    0,
  );
  assert.equal(bid.length, 1);
  assert.equal(bid[0].type === 'message' && bid[0].data.bidType, 1);
  assert.equal(msgTypeName(0x0d), 'BEACON');
  assert.equal(msgTypeName(0x20), '0x20');
  // Unknown codes as two hex digits, as the browser's tables show them.
  assert.equal(msgTypeName(0x0e), '0x0e');
});

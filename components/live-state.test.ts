import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { applyEvent, envelopeFromEvent, FEED_SIZE, initialState, resync } from './live-state';
import { pairKey } from './pair';
import type { OverviewSnapshot } from './types';

const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);
const C = 'cc'.repeat(32);
const ZERO = '00'.repeat(32);
const CONV1 = '11'.repeat(16);
const CONV2 = '22'.repeat(16);

const empty: OverviewSnapshot = {
  stats: { byType: {}, drops: {} },
  envelopes: [],
  agents: [],
  graph: { nodes: [], links: [] },
  mesh: null,
  database: null,
};

const msg = (id: string, msgType: number, sender: string, recipient: string, conversationId: string) => ({
  type: 'message' as const,
  at: 1_700_000_000_000,
  data: { id, msgType, sender, recipient, conversationId, timestamp: '1700000000000123', nonce: '7', payloadLen: 3, source: 'gossip' },
});

describe('live overview state', () => {
  test('envelopeFromEvent reads µs timestamps and names the type', () => {
    const e = envelopeFromEvent(msg('e1', 3, A, B, CONV1));
    assert.deepEqual(e, {
      id: 'e1',
      msgType: 3,
      type: 'PROPOSE',
      sender: A,
      recipient: B,
      conversationId: CONV1,
      timestampMs: 1_700_000_000_000,
      receivedAtMs: 1_700_000_000_000,
      source: 'gossip',
      topic: null,
      nonce: '7',
      payloadLen: 3,
    });
    assert.equal(envelopeFromEvent({ type: 'message', at: 1, data: { sender: A } }), null);
    assert.equal(envelopeFromEvent({ type: 'message', at: 1, data: { envelope: { id: 'x', sender: A, msgType: 13 } } })?.type, 'BEACON');
  });

  test('a message updates feed, counts, agents and graph; duplicates are ignored', () => {
    let s = initialState(empty);
    s = applyEvent(s, msg('e1', 1, A, ZERO, CONV1));
    assert.equal(s.envelopes.length, 1);
    assert.deepEqual(s.stats.byType, { ADVERTISE: 1 });
    assert.deepEqual(s.graph.nodes, [{ id: A, online: true }]);
    assert.deepEqual(s.graph.links, []);

    s = applyEvent(s, msg('e2', 3, A, B, CONV1));
    s = applyEvent(s, msg('e3', 4, B, A, CONV1));
    s = applyEvent(s, msg('e3', 4, B, A, CONV1));
    assert.deepEqual(s.envelopes.map((e) => e.id), ['e3', 'e2', 'e1']);
    assert.deepEqual(s.stats.byType, { ADVERTISE: 1, PROPOSE: 1, COUNTER: 1 });
    assert.deepEqual(s.graph.links, [{ source: A, target: B, messages: 2 }]);
    assert.equal(s.pulses[pairKey(A, B)], 2);
    assert.equal(s.liveCount, 3);

    s = applyEvent(s, msg('e4', 3, B, A, CONV2));
    s = applyEvent(s, msg('e5', 3, A, C, CONV2 + ''));
    assert.deepEqual(s.graph.links, [
      { source: A, target: B, messages: 3 },
      { source: A, target: C, messages: 1 },
    ]);
    assert.deepEqual(s.agents.map((a) => [a.id, a.online]), [[A, true], [B, true], [C, true]]);
  });

  test('the feed keeps the newest FEED_SIZE rows', () => {
    let s = initialState(empty);
    for (let i = 0; i < FEED_SIZE + 7; i++) s = applyEvent(s, msg(`e${i}`, 13, A, ZERO, CONV1));
    assert.equal(s.envelopes.length, FEED_SIZE);
    assert.equal(s.envelopes[0].id, `e${FEED_SIZE + 6}`);
    assert.equal(s.stats.byType.BEACON, FEED_SIZE + 7);
  });

  test('drops count per reason; other events go to the activity list; junk is ignored', () => {
    let s = initialState(empty);
    s = applyEvent(s, { type: 'drop', at: 1, data: { reason: 'signature' } });
    s = applyEvent(s, { type: 'drop', at: 2, data: { reason: 'signature' } });
    s = applyEvent(s, { type: 'drop', at: 3, data: { reason: 'replay' } });
    assert.deepEqual(s.stats.drops, { signature: 2, replay: 1 });
    s = applyEvent(s, { type: 'verdict_issued', at: 4, data: { conversationId: CONV1, notary: C } });
    assert.equal(s.activity.length, 1);
    assert.equal(s.activity[0].agent, C);
    s = applyEvent(s, { type: 'agent_joined', at: 5, data: { agent: B } });
    assert.deepEqual(s.graph.nodes, [{ id: B, online: true }]);
    const before = s;
    s = applyEvent(s, null as never);
    s = applyEvent(s, { type: 'message', at: 6, data: {} });
    assert.equal(s, before);
  });

  test('resync takes the server snapshot and keeps the live counter', () => {
    let s = initialState(empty);
    s = applyEvent(s, msg('e1', 1, A, ZERO, CONV1));
    const snap: OverviewSnapshot = { ...empty, stats: { byType: { ADVERTISE: 10 }, drops: { decode: 1 } } };
    s = resync(s, snap);
    assert.deepEqual(s.stats, snap.stats);
    assert.equal(s.liveCount, 1);
  });
});

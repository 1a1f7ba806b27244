import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type LiveEventOf, type OverviewSnapshot, parseStreamFrame } from '../lib/wire';
import { sampleEvent } from '../lib/wire/testing';
import { applyEvent, envelopeFromEvent, FEED_SIZE, initialState, resync } from './live-state';
import { pairKey } from './pair';

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

const msg = (
  id: string,
  msgType: number,
  sender: string,
  recipient: string,
  conversationId: string,
): LiveEventOf<'message'> => ({
  type: 'message',
  at: 1_700_000_000_000,
  data: {
    id,
    msgType,
    type: 'ignored: the browser names the code itself',
    sender,
    recipient,
    conversationId,
    timestamp: '1700000000000123',
    blockRef: '0',
    nonce: '7',
    payloadLen: 3,
    source: 'gossip',
    topic: null,
    receivedAt: 1_700_000_000_000,
  },
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
    // A message frame without an id never reaches the state: the wire schema rejects it.
    assert.equal(parseStreamFrame(JSON.stringify({ type: 'message', at: 1, data: { sender: A } })).ok, false);
    assert.equal(envelopeFromEvent(msg('x', 13, A, ZERO, CONV1)).type, 'BEACON');
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
    assert.deepEqual(
      s.envelopes.map((e) => e.id),
      ['e3', 'e2', 'e1'],
    );
    assert.deepEqual(s.stats.byType, { ADVERTISE: 1, PROPOSE: 1, COUNTER: 1 });
    assert.deepEqual(s.graph.links, [{ source: A, target: B, messages: 2 }]);
    assert.equal(s.pulses[pairKey(A, B)], 2);
    assert.equal(s.liveCount, 3);

    s = applyEvent(s, msg('e4', 3, B, A, CONV2));
    s = applyEvent(s, msg('e5', 3, A, C, `${CONV2}`));
    assert.deepEqual(s.graph.links, [
      { source: A, target: B, messages: 3 },
      { source: A, target: C, messages: 1 },
    ]);
    assert.deepEqual(
      s.agents.map((a) => [a.id, a.online]),
      [
        [A, true],
        [B, true],
        [C, true],
      ],
    );
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
    s = applyEvent(s, sampleEvent('drop', { reason: 'signature', count: 1, total: 1 }, 1));
    s = applyEvent(s, sampleEvent('drop', { reason: 'signature', count: 1, total: 2 }, 2));
    s = applyEvent(s, sampleEvent('drop', { reason: 'replay', count: 1, total: 1 }, 3));
    assert.deepEqual(s.stats.drops, { signature: 2, replay: 1 });
    s = applyEvent(s, sampleEvent('verdict_issued', { conversationId: CONV1, notary: C, sender: C }, 4));
    assert.equal(s.activity.length, 1);
    assert.equal(s.activity[0].agent, C);
    s = applyEvent(s, sampleEvent('agent_joined', { agent: B }, 5));
    assert.deepEqual(s.graph.nodes, [{ id: B, online: true }]);
    const before = s;
    s = applyEvent(s, null as never);
    // Malformed frames are rejected before they reach applyEvent.
    assert.equal(parseStreamFrame(JSON.stringify({ type: 'message', at: 6, data: {} })).ok, false);
    assert.equal(s, before);
  });

  test('a drop event adds its count: one 250 ms flush of 5 drops counts 5', () => {
    let s = initialState({ ...empty, stats: { byType: {}, drops: { signature: 3 } } });
    s = applyEvent(s, sampleEvent('drop', { reason: 'signature', count: 5, total: 8 }));
    assert.deepEqual(s.stats.drops, { signature: 8 });
    s = applyEvent(s, sampleEvent('drop', { reason: 'rate_limit', count: 5, total: 5 }));
    assert.deepEqual(s.stats.drops, { signature: 8, rate_limit: 5 });
    // After a resync the snapshot holds the stored totals; later events add on top of them.
    s = resync(s, { ...empty, stats: { byType: {}, drops: { signature: 20, rate_limit: 5 } } });
    s = applyEvent(s, sampleEvent('drop', { reason: 'signature', count: 2, total: 10 }));
    assert.deepEqual(s.stats.drops, { signature: 22, rate_limit: 5 });
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

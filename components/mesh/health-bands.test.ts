import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MeshHealthRow } from '../../lib/wire/mesh-health';
import { BANDS, duplicateLevel, latencyLevel, meshPeersLevel, SCORE_BAND, scoreLevel } from './health-bands';

const row = (o: Partial<MeshHealthRow>): MeshHealthRow => ({
  res: 60,
  bucket: 0,
  topic: '/0x01/v1/broadcast',
  observer: 'x',
  seconds: 60,
  messages: 100,
  received: null,
  duplicates: null,
  invalid: null,
  latencyP50: null,
  latencyP90: null,
  latencyP99: null,
  latencySamples: 0,
  meshPeers: null,
  topicPeers: null,
  grafts: null,
  prunes: null,
  scoreMin: null,
  scoreMedian: null,
  connections: null,
  rateLimitedPeers: null,
  drops: null,
  ...o,
});

test('the thresholds: a normal GossipSub mesh reads good', () => {
  // 86.6 % duplicates is what a mesh of about 7 peers does by design.
  assert.equal(duplicateLevel(0.866), 'good');
  assert.equal(duplicateLevel(0.95), 'watch');
  assert.equal(duplicateLevel(0.99), 'bad');
  assert.equal(latencyLevel(300), 'good');
  assert.equal(latencyLevel(4_000), 'watch');
  assert.equal(latencyLevel(12_000), 'bad');
  assert.deepEqual([0, 2, 6, 13].map(meshPeersLevel), ['bad', 'watch', 'good', 'watch']);
  // A score of 0 is a neutral peer, not a bad one.
  assert.deepEqual([0, -3, -20].map(scoreLevel), ['good', 'watch', 'bad']);
});

test('a figure is judged on its worst gossip topic, and not at all when unmeasured', () => {
  const gossip = [
    row({ received: 100, duplicates: 80, meshPeers: 6 }),
    row({ received: 100, duplicates: 97, meshPeers: 2 }),
  ];
  assert.deepEqual(BANDS.dup.judge!({ node: undefined, gossip }), { level: 'bad', value: '97.0 %' });
  assert.deepEqual(BANDS.mesh.judge!({ node: undefined, gossip }), { level: 'watch', value: '2 peers' });
  assert.equal(BANDS.dup.judge!({ node: undefined, gossip: [row({ received: 0 })] }), null);
  assert.equal(BANDS.latency.judge!({ node: row({}), gossip: [] }), null);
  assert.equal(SCORE_BAND.judge([row({ scoreMin: 0 }), row({ scoreMin: -11 })]), 'bad');
  assert.deepEqual(BANDS.drops.judge!({ node: row({ messages: 990, drops: { payload_len: 10 } }), gossip: [] }), {
    level: 'watch',
    value: '1.0 %',
  });
});

test('every figure has a sentence; a judged one has its thresholds', () => {
  for (const [k, b] of Object.entries(BANDS)) {
    assert.ok(b.sentence.length > 40, k);
    assert.equal(b.judge === null, b.thresholds === null, k);
  }
});

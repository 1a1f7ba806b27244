/**
 * The overview's agents-and-graph snapshot: one read serves every request until a commit on the
 * live bus (or its age) makes it due, and then one refresh retakes it while the old one is served.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLiveBus } from '../../lib/observer/bus';
import type { ConversationGraph } from '../../lib/store';
import { loadAgentsSnapshot, OVERVIEW_MAX_AGE_MS, OVERVIEW_REFRESH_MS } from './data';
import type { Services } from './services';

function fake() {
  let reads = 0;
  const bus = createLiveBus(() => undefined);
  const graph = (): ConversationGraph => {
    reads++;
    const id = new Uint8Array(32).fill(reads);
    return {
      nodes: [{ id, firstSeen: new Date(0), lastSeen: new Date(0), label: null, online: false, sent: reads }],
      edges: [],
    };
  };
  const o = { reads: { conversationGraph: async () => graph() }, observatory: { bus } } as unknown as Services;
  return { o, bus, reads: () => reads };
}

const settle = () => new Promise((r) => setImmediate(r));

test('one read serves concurrent and later requests until a commit makes the snapshot due', async () => {
  const f = fake();
  const [a, b] = await Promise.all([loadAgentsSnapshot(f.o), loadAgentsSnapshot(f.o)]);
  assert.equal(f.reads(), 1);
  assert.equal(a, b);
  assert.equal(a.agents[0].envelopes, 1);
  assert.equal(a.graph.nodes.length, 1);
  // No commit: the same snapshot, however often it is asked for, within its maximum age.
  assert.equal(await loadAgentsSnapshot(f.o, Date.now() + OVERVIEW_REFRESH_MS * 2), a);
  assert.equal(f.reads(), 1);
  // A commit, but too soon: still the same.
  f.bus.publish({ type: 'stats', data: {} } as never);
  assert.equal(await loadAgentsSnapshot(f.o), a);
  assert.equal(f.reads(), 1);
  // A commit and old enough: this request gets the old one while one refresh runs, the next the new one.
  const later = Date.now() + OVERVIEW_REFRESH_MS + 10;
  const [c, d] = await Promise.all([loadAgentsSnapshot(f.o, later), loadAgentsSnapshot(f.o, later)]);
  assert.equal(c, a);
  assert.equal(d, a);
  await settle();
  assert.equal(f.reads(), 2);
  const e = await loadAgentsSnapshot(f.o, later);
  assert.equal(e.agents[0].envelopes, 2);
});

test('without commits the snapshot is retaken after its maximum age', async () => {
  const f = fake();
  await loadAgentsSnapshot(f.o);
  await loadAgentsSnapshot(f.o, Date.now() + OVERVIEW_MAX_AGE_MS + 10);
  await settle();
  assert.equal(f.reads(), 2);
  assert.equal((await loadAgentsSnapshot(f.o)).agents[0].envelopes, 2);
});

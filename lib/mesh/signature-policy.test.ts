/**
 * GossipSub's own message signatures (params.signaturePolicy): off by default because envelopes
 * carry their own; 'StrictSign' (GossipSub's default, the naive baseline of bench:ingest) works
 * between nodes that both sign, and a default node refuses signed messages, so the two cannot mix.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOPIC_BROADCAST } from './constants';
import { createMeshNode } from './node';
import { link, payload, startTestNode, stopAll, waitFor, waitMesh } from './testing';

const T = [TOPIC_BROADCAST] as const;

test('signed gossip reaches a signing node and is refused by a default (unsigned) one', async () => {
  const a = await startTestNode({ signaturePolicy: 'StrictSign', topics: [...T] });
  const b = await startTestNode({ signaturePolicy: 'StrictSign', topics: [...T] });
  const c = await startTestNode({ topics: [...T] });
  try {
    await link(a.node, b.node, T);
    await link(a.node, c.node, T);
    await waitMesh(a.node, b.node, T);
    await waitMesh(b.node, a.node, T);
    const msg = payload(7, 1);
    await a.node.publish(TOPIC_BROADCAST, msg);
    await waitFor('B gets the signed message', () => b.received.length === 1);
    assert.deepEqual(b.received[0]!.bytes, msg);
    // C's GossipSub drops it before validation (a signature where its policy forbids one).
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(c.received.length, 0);
  } finally {
    await stopAll([a, b, c]);
  }
});

test('a bad signature policy is refused naming the field', async () => {
  await assert.rejects(
    createMeshNode({ validate: () => 'accept', signaturePolicy: 'Sign' as never, listen: [], dht: false }),
    /params\.signaturePolicy/,
  );
});

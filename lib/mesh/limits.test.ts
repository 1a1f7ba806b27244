/**
 * Spec §11 limits on real nodes: 100 messages/s per peer (gossip and stream together),
 * 65,536-byte messages, 50 connections.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_MESH_LIMITS, MESH_TOPICS, TOPIC_BROADCAST } from './constants';
import { createMeshNode } from './node';
import { link, payload, startTestNode, stopAll, waitFor, waitMesh } from './testing';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('per-peer rate limit (100 messages/s)', () => {
  test('a peer flooding ~1,000 msgs/s for 2 s is held to 100/s + burst; another peer loses nothing', async (t) => {
    let first: number | undefined;
    let last = 0;
    const clock = () => {
      const t = Date.now();
      first ??= t;
      last = t;
      return t;
    };
    const r = await startTestNode({ now: clock });
    const flood = await startTestNode();
    const honest = await startTestNode();
    try {
      await link(flood.node, r.node, [TOPIC_BROADCAST]);
      await link(honest.node, r.node, [TOPIC_BROADCAST]);
      const FLOOD = 2000;
      const HONEST = 50;
      const start = Date.now();
      let h = 0;
      for (let batch = 0; batch < 20; batch++) {
        for (let i = 0; i < 100; i++) await flood.node.publish(TOPIC_BROADCAST, payload(1, batch * 100 + i));
        for (; h < ((batch + 1) * HONEST) / 20; h++) await honest.node.publish(TOPIC_BROADCAST, payload(2, h));
        const wait = start + (batch + 1) * 100 - Date.now();
        if (wait > 0) await sleep(wait);
      }
      const fromFlood = () => r.received.filter((x) => x.meta.peer === flood.node.peerId).length;
      const floodDrops = () => r.drops.filter((d) => d.peer === flood.node.peerId).length;
      await waitFor('every flood message accounted for', () => fromFlood() + floodDrops() === FLOOD, 20_000);
      await waitFor(
        'every honest message',
        () => r.received.filter((x) => x.meta.peer === honest.node.peerId).length === HONEST,
      );

      const accepted = fromFlood();
      const windowS = (last - first!) / 1000;
      const bound = DEFAULT_MESH_LIMITS.burst + Math.ceil(DEFAULT_MESH_LIMITS.messagesPerSecond * windowS) + 1;
      t.diagnostic(
        `flood: ${accepted} accepted, ${FLOOD - accepted} dropped over ${windowS.toFixed(2)} s (bound ${bound})`,
      );
      assert.ok(accepted >= DEFAULT_MESH_LIMITS.burst, `accepted ${accepted} >= burst`);
      assert.ok(accepted <= bound, `accepted ${accepted} <= ${bound} (window ${windowS}s)`);
      assert.equal(floodDrops(), FLOOD - accepted);
      assert.ok(
        r.drops.every((d) => d.reason === 'rate_limit' && d.source === 'gossip' && d.peer === flood.node.peerId),
      );
      assert.equal(r.node.stats().drops.rate_limit, FLOOD - accepted);
      // Every honest envelope arrived exactly once, in full.
      const got = r.received
        .filter((x) => x.meta.peer === honest.node.peerId)
        .map((x) => x.bytes[0]! * 1e6 + new DataView(x.bytes.buffer, x.bytes.byteOffset).getUint32(1));
      assert.deepEqual(
        got.sort((x, y) => x - y),
        Array.from({ length: HONEST }, (_, i) => 2e6 + i),
      );
    } finally {
      await stopAll([r, flood, honest]);
    }
  });

  test('gossip and stream share one bucket per peer: frozen clock gives exactly `burst`', async () => {
    const r = await startTestNode({ now: () => 0 });
    const flood = await startTestNode();
    const honest = await startTestNode();
    try {
      await link(flood.node, r.node, [TOPIC_BROADCAST]);
      await link(honest.node, r.node, [TOPIC_BROADCAST]);
      for (let i = 0; i < 60; i++) {
        await flood.node.publish(TOPIC_BROADCAST, payload(1, i));
        await flood.node.sendEnvelope(r.node.peerId, payload(3, i));
      }
      for (let i = 0; i < 30; i++) await honest.node.publish(TOPIC_BROADCAST, payload(2, i));
      const fromFlood = () => r.received.filter((x) => x.meta.peer === flood.node.peerId).length;
      await waitFor('flood accounted', () => fromFlood() + r.drops.length === 120);
      await waitFor('honest all', () => r.received.filter((x) => x.meta.peer === honest.node.peerId).length === 30);
      assert.equal(fromFlood(), 100);
      assert.equal(r.drops.length, 20);
      assert.ok(r.drops.every((d) => d.reason === 'rate_limit' && d.peer === flood.node.peerId));
      const vias = new Set(r.received.filter((x) => x.meta.peer === flood.node.peerId).map((x) => x.meta.via));
      assert.deepEqual([...vias].sort(), ['gossip', 'stream']);
    } finally {
      await stopAll([r, flood, honest]);
    }
  });
});

describe('message size (65,536 bytes)', () => {
  test('an oversize gossip message is dropped with reason oversize and not forwarded', async () => {
    const sender = await startTestNode({ limits: { maxMessageBytes: 200_000 } });
    const r = await startTestNode();
    const c = await startTestNode();
    try {
      await link(sender.node, r.node, MESH_TOPICS);
      await link(r.node, c.node, MESH_TOPICS);
      await waitMesh(r.node, c.node, [TOPIC_BROADCAST]);
      const over = new Uint8Array(65_537).fill(1);
      const max = new Uint8Array(65_536).fill(2);
      await sender.node.publish(TOPIC_BROADCAST, over);
      await sender.node.publish(TOPIC_BROADCAST, max);
      await waitFor('C gets the max-size message', () => c.received.length === 1);
      assert.deepEqual(c.received[0]!.bytes, max);
      assert.deepEqual(
        r.received.map((x) => x.bytes.length),
        [65_536],
      );
      assert.deepEqual(r.drops, [{ reason: 'oversize', peer: sender.node.peerId, source: 'gossip' }]);
      assert.deepEqual(c.drops, []);
    } finally {
      await stopAll([sender, r, c]);
    }
  });
});

describe("an RPC frame over gossipsub's frame cap", () => {
  test('a 2 MB gossip message is skipped and counted oversize; the 5 valid ones behind it arrive', async () => {
    const sender = await startTestNode({ limits: { maxMessageBytes: 4 * 1024 * 1024 } });
    const r = await startTestNode();
    try {
      await link(sender.node, r.node, [TOPIC_BROADCAST]);
      await sender.node.publish(TOPIC_BROADCAST, new Uint8Array(2 * 1024 * 1024).fill(3));
      for (let i = 0; i < 5; i++) await sender.node.publish(TOPIC_BROADCAST, payload(4, i));
      await waitFor('5 valid envelopes after the big frame', () => r.received.length === 5, 15_000);
      assert.deepEqual(
        r.received.map((x) => x.bytes),
        Array.from({ length: 5 }, (_, i) => payload(4, i)),
      );
      assert.deepEqual(r.drops, [{ reason: 'oversize', peer: sender.node.peerId, source: 'gossip' }]);
      assert.equal(r.node.stats().drops.oversize, 1);
      // The peer is still a gossip peer of r: r's next publish reaches it.
      await r.node.publish(TOPIC_BROADCAST, payload(5, 0));
      await waitFor('r still gossips to the sender', () => sender.received.length === 1);
    } finally {
      await stopAll([sender, r]);
    }
  });
});

describe('connection limit (50)', () => {
  test('the default node configures libp2p with maxConnections 50', async () => {
    const n = await createMeshNode({ validate: () => 'accept', dht: false, listen: ['/ip4/127.0.0.1/tcp/0'] });
    try {
      const cm = (n.libp2p as unknown as { components: { connectionManager: { getMaxConnections(): number } } })
        .components.connectionManager;
      assert.equal(cm.getMaxConnections(), 50);
      assert.equal(n.limits.maxConnections, 50);
    } finally {
      await n.stop();
    }
  });

  test('an inbound connection over the limit is refused (limit 2 here)', async () => {
    const r = await startTestNode({ limits: { maxConnections: 2 } });
    const xs = await Promise.all([startTestNode(), startTestNode(), startTestNode()]);
    try {
      await xs[0]!.node.dial(r.node.multiaddrs()[0]!);
      await xs[1]!.node.dial(r.node.multiaddrs()[0]!);
      await waitFor('r has 2 connections', () => r.node.peers().length === 2);
      await assert.rejects(xs[2]!.node.dial(r.node.multiaddrs()[0]!));
      assert.deepEqual(r.node.peers().sort(), [xs[0]!.node.peerId, xs[1]!.node.peerId].sort());
    } finally {
      await stopAll([r, ...xs]);
    }
  });
});

describe('configuration is checked at construction', () => {
  test('bad parameters throw naming the field', async () => {
    const ok = { validate: () => 'accept' as const };
    await assert.rejects(createMeshNode({} as never), /params\.validate/);
    await assert.rejects(createMeshNode({ ...ok, listen: ['nope'] }), /params\.listen\[0\]/);
    await assert.rejects(createMeshNode({ ...ok, bootstrap: ['/ip4/127.0.0.1/tcp/1'] }), /params\.bootstrap\[0\]/);
    await assert.rejects(createMeshNode({ ...ok, topics: ['/x'] as never }), /params\.topics\[0\]/);
    await assert.rejects(createMeshNode({ ...ok, limits: { maxConnections: 0 } }), /params\.limits\.maxConnections/);
    await assert.rejects(createMeshNode({ ...ok, privateKey: new Uint8Array(5) }), /params\.privateKey/);
  });

  test('a 32-byte seed gives a stable peer id', async () => {
    const seed = new Uint8Array(32).fill(9);
    const n1 = await createMeshNode({ validate: () => 'accept', privateKey: seed, dht: false, listen: [] });
    const id = n1.peerId;
    await n1.stop();
    const n2 = await createMeshNode({ validate: () => 'accept', privateKey: seed, dht: false, listen: [] });
    assert.equal(n2.peerId, id);
    await n2.stop();
    await assert.rejects(n2.publish(TOPIC_BROADCAST, new Uint8Array(1)), /stopped/);
  });
});

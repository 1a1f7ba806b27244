/**
 * GossipSub on the three docs/protocol.md §9 topics across three real nodes on loopback, in a line
 * A — B — C so that C only gets what B forwards.
 */

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { keccak256 } from '../protocol/crypto';
import { toHex } from '../protocol/hex';
import { MESH_TOPICS, TOPIC_BROADCAST, TOPIC_NOTARY } from './constants';
import { link, payload, startTestNode, stopAll, type TestNode, waitFor, waitMesh } from './testing';

const BAD = 0xff; // first byte that B's validator rejects
const SILENT = 0xee; // first byte that B's validator ignores with a reason

describe('gossip across three nodes', () => {
  let a: TestNode, b: TestNode, c: TestNode;
  const seenByValidator: string[] = [];

  before(async () => {
    a = await startTestNode();
    b = await startTestNode({
      validate: (bytes, meta) => {
        seenByValidator.push(`${meta.via} ${meta.topic} ${meta.peer}`);
        if (bytes[0] === BAD) return 'reject';
        if (bytes[0] === SILENT) return { result: 'ignore', reason: 'replay' };
        return 'accept';
      },
    });
    c = await startTestNode();
    await link(a.node, b.node, MESH_TOPICS);
    await link(b.node, c.node, MESH_TOPICS);
    for (const [x, y] of [
      [a, b],
      [b, a],
      [b, c],
      [c, b],
    ] as const)
      await waitMesh(x.node, y.node, MESH_TOPICS);
  });
  after(() => stopAll([a, b, c]));

  test('A and C are not connected (C hears A only through B)', () => {
    assert.equal(a.node.peers().includes(c.node.peerId), false);
    assert.deepEqual(b.node.peers().sort(), [a.node.peerId, c.node.peerId].sort());
  });

  test('a message published by A on each topic reaches B and C with its topic', async () => {
    for (const [i, topic] of MESH_TOPICS.entries()) {
      const msg = payload(1, i);
      const res = await a.node.publish(topic, msg);
      assert.equal(res.recipients, 1);
      await waitFor(`C gets ${topic}`, () => c.received.some((r) => r.meta.topic === topic));
      const atB = b.received.filter((r) => r.meta.topic === topic);
      const atC = c.received.filter((r) => r.meta.topic === topic);
      assert.equal(atB.length, 1);
      assert.equal(atC.length, 1);
      assert.deepEqual(atB[0]!.bytes, msg);
      assert.deepEqual(atC[0]!.bytes, msg);
      assert.equal(atB[0]!.meta.peer, a.node.peerId);
      assert.equal(atB[0]!.meta.via, 'gossip');
      // C's propagation source is B, the peer that forwarded it.
      assert.equal(atC[0]!.meta.peer, b.node.peerId);
      assert.equal(typeof atC[0]!.meta.receivedAt, 'number');
    }
    assert.ok(seenByValidator.includes(`gossip ${TOPIC_BROADCAST} ${a.node.peerId}`));
  });

  test('C publishes, A receives: both directions', async () => {
    const msg = payload(2, 0);
    await c.node.publish(TOPIC_NOTARY, msg);
    await waitFor('A gets C message', () => a.received.some((r) => r.bytes[0] === 2));
    assert.deepEqual(a.received.find((r) => r.bytes[0] === 2)!.bytes, msg);
  });

  test('the message id is keccak256 of the data: a re-published envelope is delivered once', async () => {
    const msg = payload(3, 0);
    await a.node.publish(TOPIC_BROADCAST, msg);
    const again = await a.node.publish(TOPIC_BROADCAST, msg);
    assert.equal(again.recipients, 0); // gossipsub recognised the duplicate id
    const sentinel = payload(3, 1);
    await a.node.publish(TOPIC_BROADCAST, sentinel);
    await waitFor('C gets sentinel', () => c.received.some((r) => toHex(r.bytes) === toHex(sentinel)));
    assert.equal(c.received.filter((r) => toHex(r.bytes) === toHex(msg)).length, 1);
    assert.equal(b.received.filter((r) => toHex(r.bytes) === toHex(msg)).length, 1);
    // And the ids the nodes agree on are keccak256(bytes): B's mcache holds it under that id.
    const gs = (b.node.libp2p as unknown as { services: { pubsub: { mcache: { msgs: Map<string, unknown> } } } })
      .services.pubsub;
    assert.ok(gs.mcache.msgs.has(toHex(keccak256(msg))));
  });

  test('a rejected message is dropped at B, reported, and not forwarded to C', async () => {
    const bad = payload(BAD, 1);
    const quiet = payload(SILENT, 1);
    const good = payload(4, 1);
    const before = { b: b.received.length, c: c.received.length };
    await a.node.publish(TOPIC_BROADCAST, bad);
    await a.node.publish(TOPIC_BROADCAST, quiet);
    await a.node.publish(TOPIC_BROADCAST, good);
    await waitFor('C gets the good one', () => c.received.some((r) => toHex(r.bytes) === toHex(good)));
    assert.equal(b.received.length - before.b, 1);
    assert.equal(c.received.length - before.c, 1);
    assert.equal(
      c.received.some((r) => r.bytes[0] === BAD || r.bytes[0] === SILENT),
      false,
    );
    assert.deepEqual(b.drops, [
      { reason: 'rejected', peer: a.node.peerId, source: 'gossip' },
      { reason: 'replay', peer: a.node.peerId, source: 'gossip' },
    ]);
    assert.deepEqual(b.node.stats().drops, { rejected: 1, replay: 1 });
    assert.deepEqual(c.drops, []);
  });

  test('publish checks its arguments', async () => {
    await assert.rejects(a.node.publish('/0x01/v1/nope' as never, payload(5, 0)), TypeError);
    await assert.rejects(a.node.publish(TOPIC_BROADCAST, 'x' as never), TypeError);
    await assert.rejects(a.node.publish(TOPIC_BROADCAST, new Uint8Array(65_537)), RangeError);
  });
});

/**
 * The bilateral stream protocol `/0x01/v1/envelope` (docs/protocol.md §9) between real nodes.
 */

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { multiaddr } from '@multiformats/multiaddr';
import * as lp from 'it-length-prefixed';
import { ENVELOPE_PROTOCOL } from './constants';
import { MeshSendError } from './errors';
import { payload, startTestNode, stopAll, type TestNode, waitFor } from './testing';

const BAD = 0xff;

describe('/0x01/v1/envelope stream protocol', () => {
  let a: TestNode, b: TestNode, big: TestNode;

  before(async () => {
    a = await startTestNode({
      validate: (bytes) => (bytes[0] === BAD ? { result: 'reject', reason: 'signature' } : 'accept'),
    });
    b = await startTestNode();
    // A sender allowed to produce over-limit frames, to test the receiver's limit.
    big = await startTestNode({ limits: { maxMessageBytes: 200_000 } });
  });
  after(() => stopAll([a, b, big]));

  test('round trip: B sends to A by multiaddr, A answers to B by peer id, order kept', async () => {
    const n = 20;
    for (let i = 0; i < n; i++) await b.node.sendEnvelope(a.node.multiaddrs()[0]!, payload(1, i, 100 + i));
    await waitFor('A gets 20', () => a.received.length === n);
    a.received.forEach((r, i) => {
      assert.deepEqual(r.bytes, payload(1, i, 100 + i));
      assert.equal(r.meta.via, 'stream');
      assert.equal(r.meta.peer, b.node.peerId);
      assert.equal(r.meta.topic, undefined);
    });
    await a.node.sendEnvelope(b.node.peerId, payload(2, 0));
    await waitFor('B gets the answer', () => b.received.length === 1);
    assert.deepEqual(b.received[0]!.bytes, payload(2, 0));
    assert.equal(b.received[0]!.meta.peer, a.node.peerId);
  });

  test('one connection and one reused stream carry all of a sender’s envelopes', async () => {
    await Promise.all(Array.from({ length: 30 }, (_, i) => b.node.sendEnvelope(a.node.peerId, payload(3, i))));
    await waitFor('A gets 30 more', () => a.received.filter((r) => r.bytes[0] === 3).length === 30);
    const conns = b.node.libp2p.getConnections(a.node.libp2p.peerId);
    assert.equal(conns.length, 1);
    const ours = conns[0]!.streams.filter((s) => s.protocol === ENVELOPE_PROTOCOL && s.direction === 'outbound');
    assert.equal(ours.length, 1);
  });

  test('the maximum size, 65,536 bytes, passes', async () => {
    const max = new Uint8Array(65_536).fill(7);
    await b.node.sendEnvelope(a.node.peerId, max);
    await waitFor('A gets the max envelope', () => a.received.some((r) => r.bytes.length === 65_536));
    assert.deepEqual(a.received.find((r) => r.bytes.length === 65_536)!.bytes, max);
  });

  test('a rejected stream envelope is reported with the validator reason and not delivered', async () => {
    const before = a.received.length;
    await b.node.sendEnvelope(a.node.peerId, payload(BAD, 0));
    await b.node.sendEnvelope(a.node.peerId, payload(4, 0));
    await waitFor('A gets the good one', () => a.received.some((r) => r.bytes[0] === 4));
    assert.equal(a.received.length - before, 1);
    assert.deepEqual(a.drops, [{ reason: 'signature', peer: b.node.peerId, source: 'stream' }]);
  });

  test('an oversize frame is dropped with reason oversize', async () => {
    await big.node.sendEnvelope(a.node.multiaddrs()[0]!, new Uint8Array(65_537));
    await waitFor('oversize drop', () => a.drops.some((d) => d.reason === 'oversize'));
    assert.deepEqual(a.drops.at(-1), { reason: 'oversize', peer: big.node.peerId, source: 'stream' });
    assert.equal(
      a.received.some((r) => r.bytes.length > 65_536),
      false,
    );
    assert.equal(a.node.stats().drops.oversize, 1);
  });

  test('caller misuse throws; an unreachable peer is a MeshSendError', async () => {
    await assert.rejects(b.node.sendEnvelope('not-a-peer', payload(5, 0)), TypeError);
    await assert.rejects(b.node.sendEnvelope(a.node.peerId, new Uint8Array(65_537)), RangeError);
    await assert.rejects(b.node.sendEnvelope('/ip4/127.0.0.1/tcp/1', payload(5, 0)), MeshSendError);
  });
});

describe('WebSockets transport', () => {
  test('a node listening only on /ws is reachable for gossip and streams', async () => {
    const w = await startTestNode({ listen: ['/ip4/127.0.0.1/tcp/0/ws'] });
    const t = await startTestNode();
    try {
      const addr = w.node.multiaddrs()[0]!;
      assert.match(addr, /\/ws\/p2p\//);
      await t.node.sendEnvelope(addr, payload(9, 0));
      await waitFor('stream over ws', () => w.received.length === 1);
      assert.equal(w.received[0]!.meta.via, 'stream');
      await waitFor('subscriptions over ws', () => t.node.subscribers('/0x01/v1/reputation').includes(w.node.peerId));
      await t.node.publish('/0x01/v1/reputation', payload(9, 1));
      await waitFor('gossip over ws', () => w.received.length === 2);
      assert.deepEqual(w.received[1]!.bytes, payload(9, 1));
      assert.equal(w.received[1]!.meta.topic, '/0x01/v1/reputation');
    } finally {
      await stopAll([w, t]);
    }
  });
});

describe('oversize frames on /0x01/v1/envelope are skipped, the stream goes on', () => {
  const MB2 = 2 * 1024 * 1024;

  test('a hostile peer writes a 2 MB frame and 5 valid ones in one go: 5 delivered, 1 oversize counted', async () => {
    const r = await startTestNode();
    const x = await startTestNode();
    try {
      const conn = await x.node.libp2p.dial(multiaddr(r.node.multiaddrs()[0]!));
      const s = await conn.newStream(ENVELOPE_PROTOCOL);
      const frames = [lp.encode.single(new Uint8Array(MB2).fill(0xee), { maxDataLength: 4 * MB2 }).subarray()];
      for (let i = 0; i < 5; i++) frames.push(lp.encode.single(payload(6, i)).subarray());
      const bytes = new Uint8Array(frames.reduce((a, f) => a + f.length, 0));
      let o = 0;
      for (const f of frames) {
        bytes.set(f, o);
        o += f.length;
      }
      if (!s.send(bytes)) await s.onDrain({ signal: AbortSignal.timeout(10_000) });
      await waitFor('5 valid envelopes behind the big frame', () => r.received.length === 5);
      assert.deepEqual(
        r.received.map((e) => e.bytes),
        Array.from({ length: 5 }, (_, i) => payload(6, i)),
      );
      assert.deepEqual(r.drops, [{ reason: 'oversize', peer: x.node.peerId, source: 'stream' }]);
      assert.equal(s.status, 'open');
    } finally {
      await stopAll([r, x]);
    }
  });

  test('through sendEnvelope: a 2 MB envelope, then 5 more on the same stream, all 5 arrive', async () => {
    const r = await startTestNode();
    const big = await startTestNode({ limits: { maxMessageBytes: 4 * MB2 } });
    try {
      await big.node.sendEnvelope(r.node.multiaddrs()[0]!, new Uint8Array(MB2).fill(1));
      for (let i = 0; i < 5; i++) await big.node.sendEnvelope(r.node.peerId, payload(7, i));
      await waitFor('5 delivered', () => r.received.length === 5);
      assert.deepEqual(
        r.received.map((e) => e.bytes[0]),
        [7, 7, 7, 7, 7],
      );
      assert.deepEqual(r.drops, [{ reason: 'oversize', peer: big.node.peerId, source: 'stream' }]);
      assert.equal(r.node.stats().drops.oversize, 1);
    } finally {
      await stopAll([r, big]);
    }
  });

  test(
    'a declared length past the skip limit ends that ' + 'stream, counted once; a new stream carries the next',
    async () => {
      const r = await startTestNode();
      const x = await startTestNode();
      try {
        const conn = await x.node.libp2p.dial(multiaddr(r.node.multiaddrs()[0]!));
        const s = await conn.newStream(ENVELOPE_PROTOCOL);
        s.send(lp.encode.single(payload(8, 0)).subarray());
        // The prefix alone: 2^40 bytes announced.
        s.send(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x20]));
        await waitFor('oversize counted', () => r.drops.length === 1);
        await waitFor('the stream is ended', () => s.status !== 'open');
        assert.deepEqual(r.drops, [{ reason: 'oversize', peer: x.node.peerId, source: 'stream' }]);
        await x.node.sendEnvelope(r.node.peerId, payload(8, 1));
        await waitFor('both good envelopes', () => r.received.length === 2);
        assert.deepEqual(
          r.received.map((e) => e.bytes),
          [payload(8, 0), payload(8, 1)],
        );
        assert.equal(r.drops.length, 1);
      } finally {
        await stopAll([r, x]);
      }
    },
  );
});

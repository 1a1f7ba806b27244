/**
 * What patches/@libp2p+gossipsub+17.1.1.patch, @chainsafe+libp2p-noise+17.0.0.patch and
 * @chainsafe+libp2p-yamux+8.0.1.patch change:
 * GossipSub's per-message delivery records live as long as its seen cache (not a fixed 2 min)
 * and hold no Set of duplicate senders until there is one,
 * its message cache makes no per-message Set/Map until a duplicate or an IWANT needs one,
 * message events are still delivered to a listener (on real nodes); Noise and Yamux read frame
 * lengths and headers without a copy per frame. The assertions marked "unpatched" fail without them.
 */

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { keccak256 } from '../protocol/crypto';
import { toHex } from '../protocol/hex';
import { PING_INTERVAL_MS, PING_TIMEOUT_MAX_MS, PING_TIMEOUT_MIN_MS, SEEN_TTL_MS, TOPIC_BROADCAST } from './constants';
import { link, payload, startTestNode, stopAll, type TestNode, waitFor, waitMesh } from './testing';

interface DeliveryRecords {
  ttlMs: number;
  records: Map<string, { peers?: Set<string> }>;
  queue: { peekBack(): { msgId: string; expire: number } | undefined };
}
interface McacheEntry {
  originatingPeers?: Set<string>;
  iwantCounts?: Map<string, number>;
}
interface GossipInternals {
  score: { deliveryRecords: DeliveryRecords };
  mcache: { msgs: Map<string, McacheEntry>; validate(id: string): { originatingPeers: Set<string> } | null };
  addEventListener(type: 'message', fn: (e: CustomEvent<{ data: Uint8Array }>) => void): void;
}
const internals = (t: TestNode) => (t.node.libp2p.services as unknown as { pubsub: GossipInternals }).pubsub;

describe('patched GossipSub', () => {
  let a: TestNode, b: TestNode;
  before(async () => {
    a = await startTestNode();
    b = await startTestNode();
    await link(a.node, b.node, [TOPIC_BROADCAST]);
    await waitMesh(a.node, b.node, [TOPIC_BROADCAST]);
  });
  after(() => stopAll([a, b]));

  test("libp2p's connection monitor pings every 30 s and waits 20-25 s, never overlapping two pings", () => {
    const monitor = (
      b.node.libp2p as unknown as {
        components: {
          connectionMonitor: { pingIntervalMs: number; timeout: { minTimeout: number; maxTimeout: number } };
        };
      }
    ).components.connectionMonitor;
    // libp2p's defaults: every 10 s, 5-60 s (a late ping overlaps the next, which aborts the connection)
    assert.deepEqual(
      [monitor.pingIntervalMs, monitor.timeout.minTimeout, monitor.timeout.maxTimeout],
      [PING_INTERVAL_MS, PING_TIMEOUT_MIN_MS, PING_TIMEOUT_MAX_MS],
    );
    assert.ok(PING_TIMEOUT_MAX_MS < PING_INTERVAL_MS);
  });

  test('delivery records expire after seenTTL, not 120 s', async () => {
    const msg = payload(1, 1);
    const before = Date.now();
    await a.node.publish(TOPIC_BROADCAST, msg);
    await waitFor('B gets it', () => b.received.length === 1);
    const records = internals(b).score.deliveryRecords;
    assert.equal(records.ttlMs, SEEN_TTL_MS);
    const last = records.queue.peekBack();
    assert.equal(last?.msgId, toHex(keccak256(msg)));
    // Unpatched: before + 120,000 or later.
    assert.ok(
      last!.expire <= Date.now() + SEEN_TTL_MS && last!.expire >= before + SEEN_TTL_MS,
      `expires at +${last!.expire - before} ms`,
    );
    // No Set of duplicate senders until a duplicate arrives (unpatched: one per message).
    assert.equal(records.records.get(last!.msgId)?.peers, undefined);
  });

  test('the message cache holds no per-message Set or Map until one is needed', async () => {
    const msg = payload(1, 2);
    await a.node.publish(TOPIC_BROADCAST, msg);
    await waitFor('B gets it', () => b.received.length === 2);
    const gs = internals(b);
    const entry = gs.mcache.msgs.get(toHex(keccak256(msg)));
    assert.ok(entry);
    assert.equal(entry.originatingPeers, undefined);
    assert.equal(entry.iwantCounts, undefined);
    // Callers still get an (empty) set of originating peers.
    const v = gs.mcache.validate(toHex(keccak256(msg)));
    assert.ok(v && v.originatingPeers instanceof Set && v.originatingPeers.size === 0);
  });

  test('a "message" listener still gets every message (events are built when listened to)', async () => {
    const seen: Uint8Array[] = [];
    internals(b).addEventListener('message', (e) => seen.push(e.detail.data));
    const msg = payload(1, 3);
    await a.node.publish(TOPIC_BROADCAST, msg);
    await waitFor('listener gets it', () => seen.length === 1);
    assert.deepEqual(new Uint8Array(seen[0]!), msg);
  });
});

test('patched Noise reads a 16-bit frame length from a list of chunks without a sublist', async () => {
  // The encoder module is internal to the package (not in its exports map).
  type ListLike = { length: number; get(i: number): number; getUint16(o: number): number; subarray(): Uint8Array };
  const { uint16BEDecode } = (await import(
    new URL('../../node_modules/@chainsafe/libp2p-noise/dist/src/encoder.js', import.meta.url).href
  )) as { uint16BEDecode: (d: Uint8Array | ListLike) => number };
  // A Uint8ArrayList-shaped list of the chunks [0x12] [0x34 0x56], counting sublist copies.
  const bytes = [0x12, 0x34, 0x56];
  let copies = 0;
  const list: ListLike = {
    length: bytes.length,
    get: (i) => bytes[i]!,
    getUint16: (o) => {
      copies++;
      return (bytes[o]! << 8) | bytes[o + 1]!;
    },
    subarray: () => {
      copies++;
      return Uint8Array.from(bytes);
    },
  };
  assert.equal(uint16BEDecode(list), 0x1234);
  assert.equal(copies, 0); // unpatched: Uint8ArrayList.getUint16, which copies via subarray
  assert.equal(uint16BEDecode(Uint8Array.of(0xff, 0x01)), 0xff01);
  assert.throws(() => uint16BEDecode({ ...list, length: 1 }), RangeError);
});

test('patched Yamux reads a frame header in place when the first chunk holds it', async () => {
  type Frame = {
    header: { type: number; flag: number; streamID: number; length: number };
    data?: { subarray(): Uint8Array };
  };
  type Decoder = { buffer: { subarray(...a: number[]): Uint8Array }; emitFrames(buf: Uint8Array): Iterable<Frame> };
  const { Decoder } = (await import(
    new URL('../../node_modules/@chainsafe/libp2p-yamux/dist/src/decode.js', import.meta.url).href
  )) as { Decoder: new () => Decoder };
  // Version 0, type 0 (data), flags 0, stream 3, length 2, then the two data bytes.
  const frame = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 2, 0xaa, 0xbb);
  const d = new Decoder();
  let copies = 0;
  const orig = d.buffer.subarray.bind(d.buffer);
  d.buffer.subarray = (...a: number[]) => {
    copies++;
    return orig(...a);
  };
  const [f] = [...d.emitFrames(frame)];
  assert.deepEqual(f!.header, { type: 0, flag: 0, streamID: 3, length: 2 });
  assert.deepEqual([...f!.data!.subarray()], [0xaa, 0xbb]);
  assert.equal(copies, 0); // unpatched: one subarray per frame for its header
  // A header split across chunks still decodes.
  const frames = [...d.emitFrames(frame.subarray(0, 5)), ...d.emitFrames(frame.subarray(5))];
  assert.equal(frames.length, 1);
  assert.equal(frames[0]!.header.streamID, 3);
});

/**
 * The inbound pipeline's seam between validation and delivery: the validator only decides; what
 * it accepted reaches `onAccepted` (the very object it returned) after it returns.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Envelope } from '../protocol/types';
import { createInboundPipeline } from './inbound';
import { PeerRateLimiter } from './rate-limit';
import type { MeshAccepted, MeshValidateMeta } from './types';

const limiter = () => new PeerRateLimiter({ ratePerSecond: 1_000, burst: 1_000, now: () => 0 });
const acceptedOf = (tag: number): MeshAccepted => ({
  ok: true,
  envelope: { nonce: BigInt(tag) } as unknown as Envelope,
  id: new Uint8Array(32).fill(tag),
});

test('a validator returning an accepted envelope delivers that object to onAccepted with the same meta', async () => {
  const seen: Array<{ accepted: MeshAccepted; bytes: Uint8Array; meta: MeshValidateMeta }> = [];
  const metas: MeshValidateMeta[] = [];
  const delivered: Uint8Array[] = [];
  const made = new Map<number, MeshAccepted>();
  const inbound = createInboundPipeline({
    limiter: limiter(),
    maxMessageBytes: 100,
    validate: (bytes, meta) => {
      metas.push(meta);
      // What this call accepts is delivered only after it returns.
      assert.equal(seen.length, made.size);
      if (bytes[0] === 0) return { result: 'reject', reason: 'signature' };
      if (bytes[0] === 9) return 'accept';
      const a = acceptedOf(bytes[0]);
      made.set(bytes[0], a);
      return a;
    },
    onAccepted: (accepted, bytes, meta) => seen.push({ accepted, bytes, meta }),
    onEnvelope: (bytes) => delivered.push(bytes),
    now: () => 5,
  });
  assert.equal(await inbound.handle(new Uint8Array([1, 1]), 'peerA', 'topicX', 'gossip'), 'accept');
  assert.equal(await inbound.handle(new Uint8Array([0]), 'peerA', 'topicX', 'gossip'), 'reject');
  assert.equal(await inbound.handle(new Uint8Array([9]), 'peerB', '/0x01/v1/envelope', 'stream'), 'accept');
  assert.equal(await inbound.handle(new Uint8Array([2]), 'peerB', '/0x01/v1/envelope', 'stream'), 'accept');

  assert.equal(seen.length, 2, 'plain "accept" and rejects reach no onAccepted');
  assert.equal(seen[0].accepted, made.get(1));
  assert.deepEqual(seen[0].bytes, new Uint8Array([1, 1]));
  assert.equal(seen[0].meta, metas[0]);
  assert.deepEqual(seen[0].meta, { peer: 'peerA', topic: 'topicX', via: 'gossip' });
  assert.equal(seen[1].accepted, made.get(2));
  assert.deepEqual(seen[1].meta, { peer: 'peerB', topic: '/0x01/v1/envelope', via: 'stream' });
  assert.equal(delivered.length, 3, 'onEnvelope still gets every accepted message');
  assert.deepEqual(inbound.stats(), { accepted: { gossip: 1, stream: 2 }, drops: { signature: 1 } });
});

test('an onAccepted that throws is contained: the message is still accepted', async () => {
  const inbound = createInboundPipeline({
    limiter: limiter(),
    maxMessageBytes: 100,
    validate: () => acceptedOf(3),
    onAccepted: () => {
      throw new Error('boom');
    },
    now: () => 0,
  });
  const err = console.error;
  const logged: unknown[] = [];
  console.error = (...a: unknown[]) => {
    logged.push(a[0]);
  };
  try {
    assert.equal(await inbound.handle(new Uint8Array([3]), 'p', 't', 'gossip'), 'accept');
  } finally {
    console.error = err;
  }
  assert.deepEqual(logged, ['lib/mesh: onAccepted threw']);
  assert.deepEqual(inbound.stats().accepted, { gossip: 1, stream: 0 });
});

test('a validator returning an object that is neither accepted nor a verdict is a validator_error', async () => {
  const drops: string[] = [];
  const inbound = createInboundPipeline({
    limiter: limiter(),
    maxMessageBytes: 100,
    validate: () => ({ ok: false }) as never,
    onDrop: (reason) => drops.push(reason),
    now: () => 0,
  });
  assert.equal(await inbound.handle(new Uint8Array([3]), 'p', 't', 'gossip'), 'ignore');
  assert.deepEqual(drops, ['validator_error']);
});

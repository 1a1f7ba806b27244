import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CachedSignerRegistry, type SignerSource } from './registry';

function source() {
  const rows = new Map<string, Uint8Array[]>();
  let lookups = 0;
  const s: SignerSource & { lookups(): number } = {
    async keysFor(id) {
      lookups++;
      return rows.get(Buffer.from(id).toString('hex')) ?? [];
    },
    async registerSigner(id, pk) {
      const k = Buffer.from(id).toString('hex');
      rows.set(k, [...(rows.get(k) ?? []), pk]);
    },
    lookups: () => lookups,
  };
  return s;
}

test('caches known agents, remembers unknown ones for the TTL, registers', async () => {
  const src = source();
  let now = 0;
  const reg = new CachedSignerRegistry({ source: src, now: () => now, negativeTtlMs: 100 });
  const a = new Uint8Array(32).fill(1);
  const pk = new Uint8Array(32).fill(9);
  assert.equal(reg.peek(a), undefined);
  assert.deepEqual(await reg.keysFor(a), []);
  assert.deepEqual(reg.peek(a), []); // negative cache
  assert.deepEqual(await reg.keysFor(a), []);
  assert.equal(src.lookups(), 1);
  now = 101;
  assert.equal(reg.peek(a), undefined);
  await reg.register(a, pk);
  assert.deepEqual(reg.peek(a), [pk]);
  const n = src.lookups();
  assert.deepEqual(reg.keysFor(a), [pk]); // synchronous hit
  assert.equal(src.lookups(), n);
  await assert.rejects(reg.register(new Uint8Array(3), pk), /agentId/);
});

test('concurrent misses share one lookup', async () => {
  const src = source();
  const reg = new CachedSignerRegistry({ source: src });
  const b = new Uint8Array(32).fill(2);
  await Promise.all([reg.keysFor(b), reg.keysFor(b), reg.keysFor(b)]);
  assert.equal(src.lookups(), 1);
});

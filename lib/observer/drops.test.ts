/**
 * The drop recorder on a real store (PGlite in memory): counts per reason at once, one `drop`
 * event per reason per flush with the running total, the drops written to the store, and the
 * timer flushing on its own.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../store';
import { createTestDatabase, skipWithoutPostgres, testPostgresUrl } from '../store/testing';
import { createDropRecorder } from './drops';
import type { LiveEvent } from './types';

test('counts per reason, flushes one event per reason to the bus and every drop to the store', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  const published: LiveEvent[][] = [];
  const errors: unknown[] = [];
  const drops = createDropRecorder({
    store,
    publish: (e) => published.push(e),
    clock: () => 1_000,
    onError: (e) => errors.push(e),
    flushMs: 60_000,
  });
  try {
    drops.count('signature', 'peerA', 'gossip');
    drops.count('signature', 'peerB', 'stream');
    drops.count('decode', undefined, 'upload', 'not CBOR');
    assert.deepEqual(drops.counts(), { signature: 2, decode: 1 });
    assert.deepEqual(published, [], 'nothing is published before a flush');
    await drops.flush();
    assert.deepEqual(published, [
      [
        { type: 'drop', at: 1_000, data: { reason: 'signature', count: 2, total: 2 } },
        { type: 'drop', at: 1_000, data: { reason: 'decode', count: 1, total: 1 } },
      ],
    ]);
    assert.deepEqual(await store.dropCounts(), { signature: 2, decode: 1 });

    drops.count('signature', 'peerA', 'gossip');
    await drops.flush();
    assert.deepEqual(published[1], [{ type: 'drop', at: 1_000, data: { reason: 'signature', count: 1, total: 3 } }]);
    await drops.flush();
    assert.equal(published.length, 2, 'an empty flush publishes nothing');
    assert.deepEqual(await store.dropCounts(), { signature: 3, decode: 1 });
    assert.deepEqual(errors, []);
  } finally {
    await drops.stop();
    await store.close();
  }
});

test('the timer flushes without being asked; a store failure is reported, counts stay', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  const published: LiveEvent[][] = [];
  const errors: unknown[] = [];
  const drops = createDropRecorder({
    store,
    publish: (e) => published.push(e),
    clock: () => 7,
    onError: (e) => errors.push(e),
    flushMs: 20,
  });
  drops.count('rate_limit', 'p', 'gossip');
  for (let i = 0; i < 100 && published.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(published, [[{ type: 'drop', at: 7, data: { reason: 'rate_limit', count: 1, total: 1 } }]]);
  await store.close();
  drops.count('rate_limit', 'p', 'gossip');
  await drops.stop();
  assert.equal(errors.length, 1);
  assert.match(String((errors[0] as Error).message), /closed/);
  assert.deepEqual(drops.counts(), { rate_limit: 2 });
});

// On Postgres the read can run on another pooled connection before the write commits, so a flush
// that returned early was visible there (PGlite runs every query in order on one connection).
const pgUrl = testPostgresUrl();
for (const kind of ['pglite', 'postgres'] as const) {
  test(`a flush called while another flush is writing returns only once those drops are in the store (${kind})`, {
    skip: kind === 'postgres' ? skipWithoutPostgres() : false,
  }, async () => {
    const db = kind === 'postgres' ? await createTestDatabase(pgUrl!, 'zx_drops') : null;
    const store = await openStore(db ? { databaseUrl: db.url } : { dataDir: ':memory:' });
    const drops = createDropRecorder({
      store,
      publish: () => undefined,
      clock: () => 1_000,
      onError: () => undefined,
      flushMs: 60_000,
    });
    try {
      for (let round = 1; round <= 5; round++) {
        for (let i = 0; i < 200; i++) drops.count('timestamp_out_of_window', undefined, 'upload');
        // The first flush (the timer's, in the server) takes the buffer and is still writing when
        // the second is called; the second found an empty buffer and used to return at once.
        const first = drops.flush();
        await drops.flush();
        assert.deepEqual(await store.dropCounts(), { timestamp_out_of_window: 200 * round }, `round ${round}`);
        await first;
      }
    } finally {
      await drops.stop();
      await store.close();
      await db?.drop();
    }
  });
}

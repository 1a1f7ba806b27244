/**
 * The outage rule of store-outage.ts: which errors mean "unreachable" (real errors: a refused
 * connection, a statement PGlite refuses), drop-newest at either bound with the reason naming the
 * state and the health fields; a store error that is not an outage is not retried. Retrying
 * through a real outage is outage.integration.test.ts.
 */

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import pg from 'pg';
import { isStoreUnavailable, openStore, StoreClosedError } from '../store';
import { rawQuery } from '../store/testing';
import { createStoreGuard } from './store-outage';

async function refusedError(): Promise<unknown> {
  const port = await new Promise<number>((r) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => r(p));
    });
  });
  const c = new pg.Client({
    connectionString: `postgres://postgres@127.0.0.1:${port}/x`,
    connectionTimeoutMillis: 2_000,
  });
  return c.connect().then(
    () => undefined,
    (e: unknown) => e,
  );
}

test(
  'unreachable: a refused connection and SQLSTATE ' + '57P01 are; a bad statement and a closed store are not',
  async () => {
    const refused = await refusedError();
    assert.equal(isStoreUnavailable(refused), true);
    // The store's health probe reports the same failure as text.
    assert.equal(isStoreUnavailable(new Error((refused as Error).message)), true);
    assert.equal(
      isStoreUnavailable(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
      true,
    );
    const store = await openStore({ dataDir: ':memory:' });
    const bad = await rawQuery(store)('SELEC 1').then(
      () => undefined,
      (e: unknown) => e,
    );
    await store.close();
    assert.ok(bad instanceof Error);
    assert.equal(isStoreUnavailable(bad), false);
    assert.equal(isStoreUnavailable(new StoreClosedError()), false);
    assert.equal(isStoreUnavailable(undefined), false);
  },
);

test('admit: drop-newest at the envelope or byte bound, reason by state; status reports it', async () => {
  let now = 1_000;
  const g = createStoreGuard({ clock: () => now, limits: { maxEnvelopes: 3, maxBytes: 1_000 } });
  assert.equal(g.admit({ pending: 2, pendingBytes: 100 }, 100), undefined);
  assert.equal(g.admit({ pending: 3, pendingBytes: 100 }, 100), 'store_backlog');
  assert.equal(g.admit({ pending: 0, pendingBytes: 950 }, 100), 'store_backlog');
  assert.equal(g.failed(await refusedError()), true);
  now = 2_000;
  assert.equal(g.admit({ pending: 3, pendingBytes: 0 }, 1), 'store_unavailable');
  const s = g.status({ pending: 3, pendingBytes: 10 });
  assert.deepEqual(
    { ...s, lastError: typeof s.lastError },
    {
      ok: false,
      since: new Date(1_000).toISOString(),
      lastError: 'string',
      outages: 1,
      buffered: 3,
      bufferedBytes: 10,
      bufferedPeak: 3,
      shed: 3,
      retries: 0,
    },
  );
  g.succeeded();
  assert.equal(g.ok, true);
  assert.equal(g.status({ pending: 0, pendingBytes: 0 }).since, undefined);
});

test('a write the database refuses for another reason is not retried (a closed store fails at once)', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  await store.close();
  const g = createStoreGuard({ clock: Date.now, retry: { firstMs: 1, lastMs: 5 } });
  await assert.rejects(g.wrap(store).ingestEnvelopes([]), StoreClosedError);
  assert.equal(g.ok, true);
  assert.equal(g.status({ pending: 0, pendingBytes: 0 }).retries, 0);
});

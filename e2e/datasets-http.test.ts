/**
 * The datasets HTTP surface of the real server (`npm start`'s launcher, production build) on a
 * Postgres database filled through the store's ingest (docs/datasets.md): the release scheduler
 * writes the finished epoch into <DATA_DIR>/datasets, GET /api/datasets lists it and the download
 * route serves its files (bad names 4xx, nothing outside the folder); a client that disconnects
 * mid-download stops the database query (pg_stat_activity), for the binary COPY path (CSV) and
 * the cursor path (JSONL). Needs TEST_DATABASE_URL.
 */

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { loadFixture, makeDeals } from '../lib/export/deals-testing';
import { openStore } from '../lib/store';
import { createTestDatabase, skipWithoutPostgres, testPostgresUrl } from '../lib/store/testing';
import { type RunningServer, startServer } from './harness';

const skip = skipWithoutPostgres();
// 30-day epochs: the fixture (early January 2026) lies in finished epochs, so the scheduler's
// first check releases it, and one release covers it all.
const EPOCH = 30 * 86_400;

/** GET `path` over a raw socket (no URL normalisation), status and body. */
function rawGet(base: string, path: string): Promise<{ status: number; body: Buffer }> {
  const u = new URL(base);
  return new Promise((res, rej) => {
    request({ host: u.hostname, port: u.port, path, method: 'GET' }, (r) => {
      const parts: Buffer[] = [];
      r.on('data', (c: Buffer) => parts.push(c));
      r.on('end', () => res({ status: r.statusCode ?? 0, body: Buffer.concat(parts) }));
    })
      .on('error', rej)
      .end();
  });
}

describe('datasets over HTTP against the real server', { skip, timeout: 900_000 }, () => {
  let srv: RunningServer | undefined;
  let db: { url: string; drop(): Promise<void> } | undefined;
  let admin: pg.Client | undefined;
  before(async () => {
    db = await createTestDatabase(testPostgresUrl()!, 'zx_e2e_datasets_http');
    const store = await openStore({ databaseUrl: db.url, epochSeconds: EPOCH });
    // Large enough that Postgres is still sending when the client goes away (tens of MB of CSV).
    await loadFixture(store, makeDeals({ deals: 3_000, seed: 31 }), EPOCH, { batches: false });
    await store.close();
    srv = await startServer(() => ({
      DATABASE_URL: db!.url,
      DEMO_AGENTS: '0',
      CHAIN: 'off',
      EPOCH_SECONDS: String(EPOCH),
    }));
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await srv?.stop();
    await db?.drop();
  });

  // Skipped: since releases moved to epoch-<n> folders with revisions and latest/ copies, this
  // story is flaky here (one run in three got a 400 for a listed file, another waited 300 s for a
  // release holding offers); lib/export/release-readers.test.ts and release-files cover the names.
  test('the finished epoch is released, listed, and its files download; bad names get 4xx', async () => {
    type Release = {
      epoch: number;
      manifest: string;
      tables: Record<string, { rows: number; sha256: string; file: string }>;
    };
    // Every finished epoch the store holds is released (the oldest may hold no offer): take one
    // holding envelopes and offers.
    const rel = await srv!.until(
      'a release with envelopes and offers',
      300_000,
      async () => {
        const r = await srv!.getJson<{ releases: Release[] }>('/api/datasets');
        return r.body.releases?.find((x) => x.tables.envelopes.rows > 0 && x.tables.offers.rows > 0);
      },
      1_000,
    );
    const file = await fetch(`${srv!.base}/api/datasets/${rel.tables.envelopes.file}`);
    assert.equal(file.status, 200);
    assert.equal(
      createHash('sha256')
        .update(Buffer.from(await file.arrayBuffer()))
        .digest('hex'),
      rel.tables.envelopes.sha256,
    );
    const manifest = await fetch(`${srv!.base}/api/datasets/${encodeURIComponent(rel.manifest)}`);
    assert.equal(manifest.status, 200);
    assert.equal(((await manifest.json()) as { epoch: number }).epoch, rel.epoch);

    writeFileSync(join(srv!.dataDir, 'secret.txt'), 'outside the release folder');
    for (const path of [
      '/api/datasets/..%2Fsecret.txt',
      '/api/datasets/%2e%2e/secret.txt',
      '/api/datasets/../secret.txt',
      '/api/datasets/..%5Csecret.txt',
      '/api/datasets/envelopes/..%2F..%2Fsecret.txt',
      `/api/datasets/${rel.tables.envelopes.file}.tmp-1`,
      '/api/datasets/epoch=999999.manifest.json',
      '/api/datasets/%E0%A4%A',
    ]) {
      const r = await rawGet(srv!.base, path);
      assert.ok(r.status >= 400 && r.status < 500, `${path} → ${r.status}`);
      assert.ok(!r.body.toString('utf8').includes('outside the release folder'), path);
    }
  });

  const exportQueries = async (like: string) =>
    Number(
      (
        await admin!.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle' AND query LIKE $1
      AND backend_type = 'client backend'`,
          [like],
        )
      ).rows[0].n,
    ); // a parallel plan's workers show the same query

  for (const [format, like] of [
    ['csv', '/* zx_export */ COPY (SELECT%'],
    ['jsonl', '%zx_export_cursor%'],
  ] as const) {
    test(`a client that disconnects mid-download stops the query (${format})`, async () => {
      const u = new URL(srv!.base);
      let received = 0;
      const req = request({
        host: u.hostname,
        port: u.port,
        path: `/api/export/envelopes?format=${format}`,
        method: 'GET',
      });
      const firstBytes = new Promise<void>((res, rej) => {
        req.on('response', (r) => {
          assert.equal(r.statusCode, 200);
          r.on('data', (c: Buffer) => {
            received += c.length;
            if (received > 1 << 20) {
              r.pause();
              res();
            }
          });
        });
        req.on('error', (e) => (received > 0 ? undefined : rej(e)));
      });
      req.end();
      await firstBytes;
      assert.equal(await exportQueries(like), 1, 'the export query runs while the client reads');
      req.destroy(); // the client goes away
      await srv!.until('the export query to end', 15_000, async () => (await exportQueries(like)) === 0, 200);
      const total = Number((await admin!.query<{ n: string }>('SELECT count(*)::text AS n FROM envelope')).rows[0].n);
      assert.ok(received < total * 500, 'the client left long before the end of the file');
    });
  }
});

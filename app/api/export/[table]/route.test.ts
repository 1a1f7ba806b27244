/**
 * GET /api/export/{table} and GET /api/health against a real observatory (PGlite store) holding
 * envelopes at the edges of the protocol (timestamps 0 and 2^64-1, prices ±(2^127-1)) stored
 * straight into the store: every format answers 200 with a file that reads back; an export
 * that fails before its first rows answers 500 naming it, not a 200 with an empty body; and a
 * forced release failure shows in the health payload until its retry succeeds.
 */

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { extremeItems, loadFixture, makeDeals, U64_MAX } from '../../../../lib/export/deals-testing';
import { startReleaseScheduler } from '../../../../lib/export/release-scheduler';
import { EPOCH_SECONDS, readBack } from '../../../../lib/export/testing';
import { startObservatory } from '../../../../lib/observer/observatory';
import { makeBackend, quietLogger } from '../../../../lib/observer/testing';
import { toHex } from '../../../../lib/protocol/hex';
import type { ExportSource } from '../../../../lib/store/export';
import { HealthReportSchema } from '../../../../lib/wire/views';
import { registerServices } from '../../../_lib/services';
import { GET as health } from '../../health/route';
import { GET } from './route';

test(
  'exports with extreme rows answer whole files; a failed ' + 'export is a 500; a failed release shows in /api/health',
  async () => {
    const backend = await makeBackend('pglite');
    const config = { ...backend.config, epochSeconds: EPOCH_SECONDS };
    const obs = await startObservatory({ config, logger: quietLogger });
    const dir = mkdtempSync(join(tmpdir(), 'zx-export-route-'));
    const fx = makeDeals({ deals: 40, seed: 11 });
    await loadFixture(obs.store, fx, EPOCH_SECONDS);
    const ex = extremeItems(fx);
    await obs.store.ingestEnvelopes(ex.items);
    const epochUs = BigInt(EPOCH_SECONDS) * 1_000_000n;
    const first = Number(fx.items[0].envelope.timestamp / epochUs);
    const last = Number(fx.items[fx.items.length - 1].envelope.timestamp / epochUs);
    let now = (last + 2) * EPOCH_SECONDS * 1000;
    const releases = startReleaseScheduler({
      store: obs.store,
      dir,
      firstCheckMs: 3_600_000,
      now: () => now,
      retryMs: 1_000,
    });
    let source: () => ExportSource = () => obs.store.exportSource();
    registerServices({
      observatory: obs,
      reads: obs.store,
      config,
      datasets: { exportSource: () => source(), dir, releaseStatus: () => releases.status() },
    });
    const get = (table: string, query: string) =>
      GET(new Request(`http://observatory.test/api/export/${table}?${query}`), { params: Promise.resolve({ table }) });
    try {
      for (const format of ['csv', 'jsonl', 'parquet'] as const) {
        for (const table of ['envelopes', 'offers']) {
          const res = await get(table, `format=${format}`);
          assert.equal(res.status, 200, `${table} as ${format}`);
          const bytes = Buffer.from(await res.arrayBuffer());
          const rows = await readBack(format, bytes);
          const col = table === 'envelopes' ? 'id' : 'envelope_id';
          const find = (e: typeof ex.counterMax) =>
            rows.find((r) => (r[col] instanceof Uint8Array ? toHex(r[col] as Uint8Array) : r[col]) === toHex(e.id));
          if (format === 'parquet') {
            // The three rows priced ±(2^127−1) are beyond DECIMAL(38,0): set aside in Parquet (docs/datasets.md
            // "Types").
            assert.equal(
              rows.length,
              Number(res.headers.get('x-total-rows')) - 3,
              `${table} as ${format}: every row but the three set aside`,
            );
            assert.equal(find(ex.counterMax), undefined);
            continue;
          }
          assert.equal(rows.length, Number(res.headers.get('x-total-rows')), `${table} as ${format}: every row`);
          const max = find(ex.counterMax)!;
          const time = max.timestamp;
          assert.equal(
            typeof time === 'bigint' ? time : BigInt(String(time)),
            U64_MAX,
            `${table} as ${format}: the time 2^64-1 is exact`,
          );
        }
      }

      // A read that fails before the first row (the database refuses the page): 500 naming the export.
      const real = obs.store.exportSource();
      source = () => ({
        ...real,
        scan: () => ({
          [Symbol.asyncIterator]: () => ({
            next: () => Promise.reject(new Error('relation "feedback" is unreadable')),
          }),
        }),
      });
      const failed = await get('feedback', 'format=csv');
      assert.equal(failed.status, 500);
      assert.match(
        ((await failed.json()) as { error: string }).error,
        /^the feedback export as csv failed before its first rows: relation "feedback" is unreadable$/,
      );
      source = () => obs.store.exportSource();

      // A release that cannot be written (a file where its folder goes) is reported, retried, then made.
      mkdirSync(join(dir, 'offers'), { recursive: true });
      writeFileSync(join(dir, 'offers', `epoch-${first}`), 'not a folder');
      await releases.tick();
      const read = async () => {
        const res = await health();
        const body = HealthReportSchema.parse(await res.json());
        assert.ok(body.datasets, 'the health payload reports releases');
        return body.datasets;
      };
      let d = await read();
      assert.equal(d.failures, 1);
      assert.equal(d.lastError?.epoch, first);
      assert.deepEqual(
        d.retrying.map((r) => r.epoch),
        [first],
      );
      rmSync(join(dir, 'offers', `epoch-${first}`));
      now += 1_000;
      await releases.tick();
      d = await read();
      assert.deepEqual(d.retrying, []);
      assert.equal(d.lastRelease?.epoch, first);
      assert.ok(existsSync(join(dir, `epoch=${first}.manifest.json`)));
    } finally {
      registerServices(undefined);
      await releases.stop();
      await obs.stop();
      rmSync(dir, { recursive: true, force: true });
      await backend.cleanup();
    }
  },
);

/**
 * npm run bench:export  (BENCH_ROWS, default 1,000,000; DATABASE_URL or TEST_DATABASE_URL)
 * Fills a fresh Postgres database with BENCH_ROWS envelopes (deals played by the demo agents'
 * state machine, signed, stored through the store's ingest), then, in a fresh child process that
 * only opens the store: Postgres's own `COPY (SELECT …) TO STDOUT` of the same rows and the CSV
 * export, each both into a file and into a sink that drops the bytes, and the Parquet export
 * into a file, each timed, with the child's peak RSS above its idle RSS.
 *
 * While iterating: BENCH_KEEP_DB=1 keeps the filled database and prints its URL; BENCH_DB_URL=<url>
 * measures that database again without filling a new one (and leaves it in place).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, createWriteStream, fsyncSync, openSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { loadFixture, makeDeals } from '../lib/export/deals-testing';
import { exportTable } from '../lib/export/export';
import { openStore } from '../lib/store';
import { createTestDatabase, envelopesCopySql, rawQuery } from '../lib/store/testing';

const EPOCH = 3_600;

async function measure(url: string): Promise<void> {
  const store = await openStore({ databaseUrl: url, epochSeconds: EPOCH, poolSize: 2 });
  globalThis.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const out: Record<string, unknown> = {};
  const rows = Number((await rawQuery(store)<{ n: string }>('SELECT count(*)::text AS n FROM envelope'))[0].n);
  // Each output goes to the same two kinds of sink: a file in the temp folder (what an export
  // does) and a sink that drops the bytes (the database and formatting alone).
  const sink = (file: string | null) => {
    if (!file)
      return { write: (_c: Uint8Array) => true, drained: () => Promise.resolve(), end: () => Promise.resolve() };
    // Large buffer: the file's writes overlap the export instead of pausing it for every chunk.
    const ws = createWriteStream(file, { highWaterMark: 8 << 20 });
    return {
      write: (c: Uint8Array) => ws.write(c),
      drained: () => new Promise<void>((r) => ws.once('drain', () => r())),
      end: () =>
        new Promise<void>((r) => ws.end(() => r())).then(() => {
          // Each run pays for its own disk writes, not for the page cache the previous run left dirty.
          const fd = openSync(file, 'r');
          try {
            fsyncSync(fd);
          } finally {
            closeSync(fd);
          }
        }),
    };
  };
  const run = async (name: string, toFile: boolean, produce: () => Promise<AsyncIterable<Uint8Array>>) => {
    const file = toFile ? join(tmpdir(), `zx-bench-export-${process.pid}.${name}`) : null;
    const s = sink(file);
    const t = performance.now();
    let bytes = 0;
    for await (const ch of await produce()) {
      bytes += ch.length;
      if (!s.write(ch)) await s.drained();
    }
    await s.end();
    const seconds = (performance.now() - t) / 1000;
    if (file) rmSync(file, { force: true });
    out[`${name}${toFile ? '' : '-discard'}`] = { seconds, rowsPerSec: Math.round(rows / seconds), bytes };
  };
  // Postgres's own COPY of the same rows, read as pg-copy-streams hands it over.
  const copy = async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('SET enable_sort = off'); // the same plan the export's COPY gets (lib/store/engine/db.ts copyOut)
    const stream = c.query(copyTo(envelopesCopySql()));
    stream.on('end', () => void c.end());
    return stream as AsyncIterable<Uint8Array>;
  };
  const exp = (format: 'csv' | 'parquet') => async () =>
    (await exportTable({ source: store.exportSource(), table: 'envelopes', format })).bytes;
  await run('warm-up', false, copy); // the first read of the table pays for a cold cache
  await run('copy', false, copy);
  await run('csv', false, exp('csv'));
  await run('copy', true, copy);
  await run('csv', true, exp('csv'));
  await run('parquet', true, exp('parquet'));
  clearInterval(timer);
  out.rows = rows;
  out.idleRssMB = Math.round(idle / 1e6);
  out.peakAboveIdleMB = Math.round((Math.max(peak, process.memoryUsage().rss) - idle) / 1e6);
  console.log(JSON.stringify(out));
  await store.close();
}

async function main(): Promise<void> {
  if (process.argv[2] === '--measure') return measure(process.argv[3]);
  const base = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!base) {
    console.error('bench:export needs DATABASE_URL or TEST_DATABASE_URL (a Postgres server)');
    process.exitCode = 2;
    return;
  }
  const n = Number(process.env.BENCH_ROWS ?? 1_000_000);
  const reuse = process.env.BENCH_DB_URL;
  const keep = Boolean(reuse) || process.env.BENCH_KEEP_DB === '1';
  const db = reuse ? { url: reuse, drop: async () => {} } : await createTestDatabase(base, 'zx_bench_export');
  try {
    if (!reuse) await fill(db.url, n);
    if (keep && !reuse) console.log(`kept the database: BENCH_DB_URL=${db.url}`);
    const r = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        '--import',
        './scripts/setup-node.mjs',
        'scripts/bench-export.ts',
        '--measure',
        db.url,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    type M = { seconds: number; rowsPerSec: number; bytes: number };
    const m = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<
      'copy' | 'copy-discard' | 'csv' | 'csv-discard' | 'parquet',
      M
    > & { rows: number; idleRssMB: number; peakAboveIdleMB: number };
    const f = (x: M) =>
      `${x.rowsPerSec.toLocaleString('en-US')} rows/s (${x.seconds.toFixed(2)} s, ${(x.bytes / 1e6).toFixed(0)} MB)`;
    console.log(
      `rows ${m.rows}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      `to a file:     Postgres COPY (SELECT …) TO STDOUT ${f(m.copy)}; CSV export ${f(m.csv)}: ${(
        m.csv.rowsPerSec / m.copy.rowsPerSec
      ).toFixed(2)} × COPY (target ≥ 0.5)`,
    );
    console.log(
      `bytes dropped: Postgres COPY ${f(m['copy-discard'])}; CSV export ${f(m['csv-discard'])}: ${(
        m['csv-discard'].rowsPerSec / m['copy-discard'].rowsPerSec
      ).toFixed(2)} × COPY`,
    );
    console.log(`Parquet export to a file: ${f(m.parquet)} (target ≤ 30 s for 1,000,000 rows)`);
    console.log(
      `exporting process: idle RSS ${m.idleRssMB} MB, peak ${m.peakAboveIdleMB} MB above idle (target ≤ 300)`,
    );
  } finally {
    if (!keep) await db.drop();
  }
}

/** BENCH_ROWS envelopes of played deals, signed and stored through the store's ingest. */
async function fill(url: string, n: number): Promise<void> {
  let t = performance.now();
  const fx = makeDeals({ deals: Math.ceil(n / 11), seed: 99 });
  fx.items.length = Math.min(fx.items.length, n);
  const store = await openStore({ databaseUrl: url, epochSeconds: EPOCH });
  console.log(`built ${fx.items.length} signed envelopes in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  await loadFixture(store, fx, EPOCH, { batches: false });
  await rawQuery(store)('VACUUM ANALYZE envelope');
  await store.close();
  console.log(`ingested in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

await main();

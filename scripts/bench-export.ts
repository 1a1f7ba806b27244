/// <reference path="../lib/store/export-pg-copy-streams.d.ts" />
/**
 * npm run bench:export  (BENCH_ROWS, default 1,000,000; DATABASE_URL or TEST_DATABASE_URL)
 * Fills a fresh Postgres database with BENCH_ROWS envelopes (deals played by the demo agents'
 * state machine, signed, stored through the store's ingest), then, in a fresh child process that
 * only opens the store: Postgres's own `COPY (SELECT …) TO STDOUT` of the same rows, the CSV
 * export and the Parquet export, each timed, with the child's peak RSS above its idle RSS.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { openStore } from '../lib/store';
import { createTestDatabase } from '../lib/store/testing';
import { envelopesCopySql } from '../lib/store/export';
import { loadFixture, makeDeals } from '../lib/export/fixtures';
import { exportTable } from '../lib/export/export';

const EPOCH = 3_600;

async function measure(url: string): Promise<void> {
  const store = await openStore({ databaseUrl: url, epochSeconds: EPOCH, poolSize: 2 });
  globalThis.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  const out: Record<string, unknown> = {};
  // 1. Postgres COPY of the same rows, bytes discarded.
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  let t = performance.now();
  let copyBytes = 0;
  await pipeline(c.query(copyTo(envelopesCopySql())), new Writable({ write(ch: Buffer, _e, cb) { copyBytes += ch.length; cb(); } }));
  const copyS = (performance.now() - t) / 1000;
  await c.end();
  const rows = Number((await store.query<{ n: string }>('SELECT count(*)::text AS n FROM envelope'))[0].n);
  out.copy = { seconds: copyS, rowsPerSec: Math.round(rows / copyS), bytes: copyBytes };
  for (const format of ['csv', 'parquet'] as const) {
    const file = join(tmpdir(), `zx-bench-export-${process.pid}.${format}`);
    t = performance.now();
    const res = await exportTable({ source: store.exportSource(), table: 'envelopes', format });
    const ws = createWriteStream(file);
    for await (const ch of res.bytes) if (!ws.write(ch)) await new Promise<void>((r) => ws.once('drain', () => r()));
    await new Promise<void>((r) => ws.end(() => r()));
    const s = (performance.now() - t) / 1000;
    out[format] = { seconds: s, rowsPerSec: Math.round(rows / s), bytes: statSync(file).size, ratioToCopy: +(copyS / s).toFixed(2) };
    rmSync(file, { force: true });
  }
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
  if (!base) { console.error('bench:export needs DATABASE_URL or TEST_DATABASE_URL (a Postgres server)'); process.exitCode = 2; return; }
  const n = Number(process.env.BENCH_ROWS ?? 1_000_000);
  const db = await createTestDatabase(base, 'zx_bench_export');
  try {
    let t = performance.now();
    const fx = makeDeals({ deals: Math.ceil(n / 11), seed: 99 });
    fx.items.length = Math.min(fx.items.length, n);
    const store = await openStore({ databaseUrl: db.url, epochSeconds: EPOCH });
    console.log(`built ${fx.items.length} signed envelopes in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    await loadFixture(store, fx, EPOCH, { batches: false });
    await store.query('VACUUM ANALYZE envelope');
    await store.close();
    console.log(`ingested in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--import', './scripts/setup-node.mjs', 'scripts/bench-export.ts', '--measure', db.url], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const m = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, { seconds: number; rowsPerSec: number; ratioToCopy?: number }> & { rows: number; idleRssMB: number; peakAboveIdleMB: number };
    console.log(`rows ${m.rows}`);
    console.log(`Postgres COPY (SELECT …) TO STDOUT: ${m.copy.rowsPerSec.toLocaleString('en-US')} rows/s (${m.copy.seconds.toFixed(2)} s)`);
    console.log(`CSV export:     ${m.csv.rowsPerSec.toLocaleString('en-US')} rows/s (${m.csv.seconds.toFixed(2)} s), ${m.csv.ratioToCopy} × COPY (target ≥ 0.5)`);
    console.log(`Parquet export: ${m.parquet.rowsPerSec.toLocaleString('en-US')} rows/s (${m.parquet.seconds.toFixed(2)} s; target ≤ 30 s for 1,000,000 rows)`);
    console.log(`exporting process: idle RSS ${m.idleRssMB} MB, peak ${m.peakAboveIdleMB} MB above idle (target ≤ 300)`);
  } finally {
    await db.drop();
  }
}

await main();

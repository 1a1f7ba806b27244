/**
 * `npm run bench:store`: committed envelopes/s through the ingest queue (batch 500) on file
 * PGlite and, when DATABASE_URL / TEST_DATABASE_URL (or the local default) answers, on Postgres.
 * Targets: the observer must commit ≥ 0.6 × the one-core envelope check
 * rate (~14,000–23,000/s, docs/architecture.md), so the store alone must sustain well above 10,000/s
 * on Postgres (goal 20,000/s). Mix (as before): 50 % broadcast, 50 % bilateral negotiation messages over 200
 * agents and 2,000 conversations, ~550-byte envelopes (~1 KB rows before the payload moved into raw only), so every
 * derived upsert is exercised. Each configuration runs REPEATS times on fresh envelopes; the median is the figure (this
 * machine is shared: the load average is printed before and after).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MsgType } from '../protocol/types';
import { createIngestQueue, type IngestItem, openStore, type Store } from './index';
import { bytes32, conv16, createTestDatabase, makeItem } from './testing';

const PER_RUN = Number(process.env.BENCH_N ?? 20_000);
const REPEATS = Number(process.env.REPEATS ?? 5);
const TARGET = 10_000;
const GOAL = 20_000;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const fmt = (x: number) => Math.round(x).toLocaleString('en');

let salt = 0;
function items(n: number): IngestItem[] {
  salt++;
  const T0 = 1_800_000_000_000_000n + BigInt(salt) * 1_000_000_000n;
  const types = [MsgType.BEACON, MsgType.ADVERTISE, MsgType.DISCOVER, MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT];
  return Array.from({ length: n }, (_, i) => {
    const t = types[i % types.length];
    const bilateral = t === MsgType.PROPOSE || t === MsgType.COUNTER || t === MsgType.ACCEPT;
    return makeItem({
      msgType: t,
      sender: bytes32(i % 200),
      recipient: bilateral ? bytes32((i + 1) % 200) : undefined,
      conversationId: conv16(salt * 10_000 + (i % 2000)),
      nonce: BigInt(i),
      timestamp: T0 + BigInt(i),
      payload: new Uint8Array(300).fill(i & 0xff),
    });
  });
}

/** Pushes `data` in windows of 5,000 (steady pressure, as from the mesh); committed envelopes/s. */
async function once(store: Store, data: IngestItem[], concurrency: number): Promise<number> {
  const q = createIngestQueue(store, { maxBatch: 500, maxDelayMs: 5, concurrency });
  const t0 = performance.now();
  for (let i = 0; i < data.length; i += 5_000) await q.pushMany(data.slice(i, i + 5_000));
  await q.close();
  return data.length / ((performance.now() - t0) / 1000);
}

async function measure(label: string, store: Store, concurrency: number, n: number): Promise<number> {
  const rates: number[] = [];
  for (let r = 0; r < REPEATS; r++) rates.push(await once(store, items(n), concurrency));
  const again = items(n);
  await once(store, again, concurrency);
  const dupRate = await once(store, again, concurrency);
  const sorted = [...rates].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1];
  console.log(
    `${label.padEnd(24)} median ${fmt(median).padStart(7)} ` +
      `committed/s (runs ${rates.map(fmt).join(', ')}; ${n} each) ` +
      `target ${fmt(TARGET)}: ratio ${(median / TARGET).toFixed(2)}` +
      `, goal ${fmt(GOAL)}: ratio ${(median / GOAL).toFixed(2)}; ` +
      `re-ingest of duplicates ${fmt(dupRate)}/s`,
  );
  return median;
}

console.log(
  `bench:store: batch 500, ~550-byte envelopes (~1 KB rows before the payload moved into raw only), ${REPEATS}` +
    ` runs per configuration; load average ${load()} on ${cpus().length} cores (figures scale down under load)`,
);
const dir = mkdtempSync(join(tmpdir(), 'zx-bench-'));
try {
  const s = await openStore({ dataDir: dir });
  await measure('PGlite (file)', s, 1, Math.min(PER_RUN, 5_000));
  await s.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let dbh: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
try {
  dbh = await createTestDatabase(base, 'zx_bench');
} catch (e) {
  console.log(`Postgres: skipped (${base} not reachable: ${(e as Error).message})`);
}
if (dbh) {
  try {
    const s = await openStore({ databaseUrl: dbh.url });
    await measure('Postgres, 1 in flight', s, 1, PER_RUN);
    await measure('Postgres, 2 in flight', s, 2, PER_RUN);
    await s.close();
  } finally {
    await dbh.drop();
  }
}
console.log(`load average after: ${load()}`);

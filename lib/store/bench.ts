/**
 * `npm run bench:store`: committed envelopes/s through the ingest queue (batch 500) on PGlite
 * and, when DATABASE_URL / TEST_DATABASE_URL (or the local default) answers, on Postgres.
 * Target (issue 3): Postgres well over 10,000 rows/s; the observer's end-to-end goal is
 * ~8,400 validated envelopes/s. Mix: 60 % broadcast, 40 % bilateral negotiation messages over
 * 200 agents and 2,000 conversations, so agent/conversation/pair upserts are exercised.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MsgType } from '../protocol/types';
import { createIngestQueue, openStore, type IngestItem, type Store } from './index';
import { bytes32, conv16, createTestDatabase, makeItem } from './testing';

const N = Number(process.env.BENCH_N ?? 40_000);
const TARGET = 10_000;

function items(n: number, salt: number): IngestItem[] {
  const T0 = 1_800_000_000_000_000n + BigInt(salt) * 1_000_000_000n;
  const types = [MsgType.BEACON, MsgType.ADVERTISE, MsgType.DISCOVER, MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT];
  return Array.from({ length: n }, (_, i) => {
    const t = types[i % types.length];
    const bilateral = t === MsgType.PROPOSE || t === MsgType.COUNTER || t === MsgType.ACCEPT;
    return makeItem({
      msgType: t, sender: bytes32(i % 200), recipient: bilateral ? bytes32((i + 1) % 200) : undefined,
      conversationId: conv16(salt * 10_000 + (i % 2000)), nonce: BigInt(i), timestamp: T0 + BigInt(i), payload: new Uint8Array(300).fill(i & 0xff),
    });
  });
}

async function run(label: string, store: Store, data: IngestItem[], concurrency: number): Promise<number> {
  const q = createIngestQueue(store, { maxBatch: 500, maxDelayMs: 5, concurrency });
  const t0 = performance.now();
  // Feed in windows so the queue sees steady pressure, as from the mesh.
  for (let i = 0; i < data.length; i += 5_000) await q.pushMany(data.slice(i, i + 5_000)).then(() => undefined, (e) => { throw e; });
  await q.close();
  const s = (performance.now() - t0) / 1000;
  const rate = data.length / s;
  const dupT0 = performance.now();
  await createIngestQueue(store, { maxBatch: 500, concurrency }).pushMany(data.slice(0, 10_000));
  const dupRate = 10_000 / ((performance.now() - dupT0) / 1000);
  console.log(`${label.padEnd(22)} ${data.length} envelopes in ${s.toFixed(2)} s: ${Math.round(rate).toLocaleString('en')} committed/s `
    + `(target ${TARGET.toLocaleString('en')}: ratio ${(rate / TARGET).toFixed(2)}); re-ingest of duplicates ${Math.round(dupRate).toLocaleString('en')}/s`);
  return rate;
}

console.log(`building ${N} signed envelopes… (load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores: figures scale down under load)`);
const data = items(N, 1);
const dir = mkdtempSync(join(tmpdir(), 'zx-bench-'));
try {
  const s = await openStore({ dataDir: dir });
  await run('PGlite (file)', s, data.slice(0, Math.min(N, 20_000)), 1);
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
    await run('Postgres, 1 in flight', s, data.slice(0, N / 2), 1);
    await run('Postgres, 2 in flight', s, data.slice(N / 2), 2);
    await s.close();
  } finally {
    await dbh.drop();
  }
}

/**
 * npm run bench:query  (BENCH_ROWS, default 10,000,000; BENCH_DAYS, default 120; BENCH_KEEP=1 keeps
 * the database; DATABASE_URL or TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *
 * On a fresh database (bench_query_<pid>_…): the migrations, then BENCH_ROWS envelopes over
 * BENCH_DAYS daily epochs ending now (bench-query-data.ts), loaded with COPY and the observer's
 * derived rows (agents, conversations, pairs, feedback, counters) filled set-based by the ingest
 * statement's own derivation (bench-query-load.ts); ANALYZE. BENCH_DB=<url of a kept database>
 * skips all that and measures again. Then the API's heavy reads through the functions the routes and pages call
 * (app/_lib/data.ts on the store's reads), each READS times with random parameters, p50/p99
 * against the 50 ms target; then the observer's commit path (the ingest queue, batches of 500)
 * on this database and on an empty one, alternating, and the ratio (target ≥ 0.8).
 */
import { loadavg } from 'node:os';
import { toHex } from '../lib/protocol/hex';
import { MsgType } from '../lib/protocol/types';
import { createIngestQueue, openStore, type IngestItem, type Store } from '../lib/store';
import { createTestDatabase } from '../lib/store/testing';
import { loadAgent, loadConversation, loadConversations, loadEnvelopes, loadGraph, loadStats, loadAgents } from '../app/_lib/data';
import type { Services } from '../app/_lib/services';
import { FEED_SIZE } from '../components/live-state';
import { AGENTS, copyOf, templates } from './bench-query-data';
import { loadBench } from './bench-query-load';

const EPOCH = 86_400;
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 120);
const READS = Number(process.env.BENCH_READS ?? 200);
const INGEST_N = Number(process.env.BENCH_INGEST ?? 50_000);
const TARGET_MS = 50;
const DAY_US = 86_400_000_000n;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

/** Times `fn` READS times; p50 and p99 in ms. */
async function timeRead(name: string, fn: (r: () => number) => Promise<unknown>): Promise<{ name: string; p50: number; p99: number }> {
  const r = rng(name.length * 7919);
  for (let i = 0; i < 5; i++) await fn(r); // a cold first read is the cache, not the query
  const ms: number[] = [];
  for (let i = 0; i < READS; i++) {
    const t = performance.now();
    await fn(r);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  const out = { name, p50: q(0.5), p99: q(0.99) };
  console.log(`  ${name.padEnd(44)} p50 ${out.p50.toFixed(1).padStart(6)} ms  p99 ${out.p99.toFixed(1).padStart(6)} ms  ${out.p99 <= TARGET_MS ? 'ok' : 'OVER'} (target ≤ ${TARGET_MS} ms)`);
  return out;
}

async function reads(store: Store, endUs: bigint): Promise<void> {
  const o = { reads: store } as unknown as Services; // the data loaders read only `reads` here
  const agentHex = (r: () => number) => { const b = new Uint8Array(32); b[0] = 0xa5; new DataView(b.buffer).setUint32(28, 1 + Math.floor(r() * AGENTS)); return toHex(b); };
  const [{ n }] = await store.query<{ n: string }>('SELECT count(*)::text AS n FROM conversation');
  const convs = await store.query<{ id: Uint8Array }>(`SELECT id FROM conversation TABLESAMPLE SYSTEM (${Math.min(100, 200_000 / Math.max(1, Number(n)))}) LIMIT 2000`);
  const types = [MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT, MsgType.FEEDBACK, MsgType.NOTARIZE_BID, MsgType.DELIVER];
  const startMs = Number((endUs - BigInt(DAYS) * DAY_US) / 1000n);
  const spanMs = DAYS * 86_400_000;
  const window = (r: () => number, ms: number) => { const from = startMs + Math.floor(r() * (spanMs - ms)); return { fromMs: from, toMs: from + ms }; };
  console.log(`reads (${READS} each, random parameters; ${fmt(Number(n))} conversations):`);
  await timeRead('agent page: agent + reputation', (r) => loadAgent(o, agentHex(r)));
  await timeRead('agent page: its latest 50 envelopes', (r) => loadEnvelopes(o, { agent: agentHex(r), limit: 50 }));
  await timeRead('agent page: its conversations', (r) => loadConversations(o, agentHex(r)));
  await timeRead('conversation page', (r) => loadConversation(o, toHex(convs[Math.floor(r() * convs.length)].id)));
  await timeRead('envelopes by type (feed API)', (r) => loadEnvelopes(o, { type: types[Math.floor(r() * types.length)], limit: 50 }));
  await timeRead('envelopes by type, 1-hour window', (r) => loadEnvelopes(o, { type: types[Math.floor(r() * types.length)], limit: 50, ...window(r, 3_600_000) }));
  await timeRead('envelopes by type, 3-day window', (r) => loadEnvelopes(o, { type: types[Math.floor(r() * types.length)], limit: 50, ...window(r, 3 * 86_400_000) }));
  await timeRead('envelopes of an agent, 1-day window', (r) => loadEnvelopes(o, { agent: agentHex(r), limit: 50, ...window(r, 86_400_000) }));
  await timeRead('feed page 2 (before cursor)', async (r) => {
    const first = await loadEnvelopes(o, { limit: 50, type: types[Math.floor(r() * types.length)] });
    return first.next ? loadEnvelopes(o, { limit: 50, before: first.next }) : null;
  });
  await timeRead('overview: stats, feed, agents, graph', () => Promise.all([loadStats(o), loadEnvelopes(o, { limit: FEED_SIZE }), loadAgents(o), loadGraph(o)]));
}

/** Committed envelopes/s through the observer's ingest queue (batches of 500). */
async function ingestRate(store: Store, items: IngestItem[]): Promise<number> {
  const q = createIngestQueue(store, { maxBatch: 500, maxDelayMs: 5 });
  const t0 = performance.now();
  for (let i = 0; i < items.length; i += 5_000) await q.pushMany(items.slice(i, i + 5_000));
  await q.close();
  return items.length / ((performance.now() - t0) / 1000);
}

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  // BENCH_DB: a database a BENCH_KEEP=1 run kept (loaded, analyzed): the reads and ingest again, no load.
  const reuse = process.env.BENCH_DB;
  const big = reuse ? { url: reuse, drop: async () => undefined } : await createTestDatabase(base, 'bench_query');
  const empty = await createTestDatabase(base, 'bench_query_empty');
  let keep = process.env.BENCH_KEEP === '1' || Boolean(reuse);
  try {
    console.log(`bench:query: ${reuse ? `reusing ${reuse}` : `${fmt(ROWS)} envelopes over ${DAYS} daily epochs`}, ${AGENTS} agents; load average ${load()} (shared 2-core machine: figures are noisy)`);
    let t = performance.now();
    const tpl = templates(2_000);
    console.log(`played ${fmt(tpl.items.length)} template envelopes (${(Number(tpl.spanUs) / 86_400e6).toFixed(1)} days) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    let store: Store;
    let endUs: bigint;
    let rows: number;
    if (!reuse) {
      endUs = BigInt(Date.now()) * 1000n - DAY_US / 24n; // an hour ago: "now" stays for the ingest runs
      store = await openStore({ databaseUrl: big.url, epochSeconds: EPOCH });
      const first = Number((endUs - BigInt(DAYS) * DAY_US) / (BigInt(EPOCH) * 1_000_000n));
      await store.envelopePartitions.cover(first, Number(endUs / (BigInt(EPOCH) * 1_000_000n)));
      rows = await loadBench(big.url, tpl, ROWS, DAYS, endUs, EPOCH, (s) => console.log(`${s}; load ${load()}`));
      t = performance.now();
      // VACUUM too: a loaded table's visibility map is what autovacuum leaves on a live one (index-only scans skip the heap).
      await store.query('VACUUM ANALYZE');
      console.log(`VACUUM ANALYZE in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    } else {
      store = await openStore({ databaseUrl: big.url, epochSeconds: EPOCH });
      const [r] = await store.query<{ n: string; last: string }>('SELECT count(*)::text AS n, max(timestamp)::text AS last FROM envelope');
      rows = Number(r.n);
      endUs = BigInt(r.last) + 1n;
    }
    const parts = await store.query<{ n: string; mb: string }>(`SELECT count(*)::text AS n, (sum(pg_total_relation_size(inhrelid)) / 1e6)::int::text AS mb FROM pg_inherits WHERE inhparent = 'envelope'::regclass`);
    console.log(`${fmt(rows)} envelopes; ${parts[0].n} partitions (${store.envelopePartitions.span} epochs each), ${fmt(Number(parts[0].mb))} MB with indexes`);
    await reads(store, endUs);

    const nowUs = BigInt(Date.now()) * 1000n - 600_000_000n;
    const fresh = (c: number) => copyOf(tpl, 1_000_000 + c + Math.floor(Math.random() * 1e6) * 8, nowUs).slice(0, INGEST_N);
    const small = await openStore({ databaseUrl: empty.url, epochSeconds: EPOCH });
    const rates = { empty: [] as number[], big: [] as number[] };
    for (let k = 0; k < 3; k++) {
      rates.empty.push(await ingestRate(small, fresh(2 * k)));
      rates.big.push(await ingestRate(store, fresh(2 * k + 1)));
    }
    await small.close();
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
    console.log(`ingest (queue, batches of 500, ${fmt(INGEST_N)} per run, 3 runs alternating): empty database ${rates.empty.map(fmt).join(' / ')}/s, `
      + `at ${fmt(rows)} rows ${rates.big.map(fmt).join(' / ')}/s; median ratio ${(med(rates.big) / med(rates.empty)).toFixed(2)} (target ≥ 0.8); load ${load()}`);
    await store.close();
  } catch (e) {
    keep = Boolean(reuse);
    throw e;
  } finally {
    await empty.drop();
    if (keep) console.log(`kept ${big.url}`);
    else await big.drop();
  }
}

await main();

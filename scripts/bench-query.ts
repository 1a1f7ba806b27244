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
 * against the 50 ms target (the agent page's counterparties and reputation history too, the
 * overview both as served, from its snapshot, and read anew, and every stats chart per range); BENCH_EXPLAIN=1 then
 * runs each read 5 more times under EXPLAIN (ANALYZE, BUFFERS), prints the median server execution time (what the wall
 * clock of a loaded shared machine inflates) and any seq scan of an envelope partition, and writes every plan to
 * BENCH_EXPLAIN_FILE (bench-query-plans.txt); then the observer's commit path (the ingest queue, batches of 500) on
 * this database, on it without the stats rollups (the ingest statement before them) and on an empty one (one uncounted
 * round on each, then BENCH_INGEST_RUNS, default 5, alternating; signed timestamps advancing at BENCH_INGEST_RATE
 * envelopes/s, default 60, as a live observer's are; 0 = the templates' own spacing, days per run), and the ratios:
 * loaded ÷ empty (target ≥ 0.8), with ÷ without the rollups (target ≥ 0.95). Then the agent page as served
 * (scripts/bench-query-agent-page.ts; BENCH_PAGE=0 skips it): the busiest agent (most envelopes sent) is given a chain
 * history, a verified batch per loaded epoch with its uploaded log, each verdict reached through the store's own
 * verdict path (reconciliation and authoritative fold), challenges, stake, lease and lease events for every agent; the
 * production build (built first when stale) serves the page over this database (scripts/bench-query-page.ts), and
 * BENCH_PAGE_READS (20) loads of /agents/{busiest} after 3 untimed ones give its first byte and HTML size against the
 * targets (first byte ≤ 500 ms, HTML ≤ 150 KB). BENCH_ONLY=<regex> measures only the reads whose name matches;
 * BENCH_INGEST_RUNS=0 skips the ingest runs. The stats reads include the median charts with their last interval's
 * stored medians made stale before each read, as a live observer's are.
 */

import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { loadCollusion } from '../app/_lib/collusion';
import {
  loadAgent,
  loadAgentBacking,
  loadConversation,
  loadConversations,
  loadEnvelopes,
  loadOverviewData,
  loadStats,
  takeAgentsSnapshot,
} from '../app/_lib/data';
import { loadMeshHealth } from '../app/_lib/mesh-health';
import { loadReconciliation, loadReconciliationDetail } from '../app/_lib/reconciliation';
import { loadReplayPage } from '../app/_lib/replay';
import { loadReputationHistory } from '../app/_lib/reputation-history';
import type { Services } from '../app/_lib/services';
import { loadStatsSeries, loadStatsStrip } from '../app/_lib/stats';
import { FEED_SIZE } from '../components/live-state';
import { REPLAY_PAGE_SIZE } from '../components/replay/player';
import { fromHex, toHex } from '../lib/protocol/hex';
import { MsgType } from '../lib/protocol/types';
import { createIngestQueue, type IngestItem, openStore, STATS_FOLD_MS, type Store } from '../lib/store';
import * as repo from '../lib/store/testing';
import { createTestDatabase, type Queryable, queries as q, rawDb, rawQuery } from '../lib/store/testing';
import { MESH_RANGES } from '../lib/wire/mesh-health';
import { STATS_METRIC_NAMES, STATS_RANGES } from '../lib/wire/stats';
import { agentPage } from './bench-query-agent-page';
import { AGENTS, copyOf, templates } from './bench-query-data';
import { loadBench } from './bench-query-load';

const EPOCH = 86_400;
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 120);
const READS = Number(process.env.BENCH_READS ?? 200);
const INGEST_N = Number(process.env.BENCH_INGEST ?? 50_000);
const INGEST_RUNS = Number(process.env.BENCH_INGEST_RUNS ?? 5);
/** Envelopes per second of signed time in the ingest runs (the mesh's rate as measured on the demo: about 60). */
const INGEST_RATE = Number(process.env.BENCH_INGEST_RATE ?? 60);
/** Ingest with the stats rollups may be at most 5 % slower than without them. */
const ROLLUP_TARGET = 0.95;
const TARGET_MS = 50;
/**
 * BENCH_ONLY=<regex>: only the reads whose name matches (with BENCH_INGEST_RUNS=0, a quick re-measure on a kept
 * BENCH_DB).
 */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
const DAY_US = 86_400_000_000n;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Statements a read ran, with the server's own execution time (EXPLAIN ANALYZE), for BENCH_EXPLAIN. */
interface Explained {
  ms: number;
  seqScans: string[];
  plan: string;
}
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/**
 * The store's reads on a connection that runs each statement under EXPLAIN (ANALYZE, BUFFERS)
 * before running it for the caller: the server-side cost of each statement, apart from the wall
 * clock that other work on a shared machine inflates.
 */
function explainingReads(store: Store, out: Explained[]): Store {
  const db: Queryable = {
    async query<T>(sql: string, args?: unknown[]): Promise<T[]> {
      const [{ 'QUERY PLAN': plan }] = await rawQuery(store)<{
        'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }>;
      }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, args);
      const seq: string[] = [];
      const walk = (n: PlanNode) => {
        if (n['Node Type'] === 'Seq Scan' && n['Relation Name']?.startsWith('envelope')) seq.push(n['Relation Name']);
        for (const c of n.Plans ?? []) walk(c);
      };
      walk(plan[0].Plan);
      const text = await rawQuery(store)<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`,
        args,
      );
      out.push({
        ms: plan[0]['Execution Time'],
        seqScans: seq,
        plan: `${sql.replace(/\s+/g, ' ').slice(0, 400)}\n${text.map((r) => r['QUERY PLAN']).join('\n')}`,
      });
      return rawQuery(store)<T>(sql, args);
    },
  };
  return {
    ...store,
    recentEnvelopes: (p?: Parameters<typeof q.recentEnvelopes>[1]) => q.recentEnvelopes(db, p, EPOCH),
    getAgent: (id: Uint8Array) => q.getAgent(db, id),
    getReputation: async (id: Uint8Array, kind: 'gossip' | 'batch' = 'gossip') => {
      if (kind !== 'gossip') return store.getReputation(id, kind);
      const g = await repo.gossipReputation(db, id);
      return g ? { ...g, agentId: id, kind } : null;
    },
    feedbackFor: (a: Uint8Array, limit?: number) => q.feedbackFor(db, a, limit),
    listAgents: (p?: { limit?: number }) => q.listAgents(db, p),
    conversationGraph: (p?: { limit?: number }) => q.conversationGraph(db, p),
    listConversations: (p?: q.ListConversationsParams) => q.listConversations(db, p),
    getConversation: (id: Uint8Array) => q.getConversation(db, id),
    countsByType: () => q.countsByType(db),
    dropCounts: () => q.dropCounts(db),
    counterpartiesOf: (a: Uint8Array, limit?: number) => repo.counterpartiesOf(db, a, limit),
    statsSeries: (p: Parameters<typeof repo.statsSeries>[1]) => repo.statsSeries(db, p),
    readMeshHealth: (p: Parameters<typeof repo.readMeshHealth>[1]) => repo.readMeshHealth(db, p),
    reconciliationTotals: () => repo.reconciliationTotals(db),
    listReconciliation: (p?: Parameters<typeof repo.listReconciliation>[1]) => repo.listReconciliation(db, p),
    reconciliationDetail: (a: Uint8Array, e: bigint) => repo.reconciliationDetail(db, a, e),
    meshHealthObservers: (p: Parameters<typeof repo.meshHealthObservers>[1]) => repo.meshHealthObservers(db, p),
    replayEnvelopes: (p: Parameters<typeof repo.replayEnvelopes>[1]) => repo.replayEnvelopes(db, p, EPOCH),
    collusionSignals: (p?: Parameters<typeof repo.collusionSignals>[1]) => repo.collusionSignals(db, p),
  };
}

/**
 * What three observers sharing the database keep of mesh health when the range ends at `nowMs`:
 * 2 days of minute rows and 35 of hour rows, for the three topics, the direct stream and the
 * node (lib/store/mesh-health/mesh-health.ts retention). Added once; the envelope count does not change it.
 */
/**
 * Verified batches with uploaded logs for BENCH_RECON agent-epochs (default 2,000) drawn from the
 * loaded days: each log is the agent's envelopes of the epoch (sent or received) less about one in
 * ten, so every figure is non-zero. Each agent-epoch's reconciliation is then computed by the
 * function the verdict calls, timed: what a verdict costs at this size.
 */
async function seedReconciliation(
  store: Store,
  endUs: bigint,
): Promise<{ pairs: { agent: Uint8Array; epoch: bigint }[]; p50: number; p99: number }> {
  const n = Number(process.env.BENCH_RECON ?? 2_000);
  const r = rng(4242);
  const last = endUs / DAY_US - 1n;
  const pairs = new Map<string, { agent: Uint8Array; epoch: bigint }>();
  while (pairs.size < n) {
    const agent = new Uint8Array(32);
    agent[0] = 0xa5;
    new DataView(agent.buffer).setUint32(28, 1 + Math.floor(r() * AGENTS));
    const epoch = last - BigInt(Math.floor(r() * Math.min(DAYS - 1, 30)));
    pairs.set(`${toHex(agent)}:${epoch}`, { agent, epoch });
  }
  const list = [...pairs.values()];
  const args = [list.map((p) => p.agent), list.map((p) => p.epoch.toString())];
  // A kept database (BENCH_DB) has the rows already: start over so every verdict is computed and timed.
  await rawQuery(store)('TRUNCATE reconciliation, reconciliation_total');
  await rawQuery(store)(
    `INSERT INTO batch (agent_id, epoch, batch_hash, root, slot, status, log_root, updated_at)
    SELECT a, e, decode('00', 'hex'), decode('01', 'hex'), 1, 'verified', decode('01', 'hex'), now() FROM
      unnest($1::bytea[], $2::int8[]) AS p(a, e) ON CONFLICT DO NOTHING`,
    args,
  );
  await rawQuery(store)(
    `INSERT INTO epoch_log_entry (agent_id, epoch, position, envelope_id)
    SELECT p.a, p.e, (row_number() OVER (PARTITION BY p.a, p.e ORDER BY x.timestamp, x.id) - 1)::int, x.id
    FROM unnest($1::bytea[], $2::int8[]) AS p(a, e)
    CROSS JOIN LATERAL (SELECT v.id, v.timestamp FROM envelope v WHERE v.epoch = p.e::int4 AND (v.sender = p.a OR
      v.recipient = p.a)) x
    WHERE get_byte(x.id, 0) % 10 <> 0 ON CONFLICT DO NOTHING`,
    args,
  );
  await rawQuery(store)('ANALYZE epoch_log_entry');
  await rawQuery(store)('ANALYZE batch');
  const ms: number[] = [];
  for (const p of list) {
    const t = performance.now();
    await repo.refreshReconciliation(rawDb(store), p.agent, p.epoch, 'verified', new Uint8Array([1]));
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  await rawQuery(store)('ANALYZE reconciliation');
  return {
    pairs: list,
    p50: ms[Math.floor(ms.length / 2)],
    p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))],
  };
}

async function seedMeshHealth(store: Store, nowMs: number): Promise<number> {
  await rawQuery(store)(
    `INSERT INTO mesh_health (res, bucket, topic, observer, seconds, messages, received, duplicates, invalid,
      latency_p50, latency_p90, latency_p99,
      latency_samples, mesh_peers, topic_peers, grafts, prunes, score_min, score_median, connections,
        rate_limited_peers, drops)
    SELECT r.res, b, t, o, r.res, 1000 + (b % 97), 1100, 100, 0, 12.5, 40, 90, 1000, 6, 20, 1, 1, 0.5, 2,
      CASE WHEN t = '*' THEN 30 END, CASE WHEN t = '*' THEN 0 END, CASE WHEN t = '*' THEN '{"rate_limit": 3}'::jsonb END
    FROM (VALUES (60, 2 * 86400), (3600, 35 * 86400)) AS r(res, span)
    CROSS JOIN LATERAL generate_series(($1::bigint - r.span) / r.res * r.res, $1::bigint / r.res * r.res, r.res) AS b
    CROSS JOIN unnest(ARRAY['/0x01/v1/broadcast', '/0x01/v1/notary', '/0x01/v1/reputation', '/0x01/v1/envelope', '*'])
      AS t
    CROSS JOIN unnest(ARRAY['observer-a', 'observer-b', 'observer-c']) AS o
    ON CONFLICT DO NOTHING`,
    [Math.floor(nowMs / 1000)],
  );
  const [{ n }] = await rawQuery(store)<{ n: string }>('SELECT count(*)::text AS n FROM mesh_health');
  return Number(n);
}

/**
 * Times `fn` READS times; p50 and p99 in ms. With `explain`, then runs it 5 more times explained and prints the median
 * server time.
 */
async function timeRead(
  name: string,
  fn: (r: () => number, o: Services) => Promise<unknown>,
  o: Services,
  explain: ((out: Explained[]) => Services) | null,
  served: boolean | string = true,
  before?: () => Promise<unknown>,
  reads = READS,
): Promise<{ name: string; p50: number; p99: number }> {
  const r = rng(name.length * 7919);
  for (let i = 0; i < 5; i++) {
    await before?.();
    await fn(r, o);
  } // a cold first read is the cache, not the query
  const ms: number[] = [];
  for (let i = 0; i < reads; i++) {
    await before?.();
    const t = performance.now();
    await fn(r, o);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  const out = { name, p50: q(0.5), p99: q(0.99) };
  console.log(
    `  ${name.padEnd(44)} p50 ${out.p50.toFixed(1).padStart(6)} ms  p99 ${out.p99.toFixed(1).padStart(6)} ms  ` +
      (served === true
        ? `${out.p99 <= TARGET_MS ? 'ok' : 'OVER'} (target ≤ ${TARGET_MS} ms)`
        : `(${served || 'not served: what the snapshot costs to retake'})`),
  );
  if (explain) {
    const runs: Explained[][] = [];
    for (let i = 0; i < 5; i++) {
      await before?.();
      const e: Explained[] = [];
      await fn(r, explain(e));
      runs.push(e);
    }
    const total = runs.map((e) => e.reduce((s, x) => s + x.ms, 0)).sort((a, b) => a - b);
    const seq = [...new Set(runs.flat().flatMap((e) => e.seqScans))];
    console.log(
      `  ${''.padEnd(44)} server execution ${total[2].toFixed(1)} ms median ` +
        `of 5 (${runs[2].length} statements; min ${total[0].toFixed(1)}, max ` +
        `${total[4].toFixed(1)})${seq.length ? `; SEQ SCAN ${seq.join(', ')}` : ''}`,
    );
    explainLog.push(`### ${name}\n${runs[2].map((e) => `-- ${e.ms.toFixed(2)} ms\n${e.plan}`).join('\n\n')}\n`);
  }
  return out;
}
const explainLog: string[] = [];

async function reads(store: Store, endUs: bigint): Promise<void> {
  const explain = process.env.BENCH_EXPLAIN === '1';
  const mesh = { peerId: 'observer-a' };
  // what the data loaders here read
  const o = { reads: store, observatory: { store, mesh }, config: { epochSeconds: EPOCH } } as unknown as Services;
  const agentHex = (r: () => number) => {
    const b = new Uint8Array(32);
    b[0] = 0xa5;
    new DataView(b.buffer).setUint32(28, 1 + Math.floor(r() * AGENTS));
    return toHex(b);
  };
  const [{ n }] = await rawQuery(store)<{ n: string }>('SELECT count(*)::text AS n FROM conversation');
  const convs = await rawQuery(store)<{ id: Uint8Array }>(
    `SELECT id FROM conversation TABLESAMPLE SYSTEM (${Math.min(100, 200_000 / Math.max(1, Number(n)))}) LIMIT 2000`,
  );
  const types = [
    MsgType.PROPOSE,
    MsgType.COUNTER,
    MsgType.ACCEPT,
    MsgType.FEEDBACK,
    MsgType.NOTARIZE_BID,
    MsgType.DELIVER,
  ];
  const startMs = Number((endUs - BigInt(DAYS) * DAY_US) / 1000n);
  const spanMs = DAYS * 86_400_000;
  const window = (r: () => number, ms: number) => {
    const from = startMs + Math.floor(r() * (spanMs - ms));
    return { fromMs: from, toMs: from + ms };
  };
  const over: string[] = [];
  const read = async (
    name: string,
    fn: (r: () => number, o: Services) => Promise<unknown>,
    served: boolean | string = true,
    before?: () => Promise<unknown>,
    reads = READS,
  ) => {
    if (ONLY && !ONLY.test(name)) return;
    const t = await timeRead(
      name,
      fn,
      o,
      explain
        ? (e) => {
            const x = explainingReads(store, e);
            return {
              reads: x,
              observatory: { store: x, mesh },
              config: { epochSeconds: EPOCH },
            } as unknown as Services;
          }
        : null,
      served,
      before,
      reads,
    );
    if (served === true && t.p99 > TARGET_MS) over.push(`${name} ${t.p99.toFixed(0)} ms`);
  };
  console.log(`reads (${READS} each, random parameters; ${fmt(Number(n))} conversations):`);
  await read('agent page: agent + reputation', (r, o) => loadAgent(o, agentHex(r), { backing: false }));
  // Streamed after the page's first part (a Suspense section); the API's /api/agents/{id} waits for it.
  await read(
    'agent page: unbacked feedback',
    (r, o) => loadAgentBacking(o, agentHex(r), null),
    'streamed in a Suspense section',
  );
  await read('agent page: its latest 50 envelopes', (r, o) => loadEnvelopes(o, { agent: agentHex(r), limit: 50 }));
  await read('agent page: its conversations', (r, o) => loadConversations(o, agentHex(r)));
  await read('agent page: counterparties', (r, o) => o.observatory.store.counterpartiesOf(fromHex(agentHex(r))));
  await read('agent page: reputation history', (r, o) => loadReputationHistory(o, fromHex(agentHex(r))));
  await read('conversation page', (r, o) => loadConversation(o, toHex(convs[Math.floor(r() * convs.length)].id)));
  await read('envelopes by type (feed API)', (r, o) =>
    loadEnvelopes(o, { type: types[Math.floor(r() * types.length)], limit: 50 }),
  );
  await read('envelopes by type, 1-hour window', (r, o) =>
    loadEnvelopes(o, { type: types[Math.floor(r() * types.length)], limit: 50, ...window(r, 3_600_000) }),
  );
  await read('envelopes by type, 3-day window', (r, o) =>
    loadEnvelopes(o, { type: types[Math.floor(r() * types.length)], limit: 50, ...window(r, 3 * 86_400_000) }),
  );
  await read('envelopes of an agent, 1-day window', (r, o) =>
    loadEnvelopes(o, { agent: agentHex(r), limit: 50, ...window(r, 86_400_000) }),
  );
  await read('feed page 2 (before cursor)', async (r, o) => {
    const first = await loadEnvelopes(o, { limit: 50, type: types[Math.floor(r() * types.length)] });
    return first.next ? loadEnvelopes(o, { limit: 50, before: first.next }) : null;
  });
  // The economy over time: each chart's read from the rollups (the /stats page reads all nine),
  // its window ending with the loaded data (which ends an hour before now).
  const statsNow = Number(endUs / 1000n);
  for (const range of STATS_RANGES) {
    for (const metric of STATS_METRIC_NAMES)
      await read(`stats: ${metric}, ${range}`, (_r, o) => loadStatsSeries(o, metric, range, statsNow));
  }
  // A live observer keeps adding deals to the last interval of every range, so its stored
  // medians are always behind: each read recomputes them from its price rows (the rest are stored).
  for (const range of ['24h', 'all'] as const) {
    const { stepSeconds } = await loadStatsSeries(o, 'median_price', range, statsNow);
    await read(
      `stats: median_price, ${range}, last interval live`,
      (_r, o) => loadStatsSeries(o, 'median_price', range, statsNow),
      true,
      () =>
        rawQuery(store)(
          `UPDATE stats_service SET median_deals = NULL WHERE res = $1 AND ` +
            `bucket = (SELECT max(bucket) FROM stats_service WHERE res = $1)`,
          [stepSeconds],
        ),
    );
  }
  // Replay (the overview's time control): a page (REPLAY_PAGE_SIZE, as the player asks) from the start of a random
  // 1-hour window, and the page after a cursor taken from one, as the player fetches them.
  await read('replay: first page of a 1-hour window', (r, o) => {
    const w = window(r, 3_600_000);
    return loadReplayPage(o, { fromMs: w.fromMs, toMs: w.toMs, limit: REPLAY_PAGE_SIZE });
  });
  // The cursor comes from a first page read untimed before each read, as the player holds it.
  const rc = rng(0x5eed);
  let cursor: { w: { fromMs: number; toMs: number }; after?: { timestampUs: bigint; id: string } } = {
    w: window(rc, 3_600_000),
  };
  await read(
    'replay: the page after a cursor',
    (_r, o) => loadReplayPage(o, { ...cursor.w, after: cursor.after, limit: REPLAY_PAGE_SIZE }),
    true,
    async () => {
      const w = window(rc, 3_600_000);
      const first = await loadReplayPage(
        { reads: store, observatory: { store, mesh }, config: { epochSeconds: EPOCH } } as unknown as Services,
        { ...w, limit: REPLAY_PAGE_SIZE },
      );
      const [ts, id] = (first.next ?? '').split(':');
      cursor = { w, after: first.next ? { timestampUs: BigInt(ts), id } : undefined };
    },
  );
  // Collusion signals (/collusion and the agent page's section), over the default windows of
  // 5,000 newest rows; not a page read in 50 ms (docs/app.md "Collusion signals"): printed, not judged.
  await read(
    'collusion: every signal, default windows',
    (_r, o) => loadCollusion(o, { limit: 20, window: 5_000 }),
    'the /collusion page, streamed',
    undefined,
    20,
  );
  await read(
    'collusion: one agent',
    (r, o) => loadCollusion(o, { agent: fromHex(agentHex(r)), limit: 20, window: 5_000 }),
    'not a page read: shown in a Suspense section',
    undefined,
    20,
  );
  // Mesh health (the /mesh page): three observers' rows, whatever the envelope count.
  const meshRows = await seedMeshHealth(store, statsNow);
  for (const range of MESH_RANGES)
    await read(`mesh health: ${range} (${fmt(meshRows)} rows stored)`, (_r, o) => loadMeshHealth(o, range, statsNow));
  // Gossip against chain: the totals (/stats, /reconciliation), an agent's rows (agent page) and one
  // agent-epoch read live (its envelope lists), after computing the verdict-time rows.
  const recon = await seedReconciliation(store, endUs);
  console.log(
    `  reconciliation: ${fmt(recon.pairs.length)} verified agent-epochs computed at their verdict, p50 ` +
      `${recon.p50.toFixed(1)} ms, p99 ${recon.p99.toFixed(1)} ms each (not a page read: once per batch verdict)`,
  );
  await read('reconciliation: totals and newest 100', (_r, o) => loadReconciliation(o, { limit: 100 }));
  await read('agent page: reconciliation rows', (r, o) =>
    loadReconciliation(o, { agent: fromHex(agentHex(r)), limit: 10 }),
  );
  await read('reconciliation: one agent-epoch live', (r, o) => {
    const p = recon.pairs[Math.floor(r() * recon.pairs.length)];
    return loadReconciliationDetail(o, p.agent, p.epoch);
  });
  await read('stats page: all nine charts, 24h', (_r, o) =>
    Promise.all(STATS_METRIC_NAMES.map((m) => loadStatsSeries(o, m, '24h', statsNow))),
  );
  await read('overview: stats strip', (_r, o) => loadStatsStrip(o, statsNow, 0));
  // As served: the agents and graph from the snapshot (retaken every OVERVIEW_MAX_AGE_MS here: nothing commits
  // meanwhile).
  await read('overview: stats, feed, agents, graph', (_r, o) => loadOverviewData(o));
  await read(
    'overview, every read taken anew',
    (_r, o) => Promise.all([loadStats(o), loadEnvelopes(o, { limit: FEED_SIZE }), takeAgentsSnapshot(o)]),
    false,
  );
  console.log(
    `${over.length === 0 ? 'PASS' : 'FAIL'} every served read p99 ≤ ` +
      `${TARGET_MS} ms${over.length ? ` (over: ${over.join('; ')})` : ''}`,
  );
  if (explain) {
    const file = process.env.BENCH_EXPLAIN_FILE ?? 'bench-query-plans.txt';
    await writeFile(file, explainLog.join('\n'));
    console.log(`plans (EXPLAIN ANALYZE, BUFFERS) of every statement: ${file}`);
  }
}

/** How often the stores fold pending stats into the rollups, in ingest time: the store's own timer. */
const FOLD_EVERY_MS = STATS_FOLD_MS;

/**
 * Committed envelopes/s through the observer's ingest queue (batches of 500), with the stats
 * folded into the rollups every FOLD_EVERY_MS and once at the end, inside the timing (the
 * stores are opened without their fold timer, so no fold runs untimed).
 */
async function ingestRate(store: Store, items: IngestItem[]): Promise<number> {
  const q = createIngestQueue(store, { maxBatch: 500, maxDelayMs: 5 });
  const t0 = performance.now();
  let folded = t0;
  for (let i = 0; i < items.length; i += 5_000) {
    await q.pushMany(items.slice(i, i + 5_000));
    if (performance.now() - folded >= FOLD_EVERY_MS) {
      await store.foldStats();
      folded = performance.now();
    }
  }
  await q.close();
  await store.foldStats();
  return items.length / ((performance.now() - t0) / 1000);
}

/**
 * What the stats rollups cost, batch by batch: batches of 500 go alternately to a store with
 * the rollups and to one without (which goes first alternates too), each call timed alone. A
 * shared machine's load drifts over seconds; two neighbouring batches see the same load, so the
 * ratio of the summed times is steadier than the ratio of two runs' rates. A store with the
 * rollups pays for its folds in its own time: one after each FOLD_EVERY_MS of its ingest and one
 * at the end, as an observer ingesting without a pause folds on its timer (`foldsBare`: the
 * second store keeps rollups too, as when comparing index sets).
 */
async function pairedCost(
  full: Store,
  bare: Store,
  a: IngestItem[],
  b: IngestItem[],
  foldsBare = false,
): Promise<{ full: number; bare: number; folds: number; foldMs: number }> {
  const side = (st: Store, folds: boolean) => ({ st, folds, t: 0, foldedAt: 0 });
  const f = side(full, true);
  const g = side(bare, foldsBare);
  let folds = 0;
  let foldMs = 0;
  const fold = async (x: typeof f) => {
    const t0 = performance.now();
    await x.st.foldStats();
    const dt = performance.now() - t0;
    x.t += dt;
    x.foldedAt = x.t;
    if (x === f) {
      folds++;
      foldMs += dt;
    }
  };
  for (let i = 0, k = 0; i + 500 <= Math.min(a.length, b.length); i += 500, k++) {
    const pair: [typeof f, IngestItem[]][] = [
      [f, a.slice(i, i + 500)],
      [g, b.slice(i, i + 500)],
    ];
    for (const [x, items] of k % 2 === 0 ? pair : pair.reverse()) {
      const t0 = performance.now();
      await x.st.ingestEnvelopes(items);
      x.t += performance.now() - t0;
    }
    for (const x of [f, g]) if (x.folds && x.t - x.foldedAt >= FOLD_EVERY_MS) await fold(x);
  }
  for (const x of [f, g]) if (x.folds) await fold(x);
  return { full: f.t, bare: g.t, folds, foldMs };
}

async function main(): Promise<void> {
  const base =
    process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  // BENCH_DB: a database a BENCH_KEEP=1 run kept (loaded, analyzed): the reads and ingest again, no load.
  const reuse = process.env.BENCH_DB;
  const big = reuse ? { url: reuse, drop: async () => undefined } : await createTestDatabase(base, 'bench_query');
  const empty = await createTestDatabase(base, 'bench_query_empty');
  let keep = process.env.BENCH_KEEP === '1' || Boolean(reuse);
  try {
    console.log(
      `bench:query: ${reuse ? `reusing ${reuse}` : `${fmt(ROWS)} envelopes over ${DAYS} daily epochs`}` +
        `, ${AGENTS} agents; load average ${load()} (shared 2-core machine: figures are noisy)`,
    );
    let t = performance.now();
    const tpl = templates(2_000);
    console.log(
      `played ${fmt(tpl.items.length)} template envelopes (${(Number(tpl.spanUs) / 86_400e6).toFixed(1)} days) in ${(
        (performance.now() - t) / 1000
      ).toFixed(1)} s`,
    );
    let store: Store;
    let endUs: bigint;
    let rows: number;
    if (!reuse) {
      endUs = BigInt(Date.now()) * 1000n - DAY_US / 24n; // an hour ago: "now" stays for the ingest runs
      store = await openStore({ databaseUrl: big.url, epochSeconds: EPOCH, statsFoldMs: 0 });
      const first = Number((endUs - BigInt(DAYS) * DAY_US) / (BigInt(EPOCH) * 1_000_000n));
      await store.envelopePartitions.cover(first, Number(endUs / (BigInt(EPOCH) * 1_000_000n)));
      rows = await loadBench(big.url, tpl, ROWS, DAYS, endUs, EPOCH, (s) => console.log(`${s}; load ${load()}`));
      t = performance.now();
      // The load's statements left their stats pending, as ingest does.
      const folded = await store.foldStats();
      console.log(
        `stats of the load folded into the rollups (${fmt(folded)} pending rows) in ${(
          (performance.now() - t) / 1000
        ).toFixed(1)} s`,
      );
      t = performance.now();
      // VACUUM too: a loaded table's visibility map is what autovacuum leaves on a live one (index-only scans skip the
      // heap).
      await rawQuery(store)('VACUUM ANALYZE');
      console.log(`VACUUM ANALYZE in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    } else {
      store = await openStore({ databaseUrl: big.url, epochSeconds: EPOCH, statsFoldMs: 0 });
      const [r] = await rawQuery(store)<{ n: string; last: string }>(
        'SELECT count(*)::text AS n, max(timestamp)::text AS last FROM envelope',
      );
      rows = Number(r.n);
      endUs = BigInt(r.last) + 1n;
    }
    const parts = await rawQuery(store)<{ n: string; mb: string }>(
      `SELECT count(*)::text AS n, (sum(pg_total_relation_size(inhrelid)) / ` +
        `1e6)::int::text AS mb FROM pg_inherits WHERE inhparent = 'envelope'::regclass`,
    );
    console.log(
      `${fmt(rows)} envelopes; ${parts[0].n} partitions (${store.envelopePartitions.span}` +
        ` epochs each), ${fmt(Number(parts[0].mb))} MB with indexes`,
    );
    await reads(store, endUs);
    if (process.env.BENCH_PAGE !== '0' && (!ONLY || ONLY.test('agent page served')))
      await agentPage(store, big.url, endUs, rows, DAYS);
    if (INGEST_RUNS === 0) {
      await store.close();
      return;
    }

    const nowUs = BigInt(Date.now()) * 1000n - 600_000_000n;
    // A live observer stores envelopes signed within 30 s of its clock, so one batch spans a
    // second or so: the copies' timestamps advance at INGEST_RATE envelopes/s from where the last
    // run ended (0: the templates' own spacing, days per run, as an upload of old logs would be).
    let clockUs = nowUs;
    const fresh = (c: number) => {
      const items = copyOf(tpl, 1_000_000 + c + Math.floor(Math.random() * 1e6) * 8, nowUs).slice(0, INGEST_N);
      if (INGEST_RATE <= 0) return items;
      const stepUs = 1e6 / INGEST_RATE;
      const at = (i: number) => clockUs + BigInt(Math.floor(i * stepUs));
      const out = items.map((it, i) => ({
        ...it,
        envelope: { ...it.envelope, timestamp: at(i) },
        receivedAt: new Date(Number(at(i) / 1000n) + 5),
      }));
      clockUs = at(items.length);
      return out;
    };
    const small = await openStore({ databaseUrl: empty.url, epochSeconds: EPOCH, statsFoldMs: 0 });
    // The same database through a store that leaves the stats rollups out of the ingest
    // statement: what ingest cost before them, measured in this run on this data.
    const bare = await openStore({ databaseUrl: big.url, epochSeconds: EPOCH, statsRollups: false });
    const rates = { empty: [] as number[], big: [] as number[], bare: [] as number[] };
    // One uncounted round on each first: an observer ingests continuously, so its current
    // partition's indexes are in cache; the reads above left other pages there.
    await ingestRate(small, fresh(100));
    await ingestRate(store, fresh(101));
    await ingestRate(bare, fresh(102));
    for (let k = 0; k < INGEST_RUNS; k++) {
      rates.empty.push(await ingestRate(small, fresh(3 * k)));
      // Alternating which goes first, so neither gains from following the other.
      const pair: [Store, number[], number][] = [
        [store, rates.big, 1],
        [bare, rates.bare, 2],
      ];
      for (const [st, into, c] of k % 2 === 0 ? pair : pair.reverse())
        into.push(await ingestRate(st, fresh(3 * k + c)));
    }
    // The rollups' own cost, batch-interleaved (pairedCost): the steadier of the two figures.
    const paired = { full: 0, bare: 0, folds: 0, foldMs: 0 };
    for (let k = 0; k < INGEST_RUNS; k++) {
      const r = await pairedCost(store, bare, fresh(1_000 + 2 * k), fresh(1_001 + 2 * k));
      paired.full += r.full;
      paired.bare += r.bare;
      paired.folds += r.folds;
      paired.foldMs += r.foldMs;
    }
    const pairedRatio = paired.bare / paired.full;
    // The replay order index (envelope(timestamp, id)) took the place of (msg_type, timestamp),
    // which nothing read any more: the envelope's indexes now against those before replay, on two
    // new databases given the same rows first, then batch-interleaved as above. Halfway the two
    // databases trade index sets, so neither database's own luck (its files, its cache) counts as
    // the indexes' cost: two identical sets measured this way agree to within about 2 %
    // (BENCH_BEFORE_INDEX set to today's own index).
    const dbA = await createTestDatabase(base, 'bench_query_idx_a');
    const dbB = await createTestDatabase(base, 'bench_query_idx_b');
    const rA = await openStore({ databaseUrl: dbA.url, epochSeconds: EPOCH, statsFoldMs: 0 });
    const rB = await openStore({ databaseUrl: dbB.url, epochSeconds: EPOCH, statsFoldMs: 0 });
    // BENCH_BEFORE_INDEX: the statement that gives the "before" set its index in place of (timestamp, id).
    const BEFORE =
      process.env.BENCH_BEFORE_INDEX ??
      'CREATE INDEX envelope_msg_type_timestamp_idx ON envelope (msg_type, timestamp)';
    // IF [NOT] EXISTS: BENCH_BEFORE_INDEX may name today's own index, the A/A check of the method.
    const toBefore = async (st: Store) => {
      await rawQuery(st)('DROP INDEX envelope_timestamp_id_idx');
      await rawQuery(st)(BEFORE);
    };
    const toToday = async (st: Store) => {
      await rawQuery(st)('DROP INDEX IF EXISTS envelope_msg_type_timestamp_idx');
      await rawQuery(st)('CREATE INDEX IF NOT EXISTS envelope_timestamp_id_idx ON envelope (timestamp, id)');
    };
    await toBefore(rB);
    const warm = fresh(200);
    await ingestRate(rA, warm);
    await ingestRate(rB, warm);
    const replayIdx = { full: 0, bare: 0 };
    const halves = Math.max(1, Math.floor(INGEST_RUNS / 2));
    for (let k = 0; k < 2 * halves; k++) {
      if (k === halves) {
        await toBefore(rA);
        await toToday(rB);
      }
      const [today, before] = k < halves ? [rA, rB] : [rB, rA];
      const r = await pairedCost(today, before, fresh(2_000 + 2 * k + (k % 2)), fresh(2_001 + 2 * k - (k % 2)), true);
      replayIdx.full += r.full;
      replayIdx.bare += r.bare;
    }
    const replayRatio = replayIdx.bare / replayIdx.full;
    await rA.close();
    await rB.close();
    await dbA.drop();
    await dbB.drop();
    await small.close();
    await bare.close();
    const med = (xs: number[]) => {
      const v = [...xs].sort((a, b) => a - b);
      return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    };
    const ratio = med(rates.big) / med(rates.empty);
    const rollups = med(rates.big) / med(rates.bare);
    console.log(
      `ingest (queue, batches of 500, ${fmt(INGEST_N)} per run, ` +
        `${INGEST_RUNS} runs alternating, timestamps ` +
        (INGEST_RATE > 0 ? `advancing at ${INGEST_RATE}/s` : 'as the templates space them') +
        `): empty database ${rates.empty.map(fmt).join(' / ')}/s, ` +
        `at ${fmt(rows)} rows ${rates.big.map(fmt).join(' / ')}/s; ` +
        `median ratio ${ratio.toFixed(2)} (target ≥ 0.8); load ${load()}`,
    );
    console.log(
      `ingest at ${fmt(rows)} rows without the stats rollups ${rates.bare.map(fmt).join(' / ')}` +
        `/s; with them ÷ without, medians: ${rollups.toFixed(3)} (noisy: runs seconds apart)`,
    );
    console.log(
      `ingest at ${fmt(rows)} rows, batches of 500 alternating between the two stores ` +
        `(${fmt((INGEST_RUNS * INGEST_N) / 500)} pairs): ${(paired.full / 1000).toFixed(1)}` +
        ` s with the stats rollups (of it ${(paired.foldMs / 1000).toFixed(1)}` +
        ` s in ${fmt(paired.folds)} folds), ${(paired.bare / 1000).toFixed(1)} s without; ` +
        `rate with ÷ without ${pairedRatio.toFixed(3)} (target ≥ ${ROLLUP_TARGET})`,
    );
    console.log(
      `ingest on two new databases given the same rows, batches of 500 alternating between today's ` +
        `envelope indexes and those before replay (msg_type, timestamp) instead of (timestamp, id) (` +
        `${fmt((2 * Math.max(1, Math.floor(INGEST_RUNS / 2)) * INGEST_N) / 500)} pairs, the databases trading ` +
        `sets halfway): ${(replayIdx.full / 1000).toFixed(1)} s today, ${(replayIdx.bare / 1000).toFixed(1)}` +
        ` s before; rate today ÷ before ${replayRatio.toFixed(3)} (target ≥ ${ROLLUP_TARGET})`,
    );
    console.log(
      `${replayRatio >= ROLLUP_TARGET ? 'PASS' : 'FAIL'} ingest with today's envelope ` +
        `indexes ≥ ${ROLLUP_TARGET} × with those before replay (batch-interleaved)`,
    );
    console.log(`${ratio >= 0.8 ? 'PASS' : 'FAIL'} ingest at ${fmt(rows)} rows ≥ 0.8 × an empty database`);
    console.log(
      `${pairedRatio >= ROLLUP_TARGET ? 'PASS' : 'FAIL'} ingest at ${fmt(rows)} rows ` +
        `with the stats rollups ≥ ${ROLLUP_TARGET} × without them (batch-interleaved)`,
    );
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

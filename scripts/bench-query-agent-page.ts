/**
 * bench:query's agent page (scripts/bench-query.ts runs it after the reads): the busiest agent
 * given a chain history as the indexer would store it, the production build serving the page over
 * the loaded database (scripts/bench-query-page.ts), its first byte and HTML size against the
 * targets, and what the HTML is made of: the RSC payload Next inlines beside the markup, and each
 * list's rows against its first page's size. A list short of a full page (a small BENCH_ROWS, a
 * quiet agent) makes the size a floor, not the page a busier agent gets, and the report says so.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { AGENT_PAGE_ROWS } from '../app/_lib/agent-page';
import { base58 } from '../components/format';
import { toHex } from '../lib/protocol/hex';
import type { Store } from '../lib/store';
import { rawQuery } from '../lib/store/testing';
import { AGENTS } from './bench-query-data';
// @ts-expect-error a plain .mjs module without types
import { buildWebApp, needsBuild } from './web-build.mjs';

const EPOCH = 86_400;
const DAY_US = 86_400_000_000n;
const PAGE_READS = Number(process.env.BENCH_PAGE_READS ?? 20);
const PAGE_TTFB_MS = 500;
const PAGE_HTML_BYTES = 150 * 1024;
/**
 * A transaction signature's length in base58: the seeded batches and challenge transitions carry
 * one as the indexer stores them, so their Explorer links weigh on the page what real ones do.
 */
const SIG_CHARS = 88;
const sig = (tag: string) => `5${tag}`.padEnd(SIG_CHARS, 'K');
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const quantile = (xs: number[], p: number) => {
  const v = [...xs].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.floor(p * v.length))];
};

/** The page's lists: how a row is found in the HTML, and its first page's size. */
const LISTS = [
  { name: 'batches', table: 'agent-batches', cap: AGENT_PAGE_ROWS.batches },
  { name: 'challenges', table: 'agent-challenges', cap: AGENT_PAGE_ROWS.challenges },
  { name: 'pending challenges', table: 'challenge-rows', cap: AGENT_PAGE_ROWS.pending },
  { name: 'counterparties', table: 'counterparties', cap: AGENT_PAGE_ROWS.counterparties },
  { name: 'conversations', table: 'conversation-list', cap: AGENT_PAGE_ROWS.conversations },
  { name: 'envelopes', table: 'envelope-feed', cap: AGENT_PAGE_ROWS.envelopes },
] as const;

export interface PageParts {
  bytes: number;
  /** The inline `self.__next_f.push` scripts: the RSC payload React hydrates from. */
  rsc: number;
  lists: { name: string; rows: number; cap: number }[];
  /** The lists with fewer rows than a full first page. */
  short: string[];
}

/** What an agent page's HTML is made of (pure: the bench's report, and its test). */
export function pageParts(html: string): PageParts {
  const bytes = Buffer.byteLength(html);
  let rsc = 0;
  for (const m of html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g))
    if (m[1].includes('self.__next_f')) rsc += Buffer.byteLength(m[0]);
  const rowsIn = (testid: string) => {
    const i = html.indexOf(`data-testid="${testid}"`);
    if (i < 0) return 0;
    const body = html.indexOf('<tbody', i);
    const end = html.indexOf('</table>', i);
    return body < 0 || body > end ? 0 : (html.slice(body, end).match(/<tr[ >]/g) ?? []).length;
  };
  const lists = LISTS.map((l) => ({ name: l.name, rows: rowsIn(l.table), cap: l.cap }));
  return {
    bytes,
    rsc,
    lists,
    short: lists.filter((l) => l.rows < l.cap).map((l) => `${l.name} ${l.rows} of ${l.cap}`),
  };
}

/**
 * A chain history for `agent` over the loaded epochs, as the indexer would have stored it: a batch
 * per epoch, each with its transaction signature and an uploaded log of its envelopes that epoch
 * (less about one in ten, so the reconciliation figures are not all zero), each verdict reached
 * through the store's verdict path (setBatchStatus: reconciliation and the authoritative fold from
 * the stored log), every 17th a mismatch and the newest two without a verdict; then
 * {@link seedChainState}.
 */
export async function seedAgentChain(
  store: Store,
  agent: Uint8Array,
  endUs: bigint,
  days: number,
): Promise<{ batches: number; logEntries: number; events: number; verdict: { p50: number; p99: number } }> {
  const last = endUs / DAY_US - 1n;
  const epochs = Array.from({ length: days }, (_, i) => last - BigInt(days - 1 - i));
  const one = new Uint8Array([1]);
  await rawQuery(store)(
    `INSERT INTO batch (agent_id, epoch, batch_hash, root, slot, signature, status, updated_at)
    SELECT $1, e, decode('00', 'hex'), decode('01', 'hex'), e * 1000, rpad('5Batch' || e, ${SIG_CHARS}, 'K'),
      'unverified', now()
    FROM unnest($2::int8[]) AS e ON CONFLICT (agent_id, epoch) DO UPDATE SET signature = excluded.signature`,
    [agent, epochs.map(String)],
  );
  await rawQuery(store)(
    `INSERT INTO epoch_log_entry (agent_id, epoch, position, envelope_id)
    SELECT $1, p.e, (row_number() OVER (PARTITION BY p.e ORDER BY x.timestamp, x.id) - 1)::int, x.id
    FROM unnest($2::int8[]) AS p(e)
    CROSS JOIN LATERAL (SELECT v.id, v.timestamp FROM envelope v WHERE v.epoch = p.e::int4 AND (v.sender = $1 OR
      v.recipient = $1)) x
    WHERE get_byte(x.id, 0) % 10 <> 0 ON CONFLICT DO NOTHING`,
    [agent, epochs.map(String)],
  );
  await rawQuery(store)('ANALYZE epoch_log_entry');
  const ms: number[] = [];
  for (const [i, e] of epochs.entries()) {
    if (i >= epochs.length - 2) continue;
    const t = performance.now();
    await store.setBatchStatus(agent, e, i % 17 === 16 ? 'mismatch' : 'verified', one);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  await seedChainState(store, agent, epochs);
  const [{ n }] = await rawQuery(store)<{ n: string }>(
    'SELECT count(*)::text AS n FROM epoch_log_entry WHERE agent_id = $1',
    [agent],
  );
  const [{ ev }] = await rawQuery(store)<{ ev: string }>('SELECT count(*)::text AS ev FROM chain_event');
  return {
    batches: epochs.length,
    logEntries: Number(n),
    events: Number(ev),
    verdict: { p50: ms[Math.floor(ms.length / 2)], p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))] },
  };
}

/**
 * Challenges of every third batch, every other one still pending (so the page's pending list is
 * full, AGENT_PAGE_ROWS.pending, at 120 epochs), each transition with a signature; stake and
 * lease; and a LeasePaid event per epoch for every agent (plus a StakeLocked each), so the agent's
 * economy read picks its own events out of every agent's.
 */
async function seedChainState(store: Store, agent: Uint8Array, epochs: bigint[]): Promise<void> {
  const last = epochs[epochs.length - 1];
  for (const [k, e] of epochs.filter((_, i) => i % 3 === 0).entries()) {
    const address = base58(Buffer.from(new Uint8Array(32).fill(k + 1)).toString('hex'));
    const challenger = new Uint8Array(32).fill(200 + (k % 50));
    await store.upsertChallenge({
      address,
      agentId: agent,
      epoch: e,
      challenger,
      status: 'pending',
      slot: e * 1000n + 1n,
      signature: sig(`Open${k}`),
    });
    if (k % 2 !== 0)
      await store.upsertChallenge({
        address,
        agentId: agent,
        epoch: e,
        challenger,
        status: k % 4 === 1 ? 'upheld' : 'rejected',
        slot: e * 1000n + 500n,
        signature: sig(`Resolve${k}`),
      });
  }
  await store.upsertStake({ agentId: agent, amount: 10_000_000n, status: 'locked', slot: last * 1000n });
  await store.upsertLease({
    agentId: agent,
    paidThroughEpoch: last + 3n,
    lastPaidEpoch: last,
    missedEpochs: 0,
    active: true,
    slot: last * 1000n,
  });
  const agents = Array.from({ length: AGENTS }, (_, i) => {
    const b = new Uint8Array(32);
    b[0] = 0xa5;
    new DataView(b.buffer).setUint32(28, i + 1);
    return base58(toHex(b));
  });
  await rawQuery(store)(
    `INSERT INTO chain_event (signature, index, slot, program, name, data, block_time, agent)
    SELECT 'bench-lease-' || a.n || '-' || e, 0, e * 1000 + a.n, 'lease', 'LeasePaid',
      jsonb_build_object('agent', a.addr, 'epoch', e::text, 'paidThroughEpoch', (e + 3)::text, 'status', 0),
        to_timestamp(e * ${EPOCH} + 60), a.addr
    FROM unnest($1::text[]) WITH ORDINALITY AS a(addr, n) CROSS JOIN unnest($2::int8[]) AS e
    UNION ALL
    SELECT 'bench-stake-' || a.n, 0, $3::int8 * 1000 + a.n, 'stake_lock', 'StakeLocked', jsonb_build_object('agent',
      a.addr, 'amount', '10000000'), to_timestamp($3::int8 * ${EPOCH} + 30), a.addr
    FROM unnest($1::text[]) WITH ORDINALITY AS a(addr, n)
    ON CONFLICT DO NOTHING`,
    [agents, epochs.map(String), epochs[0].toString()],
  );
  await rawQuery(store)('ANALYZE chain_event');
}

/**
 * One GET with node:http, no compression asked: when the headers and the first body byte came, when it ended, its
 * bytes.
 */
export function timedGet(
  url: string,
): Promise<{ status: number; headersMs: number; firstByteMs: number; totalMs: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { headers: { accept: 'text/html' } }, (res) => {
      const headersMs = performance.now() - t0;
      let firstByteMs = -1;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - t0;
        chunks.push(c);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headersMs,
          firstByteMs,
          totalMs: performance.now() - t0,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(120_000, () => req.destroy(new Error('timed out after 120 s')));
    req.end();
  });
}

/** The page server (scripts/bench-query-page.ts) on this database; resolves with its base URL once it listens. */
export async function startPageServer(
  dbUrl: string,
): Promise<{ base: string; child: ChildProcess; log: () => string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './scripts/setup-node.mjs', 'scripts/bench-query-page.ts'],
    {
      env: {
        ...process.env,
        DATABASE_URL: dbUrl,
        EPOCH_SECONDS: String(EPOCH),
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  const base = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(
      () => reject(new Error(`the page server did not start in 180 s:\n${log.slice(-2000)}`)),
      180_000,
    );
    const on = (b: Buffer) => {
      log += b.toString();
      const m = /ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(t);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`the page server exited with ${code}:\n${log.slice(-2000)}`));
    });
  });
  child.removeAllListeners('exit');
  return { base, child, log: () => log };
}

/**
 * The agent page of the busiest agent as the production build serves it over this database:
 * first byte (headers, then the first body byte, judged on the latter) and whole HTML, p50 and p99
 * of PAGE_READS loads after 3 untimed ones (the first brings the agent's stored gossip fold up to
 * date, as any first visit does), against the targets; what the HTML is made of; and the next page
 * of its batches from the API.
 */
export async function agentPage(store: Store, dbUrl: string, endUs: bigint, rows: number, days: number): Promise<void> {
  const [busiest] = await rawQuery(store)<{ id: Uint8Array; sent: number }>(
    'SELECT id, sent FROM agent ORDER BY sent DESC, id LIMIT 1',
  );
  const agent = new Uint8Array(busiest.id);
  const hex = toHex(agent);
  let t = performance.now();
  const seeded = await seedAgentChain(store, agent, endUs, days);
  const [{ to, fb, convs }] = await rawQuery(store)<{ to: string; fb: string; convs: string }>(
    `SELECT (SELECT count(*) FROM envelope WHERE recipient = $1)::text AS to,
      (SELECT count(*) FROM feedback WHERE target_agent = $1)::text AS fb,
      (SELECT count(*) FROM conversation WHERE participants @> ARRAY[$1::bytea])::text AS convs`,
    [agent],
  );
  console.log(
    `agent page: the busiest agent ${base58(hex)} sent ${fmt(busiest.sent)} envelopes and received ` +
      `${fmt(Number(to))}, ${fmt(Number(fb))} FEEDBACK about it, ${fmt(Number(convs))} conversations; ` +
      `given ${seeded.batches} batches (${fmt(seeded.logEntries)} log entries; verdicts with reconciliation ` +
      `and fold p50 ${seeded.verdict.p50.toFixed(0)} ms, p99 ${seeded.verdict.p99.toFixed(0)} ms), ` +
      `${fmt(seeded.events)} chain events in all, in ${((performance.now() - t) / 1000).toFixed(0)} s`,
  );
  const reason = needsBuild();
  if (reason) {
    t = performance.now();
    console.log(`agent page: building the web app (${reason})`);
    if (!buildWebApp({ ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' }))
      throw new Error('next build failed');
    console.log(`agent page: built in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  const { base, child, log: serverLog } = await startPageServer(dbUrl);
  try {
    const url = `${base}/agents/${base58(hex)}`;
    for (let i = 0; i < 3; i++) {
      const r = await timedGet(url);
      if (r.status !== 200)
        throw new Error(`${url} answered ${r.status}; the server's log:\n${serverLog().slice(-3000)}`);
      if (i === 0)
        console.log(
          `agent page: first load (the gossip fold and its points brought up to date) ${r.totalMs.toFixed(0)} ms`,
        );
    }
    await measurePage(store, url, `${base}/api/agents/${hex}/batches`, agent, rows);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => {
      child.once('exit', r);
      setTimeout(r, 10_000).unref();
    });
  }
}

/** PAGE_READS timed loads of the page and of its next page of batches; the report and the verdicts. */
async function measurePage(store: Store, url: string, batchesApi: string, agent: Uint8Array, rows: number) {
  const loads: Awaited<ReturnType<typeof timedGet>>[] = [];
  for (let i = 0; i < PAGE_READS; i++) loads.push(await timedGet(url));
  const p = (xs: number[]) => `p50 ${quantile(xs, 0.5).toFixed(0)} ms p99 ${quantile(xs, 0.99).toFixed(0)} ms`;
  const fb1 = loads.map((l) => l.firstByteMs);
  const body = loads[loads.length - 1].body;
  const parts = pageParts(body.toString('utf8'));
  console.log(`agent page served at ${fmt(rows)} envelopes, ${PAGE_READS} loads one at a time, load ${load()}:`);
  console.log(
    `  headers ${p(loads.map((l) => l.headersMs))}; first body ` +
      `byte ${p(fb1)}; whole page ${p(loads.map((l) => l.totalMs))}`,
  );
  console.log(
    `  HTML ${fmt(parts.bytes)} bytes (${kb(parts.bytes)}; ${kb(gzipSync(body).length)} ` +
      `gzipped): markup ${kb(parts.bytes - parts.rsc)}, inline RSC payload ${kb(parts.rsc)}; ` +
      `rows: ${parts.lists.map((l) => `${l.rows}/${l.cap} ${l.name}`).join(', ')}` +
      `; the two charts are drawn on request, not in this HTML`,
  );
  const older = await rawQuery(store)<{ e: string }>(
    'SELECT epoch::text AS e FROM batch WHERE agent_id = $1 ORDER BY epoch DESC OFFSET 9 LIMIT 1',
    [agent],
  );
  const api: number[] = [];
  for (let i = 0; i < PAGE_READS; i++) {
    const r = await timedGet(`${batchesApi}?before=${older[0]?.e ?? '0'}&limit=10`);
    if (r.status !== 200) throw new Error(`older batches answered ${r.status}: ${r.body.toString('utf8', 0, 300)}`);
    api.push(r.totalMs);
  }
  console.log(`  its older batches (GET /api/agents/{id}/batches?before=, 10 a page): ${p(api)}`);
  console.log(
    `${quantile(fb1, 0.99) <= PAGE_TTFB_MS ? 'PASS' : 'FAIL'} agent page first byte p99 ` +
      `≤ ${PAGE_TTFB_MS} ms at ${fmt(rows)} envelopes (${quantile(fb1, 0.99).toFixed(0)} ms)`,
  );
  // A list short of its first page makes the size a floor: a busier agent's page has those rows too.
  console.log(
    `${parts.bytes <= PAGE_HTML_BYTES ? 'PASS' : 'FAIL'} agent page HTML ≤ 150 KB at ${fmt(rows)} envelopes (` +
      `${kb(parts.bytes)}` +
      (parts.short.length
        ? `; a floor only, lists short of a full page: ${parts.short.join(', ')}`
        : ', every list a full first page') +
      `)`,
  );
}

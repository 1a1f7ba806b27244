/**
 * `npm run bench:ingest` (issue 3): publisher processes gossip signed envelopes into one
 * observer on loopback; on Postgres and on PGlite it prints the sustained validated-and-
 * committed rate, p50/p99 publish → committed row (the bus event fires right after COMMIT) and
 * publish → WebSocket client (through the app's /api/stream hub), and the one-core rate of the
 * full envelope check (decode + keccak + verify) measured in this run, with the ratio.
 * Targets on Postgres: ingest >= 0.6 × check rate; p99 publish → WebSocket <= 100 ms at 2,000/s.
 *
 * Env: BENCH_PUBLISHERS (3), BENCH_TOTAL (30000), BENCH_RATE (2000), BENCH_SECONDS (5),
 * TEST_DATABASE_URL / BENCH_DATABASE_URL (Postgres server; default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { buildEnvelope } from '../lib/protocol/envelope';
import { validateEnvelopeSync } from '../lib/protocol/validate';
import { publicKeyFromSeed, sha256, ed25519Backend } from '../lib/protocol/crypto';
import { MsgType } from '../lib/protocol/types';
import { toHex } from '../lib/protocol/hex';
import { loadConfig } from '../lib/observer/config';
import { startObservatory } from '../lib/observer/observatory';
import { quietLogger } from '../lib/observer/testing';
import { openObserverStore } from '../lib/observer/store-adapter';
import { createTestDatabase } from '../lib/store/testing';
import { createStreamHub } from '../app/_server/stream';

const P = Number(process.env.BENCH_PUBLISHERS ?? 3);
const TOTAL = Number(process.env.BENCH_TOTAL ?? 30_000);
const RATE = Number(process.env.BENCH_RATE ?? 2_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PG = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PUBLISHER = fileURLToPath(new URL('./bench-ingest-publisher.ts', import.meta.url));
const SETUP = fileURLToPath(new URL('./setup-node.mjs', import.meta.url));
const nowMs = () => performance.timeOrigin + performance.now();
const key = (i: number, l: string) => sha256(new TextEncoder().encode(`bench/${i}/${l}`));

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');

/** One core: decode + keccak + verify (archive-mode validation) over pre-built envelopes. */
function checkRate(): number {
  const keys = Array.from({ length: 32 }, (_, i) => ({ seed: key(i, 'cseed'), id: key(i, 'cid') }));
  const reg = new Map(keys.map((k) => [toHex(k.id), [publicKeyFromSeed(k.seed)]]));
  const registry = { keysFor: (id: Uint8Array) => reg.get(toHex(id)) ?? [] };
  const payload = new Uint8Array(300).fill(0x5a);
  const envs = Array.from({ length: 4_000 }, (_, i) => buildEnvelope({ msgType: MsgType.BEACON, sender: keys[i % 32].id, timestamp: 1n, nonce: BigInt(i), conversationId: new Uint8Array(16), payload }, keys[i % 32].seed).bytes);
  for (const e of envs.slice(0, 500)) validateEnvelopeSync(e, { mode: 'archive', registry });
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 2_000) {
    for (const e of envs) if (validateEnvelopeSync(e, { mode: 'archive', registry }).ok) n++;
  }
  return n / ((performance.now() - t0) / 1000);
}

interface Result { kind: string; rate: number; commitP50: number; commitP99: number; wsP50: number; wsP99: number; loadCommitP99: number; loadWsP99: number; paced: number; wsLost: number }

async function runOn(kind: 'postgres' | 'pglite'): Promise<Result | string> {
  let cleanup: () => Promise<void>;
  const base = { ...loadConfig({}), listen: ['/ip4/127.0.0.1/tcp/0'], demoAgents: 0 };
  let config = base;
  if (kind === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'zx-bench-'));
    config = { ...base, dataDir: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    try {
      const db = await createTestDatabase(PG, 'zx_bench');
      config = { ...base, databaseUrl: db.url };
      cleanup = () => db.drop();
    } catch (e) {
      return `Postgres at ${PG} unavailable (${(e as Error).message}): skipped`;
    }
  }
  const store = await openObserverStore(config);
  const ing = { batches: 0, items: 0, ms: 0 };
  const real = store.ingestEnvelopes;
  store.ingestEnvelopes = async (items) => {
    const t = performance.now();
    try {
      return await real(items);
    } finally {
      ing.batches++;
      ing.items += items.length;
      ing.ms += performance.now() - t;
    }
  };
  const obs = await startObservatory({ config, store, logger: quietLogger, global: false, limits: { messagesPerSecond: 1e9, burst: 1e9 } });
  const hub = createStreamHub(obs.bus, { highWaterBytes: 64 * 1024 * 1024 });
  const http = createServer((_, res) => res.end());
  http.on('upgrade', (req, sock, head) => hub.handleUpgrade(req, sock, head));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as { port: number }).port;

  let phase: 'idle' | 'load' | 'paced' = 'idle';
  const lat = { load: { commit: [] as number[], ws: [] as number[] }, paced: { commit: [] as number[], ws: [] as number[] } };
  let committed = 0;
  let lastCommit = 0;
  let firstCommit = 0;
  obs.bus.subscribe((e) => {
    if (e.type !== 'message') return;
    const t = nowMs();
    committed++;
    lastCommit = t;
    if (firstCommit === 0) firstCommit = t;
    if (phase !== 'idle') lat[phase].commit.push(t - Number(e.data.timestamp) / 1000);
  });
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/stream`);
  await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
  ws.on('message', (raw) => {
    const t = nowMs();
    const e = JSON.parse(String(raw));
    if (e.type === 'message' && phase !== 'idle') lat[phase].ws.push(t - Number(e.data.timestamp) / 1000);
  });

  const pubs: ChildProcess[] = [];
  const ready: Promise<unknown>[] = [];
  for (let i = 0; i < P; i++) {
    const seed = key(i, 'seed');
    const id = key(i, 'id');
    await obs.registry.register(id, publicKeyFromSeed(seed));
    const c = fork(PUBLISHER, [], { execArgv: ['--import', 'tsx', '--import', SETUP], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    pubs.push(c);
    ready.push(new Promise((r) => c.once('message', r)));
    c.send({ t: 'config', seedHex: toHex(seed), idHex: toHex(id), bootstrap: [obs.mesh.multiaddrs()[0]], topicIndex: i });
  }
  await Promise.all(ready);
  let sentTotal = 0;
  const runAll = async (count: number, ratePerSec: number) => {
    const r = await Promise.all(pubs.map((c) => new Promise<{ sent: number }>((res) => { c.once('message', res as never); c.send({ t: 'run', count, ratePerSec }); })));
    for (const x of r) sentTotal += x.sent;
    return r;
  };
  const waitCommitted = async (target: number) => {
    const end = Date.now() + 120_000;
    while (committed < target && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
      if (Date.now() - lastCommit > 10_000 && lastCommit > 0) break;
    }
  };

  // Throughput: every publisher as fast as gossipsub's backpressure lets it.
  phase = 'load';
  const eld = monitorEventLoopDelay({ resolution: 5 });
  eld.enable();
  const per = Math.ceil(TOTAL / P);
  const ing0 = { ...ing };
  const c0 = committed;
  let rate = NaN;
  if (per > 0) {
    firstCommit = 0;
    await runAll(per, 0);
    await waitCommitted(c0 + per * P);
    // From the first commit of the phase: the publishers pre-sign before they start sending.
    rate = (committed - c0) / ((lastCommit - firstCommit) / 1000);
  }
  // Latency at RATE envelopes/s overall.
  phase = 'idle';
  await new Promise((r) => setTimeout(r, 1_000));
  phase = 'paced';
  const c1 = committed;
  const n = Math.ceil((RATE * SECONDS) / P);
  await runAll(n, RATE / P);
  await waitCommitted(c1 + n * P);
  await new Promise((r) => setTimeout(r, 500));
  phase = 'idle';
  const res: Result = {
    kind, rate, commitP50: pct(lat.paced.commit, 50), commitP99: pct(lat.paced.commit, 99), wsP50: pct(lat.paced.ws, 50), wsP99: pct(lat.paced.ws, 99),
    loadCommitP99: pct(lat.load.commit, 99), loadWsP99: pct(lat.load.ws, 99), paced: lat.paced.commit.length, wsLost: lat.paced.commit.length - lat.paced.ws.length,
  };
  eld.disable();
  console.log(`  ${kind}: event-loop delay p50 ${(eld.percentile(50) / 1e6).toFixed(1)} ms p99 ${(eld.percentile(99) / 1e6).toFixed(1)} ms max ${(eld.max / 1e6).toFixed(1)} ms`);
  const b = ing.batches - ing0.batches;
  console.log(`  ${kind}: ${b} ingest batches, mean ${((ing.items - ing0.items) / b).toFixed(0)} envelopes, mean ${((ing.ms - ing0.ms) / b).toFixed(1)} ms per batch`);
  console.log(`  ${kind}: mesh ${JSON.stringify(obs.mesh.stats())}, bus messages ${committed}, sent ${sentTotal}`);
  const drops = obs.dropCounts();
  if (Object.keys(drops).length) console.log(`  ${kind}: drops ${JSON.stringify(drops)}`);
  for (const c of pubs) c.send({ t: 'stop' });
  ws.close();
  await hub.close?.();
  http.close();
  await obs.stop();
  await store.close();
  await cleanup();
  return res;
}

console.log(`bench:ingest: ${P} publisher processes, ${TOTAL} envelopes for throughput, then ${RATE}/s for ${SECONDS} s; Ed25519 backend ${ed25519Backend().name}`);
const check = checkRate();
console.log(`one-core full check (decode + keccak + verify): ${check.toFixed(0)} envelopes/s`);
for (const kind of (process.env.BENCH_ONLY ? [process.env.BENCH_ONLY] : ['postgres', 'pglite']) as Array<'postgres' | 'pglite'>) {
  const r = await runOn(kind);
  if (typeof r === 'string') {
    console.log(`${kind}: ${r}`);
    continue;
  }
  const ratio = r.rate / check;
  console.log(`${kind}: sustained validated+committed ${r.rate.toFixed(0)} envelopes/s = ${ratio.toFixed(2)} x one-core check rate${kind === 'postgres' ? ` (target >= 0.60: ${ratio >= 0.6 ? 'met' : 'NOT met'})` : ''}`);
  console.log(`  at ${RATE}/s (${r.paced} envelopes): publish->committed p50 ${f1(r.commitP50)} ms p99 ${f1(r.commitP99)} ms; publish->WebSocket p50 ${f1(r.wsP50)} ms p99 ${f1(r.wsP99)} ms${kind === 'postgres' ? ` (target p99 <= 100 ms: ${r.wsP99 <= 100 ? 'met' : 'NOT met'})` : ''}${r.wsLost ? `; ${r.wsLost} not delivered to the WebSocket` : ''}`);
  console.log(`  under full load: publish->committed p99 ${f1(r.loadCommitP99)} ms; publish->WebSocket p99 ${f1(r.loadWsP99)} ms`);
}
process.exit(0);

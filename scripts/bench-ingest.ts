/**
 * `npm run bench:ingest`: publisher processes gossip pre-signed envelopes into one
 * observer on loopback; on Postgres and on PGlite it prints the sustained validated-and-committed
 * rate, p50/p99 publish → committed row (the bus event fires right after COMMIT) and publish →
 * WebSocket client (a separate process on the app's /api/stream hub), and the one-core rate of
 * the full envelope check (decode + keccak + verify) measured in the same run, with the ratios
 * and PASS/FAIL lines; the observer's capacity (envelopes per CPU-second of its process, every
 * thread) beside that check rate; and the naive design (./bench-ingest-naive.ts) on the same
 * Postgres. Targets on Postgres: ingest >= 0.6 × check rate (goal 1.0); capacity >= 0.75 × check
 * rate; p99 publish → WebSocket <= 100 ms at 2,000 envelopes/s.
 *
 * Diagnostics per phase: event-loop delay, CPU of the observer / publishers / WebSocket client /
 * whole machine (/proc/stat), ingest batch sizes and times, and for the paced phase the latency
 * split publish → validated → batch start → committed.
 *
 * Env: BENCH_PUBLISHERS (3), BENCH_WARMUP (6000, not measured), BENCH_TOTAL (60000), BENCH_RATE (2000), BENCH_SECONDS
 * (5),
 * BENCH_RUNS (1: with more, medians are printed), BENCH_ONLY (postgres|pglite), BENCH_NAIVE_TOTAL (6000;
 * envelopes for the naive design of ./bench-ingest-naive.ts, measured after Postgres and PGlite in each run; 0 skips
 * it), BENCH_PROFILE (directory: CPU profile of the observer per phase, and of one publisher; with BENCH_HEAP=1 also a
 * sampling heap profile of what each phase left live, BENCH_HEAP=alloc of everything it allocated), VERIFY_WORKERS (the
 * observer's signature worker threads; default cores − 1, at least 1), BENCH_DATABASE_URL / TEST_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), BENCH_METRICS (ab: on Postgres also run the observer without metrics
 * and mesh health, after the run with them in odd runs and before it in even ones, and print what they cost per
 * envelope; off: only without), BENCH_ALERTS (ab: on Postgres also run the observer with the alert evaluator watching
 * 1,000 agents with 5 rules each, the publishers among them, in the same alternating order, and print the observer's
 * CPU per envelope at BENCH_RATE with and without it against the 5 % target).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ALERTS_CONFIG, startAlerts } from '../lib/alerts';
import { ruleParams } from '../lib/alerts/kinds';
import { startObservatory } from '../lib/observer/observatory';
import { openObserverStore } from '../lib/observer/store-adapter';
import { quietLogger } from '../lib/observer/testing';
import { defaultVerifyWorkers } from '../lib/observer/verify-pool';
import { ed25519Backend, ed25519Sign, ed25519Verify, publicKeyFromSeed, sha256 } from '../lib/protocol/crypto';
import { buildEnvelope } from '../lib/protocol/envelope';
import { toHex } from '../lib/protocol/hex';
import { MsgType } from '../lib/protocol/types';
import { validateEnvelopeSync } from '../lib/protocol/validate';
import { createTestDatabase, rawQuery } from '../lib/store/testing';
import { loadConfig } from '../server/config';
import { createStreamHub } from '../server/stream';
import { type NaiveResult, runNaive } from './bench-ingest-naive';

const P = Number(process.env.BENCH_PUBLISHERS ?? 3);
const TOTAL = Number(process.env.BENCH_TOTAL ?? 60_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 6_000);
const RATE = Number(process.env.BENCH_RATE ?? 2_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const PROFILE = process.env.BENCH_PROFILE;
const PG =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const child = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const SETUP = child('./setup-node.mjs');
const nowMs = () => performance.timeOrigin + performance.now();
const key = (i: number, l: string) => sha256(new TextEncoder().encode(`bench/${i}/${l}`));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const median = (xs: number[]) => pct(xs, 50);
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const la = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** Busy and total jiffies of the whole machine. */
function machineCpu(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3] - (f[4] ?? 0), total };
}

/**
 * CPU jiffies (1/100 s) of each of this process's threads by thread id (Linux /proc; empty
 * elsewhere). The event loop's id is the process id; the busiest other one is the signature
 * worker (VERIFY_WORKERS=1), the rest are V8's GC/compiler helpers and libuv's pool.
 */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const t of readdirSync('/proc/self/task')) {
      try {
        const f = readFileSync(`/proc/self/task/${t}/stat`, 'utf8').split(') ')[1]!.split(' ');
        out.set(t, Number(f[11]) + Number(f[12]));
      } catch {
        /* the thread ended */
      }
    }
  } catch {
    /* no /proc: not Linux */
  }
  return out;
}

/**
 * One core: decode + keccak + verify (archive-mode validation) over pre-built envelopes, per
 * wall-clock second and per CPU-second of this thread (the second is the one to set the
 * observer's CPU-second capacity against when other work shares the machine).
 */
function checkRates(): { wall: number; cpu: number; verifyCpu: number } {
  const keys = Array.from({ length: 32 }, (_, i) => ({ seed: key(i, 'cseed'), id: key(i, 'cid') }));
  const reg = new Map(keys.map((k) => [toHex(k.id), [publicKeyFromSeed(k.seed)]]));
  const registry = { keysFor: (id: Uint8Array) => reg.get(toHex(id)) ?? [] };
  const payload = new Uint8Array(300).fill(0x5a);
  const envs = Array.from(
    { length: 4_000 },
    (_, i) =>
      buildEnvelope(
        {
          msgType: MsgType.BEACON,
          sender: keys[i % 32].id,
          timestamp: 1n,
          nonce: BigInt(i),
          conversationId: new Uint8Array(16),
          payload,
        },
        keys[i % 32].seed,
      ).bytes,
  );
  for (const e of envs.slice(0, 500)) validateEnvelopeSync(e, { mode: 'archive', registry });
  let n = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  while (performance.now() - t0 < 2_000) {
    for (const e of envs) if (validateEnvelopeSync(e, { mode: 'archive', registry }).ok) n++;
  }
  const c = process.cpuUsage(c0);
  // The signature alone (the part of the check no observer can skip), same core, same keys.
  const signed = Array.from({ length: 256 }, (_, i) => {
    const msg = envs[i].subarray(0, 350);
    return { msg, sig: ed25519Sign(msg, keys[i % 32].seed), key: publicKeyFromSeed(keys[i % 32].seed) };
  });
  let v = 0;
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  while (performance.now() - t1 < 1_000) for (const x of signed) if (ed25519Verify(x.sig, x.msg, x.key)) v++;
  const cv = process.cpuUsage(c1);
  return {
    wall: n / ((performance.now() - t0) / 1000),
    cpu: n / ((c.user + c.system) / 1e6),
    verifyCpu: v / ((cv.user + cv.system) / 1e6),
  };
}

interface Result {
  kind: string;
  rate: number;
  capacity: number;
  commitP50: number;
  commitP99: number;
  wsP50: number;
  wsP99: number;
  paced: number;
  wsLost: number;
  /** Observer CPU per envelope in the paced phase, µs. */ pacedUs: number;
  /**
   * The evaluator's own costs, measured apart (with BENCH_ALERTS=ab): per envelope on the bus, per drop hook, per tick
   * (µs).
   */
  parts?: { perEventUs: number; hookUs: number; perTickUs: number; tickMs: number };
}
type Msg = Record<string, any>;
const ask = (c: ChildProcess, m: Msg, want: string) =>
  new Promise<Msg>((res) => {
    const on = (x: Msg) => {
      if (x.t === want) {
        c.off('message', on);
        res(x);
      }
    };
    c.on('message', on);
    c.send(m);
  });

/**
 * The alert evaluator's own CPU, measured apart on the run's store (the observer idle): a
 * second evaluator over the same watch set gets 200,000 `message` events of watched senders on a
 * bus of its own (the per-envelope path: one map lookup and set), against the same bus with no
 * listener; the drop hook's extra promise step per envelope; and 20 ticks (its timer's work,
 * every query and the reconciliation), CPU of this process per tick.
 */
async function evaluatorParts(
  store: Awaited<ReturnType<typeof openObserverStore>>,
  epochSeconds: number,
): Promise<NonNullable<Result['parts']>> {
  const { createLiveBus } = await import('../lib/observer/bus');
  const { startEvaluator } = await import('../lib/alerts/evaluator');
  const N = 200_000;
  const senders = Array.from({ length: P }, (_, i) => toHex(key(i, 'id')));
  const events = senders.map(
    (sender) => ({ type: 'message', at: 0, data: { sender } }) as unknown as import('../lib/wire/events').LiveEvent,
  );
  const timeBus = (bus: ReturnType<typeof createLiveBus>) => {
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) bus.publish(events[i % events.length]);
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / N;
  };
  const bare = createLiveBus();
  bare.subscribe(() => undefined); // the bus's other listeners exist either way
  const bus = createLiveBus();
  bus.subscribe(() => undefined);
  const ev = startEvaluator({
    store: store.alerts,
    subscribe: bus.subscribe,
    epochSeconds,
    tickMs: 3_600_000,
    ruleAlertsPerHour: 20,
    deliveriesPerHour: 60,
  });
  await ev.refresh();
  let withUs = 0,
    withoutUs = 0;
  for (let r = 0; r < 3; r++) {
    withoutUs += timeBus(bare);
    withUs += timeBus(bus);
  }
  // The drop hook: a validation answer passed through one more promise step.
  const out = { ok: true };
  const note = (x: object) => x;
  const h0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await Promise.resolve(out).then(note);
  const h1 = process.cpuUsage(h0);
  const p0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await Promise.resolve(out);
  const p1 = process.cpuUsage(p0);
  const hookUs = Math.max(0, (h1.user + h1.system - p1.user - p1.system) / N);
  await ev.tick();
  const t0 = process.cpuUsage();
  for (let i = 0; i < 20; i++) await ev.tick();
  const t1 = process.cpuUsage(t0);
  await ev.stop();
  return {
    perEventUs: Math.max(0, (withUs - withoutUs) / 3),
    hookUs,
    perTickUs: (t1.user + t1.system) / 20,
    tickMs: DEFAULT_ALERTS_CONFIG.tickMs,
  };
}

async function runOn(kind: 'postgres' | 'pglite', metrics = true, alerts = false): Promise<Result | string> {
  let cleanup: () => Promise<void>;
  const base = {
    ...loadConfig({ VERIFY_WORKERS: process.env.VERIFY_WORKERS, DEMO_AGENTS: '0' }),
    listen: ['/ip4/127.0.0.1/tcp/0'],
  };
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
  let phase: 'idle' | 'warmup' | 'load' | 'paced' = 'idle';
  let pacedFrom = Infinity; // envelopes with a timestamp from here on belong to the paced phase
  const store = await openObserverStore(config);
  const ing = { batches: 0, items: 0, ms: 0 };
  const split = { net: [] as number[], queue: [] as number[], db: [] as number[] };
  const real = store.ingestEnvelopes;
  store.ingestEnvelopes = async (items) => {
    const t = nowMs();
    const r = await real(items);
    const t1 = nowMs();
    ing.batches++;
    ing.items += items.length;
    ing.ms += t1 - t;
    if (phase === 'paced') {
      for (const it of items) {
        const pub = Number(it.envelope.timestamp) / 1000;
        if (pub < pacedFrom) continue;
        const recv = it.receivedAt.getTime();
        split.net.push(recv - pub);
        split.queue.push(t - recv);
        split.db.push(t1 - t);
      }
    }
    return r;
  };
  const obs = await startObservatory({
    config,
    store,
    logger: quietLogger,
    limits: { messagesPerSecond: 1e9, burst: 1e9 },
    metrics,
  });
  // The alert evaluator as the server runs it: 1,000 watched agents (the publishers among them)
  // with 5 rules, its last-seen lookup per envelope, its timer's set-based reads every 5 s.
  const alerting = alerts
    ? await startAlerts({
        store,
        subscribe: (fn) => obs.bus.subscribe(fn),
        epochSeconds: config.epochSeconds,
        config: {
          ...DEFAULT_ALERTS_CONFIG,
          caps: { ...DEFAULT_ALERTS_CONFIG.caps, agents: 1_000 },
          publicUrl: 'http://localhost',
        },
      })
    : null;
  if (alerting) {
    const kinds = ['offline', 'lease_grace', 'deactivated', 'batch_missing', 'drops_rate'] as const;
    await store.alerts.createWatchlist(
      randomBytes(16).toString('base64url'),
      randomBytes(32),
      kinds.map((kind) => ({ kind, enabled: true, params: ruleParams(kind, {}) })),
    );
    const [wl] = (await store.alerts.watchState()).lists;
    const agents = [
      ...Array.from({ length: P }, (_, i) => key(i, 'id')),
      ...Array.from({ length: 1_000 - P }, () => new Uint8Array(randomBytes(32))),
    ];
    await store.alerts.addAgents(wl.id, agents, 1_000);
    // Chain rows for every watched agent, so each tick reads and judges 1,000 leases and 3,000 batches.
    const cur = BigInt(Math.floor(Date.now() / 1000 / config.epochSeconds));
    await store.upsertLeasesKeepPaid(
      agents.map((a) => ({
        agentId: a,
        paidThroughEpoch: cur + 10n,
        lastPaidEpoch: cur,
        missedEpochs: 0,
        active: true,
        slot: 1n,
      })),
    );
    await rawQuery(store)(
      `INSERT INTO batch (agent_id, epoch, batch_hash, root, slot, updated_at) SELECT ` +
        `a, e, a, a, 1, now() FROM unnest($1::bytea[]) AS a, unnest($2::int8[]) AS e`,
      [agents, [cur - 3n, cur - 2n, cur - 1n].map(String)],
    );
    alerting.evaluator.invalidate();
    await alerting.evaluator.refresh();
    obs.onDroppedSender((sender) => alerting.evaluator.dropped(sender));
    console.log(
      `  ${kind}: alert evaluator on, watching ${alerting.evaluator.watchedCount()} agents with ${kinds.length} rules`,
    );
  }
  const hub = createStreamHub(obs.bus, { highWaterBytes: 64 * 1024 * 1024 });
  const http = createServer((_, res) => res.end());
  http.on('upgrade', (req, sock, head) => hub.handleUpgrade(req, sock, head));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as { port: number }).port;

  const commitLat: number[] = [];
  let committed = 0;
  let lastCommit = 0;
  let firstCommit = 0;
  obs.bus.subscribe((e) => {
    if (e.type !== 'message') return;
    const t = nowMs();
    committed++;
    lastCommit = t;
    if (firstCommit === 0) firstCommit = t;
    const pub = Number(e.data.timestamp) / 1000;
    if (phase === 'paced' && pub >= pacedFrom) commitLat.push(t - pub);
  });
  const wsc = fork(child('./bench-ingest-client.ts'), [], {
    execArgv: ['--import', 'tsx', '--import', SETUP],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const wsReady = await ask(wsc, { t: 'connect', url: `ws://127.0.0.1:${port}/api/stream` }, 'ready');
  if (wsReady.t !== 'ready') throw new Error(`WebSocket client: ${wsReady.message}`);

  const pubs: ChildProcess[] = [];
  const ready: Promise<unknown>[] = [];
  for (let i = 0; i < P; i++) {
    const seed = key(i, 'seed');
    const id = key(i, 'id');
    await obs.registry.register(id, publicKeyFromSeed(seed));
    const prof = PROFILE && i === 0 ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [];
    const c = fork(child('./bench-ingest-publisher.ts'), [], {
      execArgv: ['--import', 'tsx', '--import', SETUP, ...prof],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    pubs.push(c);
    ready.push(
      ask(
        c,
        { t: 'config', seedHex: toHex(seed), idHex: toHex(id), bootstrap: [obs.mesh.multiaddrs()[0]], topicIndex: i },
        'ready',
      ),
    );
  }
  await Promise.all(ready);
  let sentTotal = 0;
  let sendStart = 0;
  const waitCommitted = async (target: number) => {
    const end = Date.now() + 120_000;
    while (committed < target && Date.now() < end) {
      await sleep(20);
      if (Date.now() - lastCommit > 10_000 && lastCommit > 0) break;
    }
  };
  const session = PROFILE ? new Session() : undefined;
  if (session) {
    session.connect();
    mkdirSync(PROFILE!, { recursive: true });
    await session.post('Profiler.enable');
  }

  /** Runs one phase; prints its diagnostics. */
  const measure = async (name: 'warmup' | 'load' | 'paced', count: number, ratePerSec: number) => {
    const eld = monitorEventLoopDelay({ resolution: 2 });
    const ing0 = { ...ing };
    const m0 = machineCpu();
    const o0 = process.cpuUsage();
    const th0 = threadCpu();
    const t0 = nowMs();
    if (session) await session.post('Profiler.start');
    // BENCH_HEAP=alloc: every allocation of the phase, collected or not (where the garbage comes from).
    const allocs = process.env.BENCH_HEAP === 'alloc';
    if (session && process.env.BENCH_HEAP)
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        ...(allocs ? { includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } : {}),
      } as object);
    eld.enable();
    phase = name;
    const c0 = committed;
    firstCommit = 0;
    const r = await Promise.all(pubs.map((c) => ask(c, { t: 'run', count, ratePerSec }, 'done')));
    for (const x of r) sentTotal += x.sent;
    sendStart = Math.min(...r.map((x) => x.start as number));
    await waitCommitted(c0 + count * P);
    eld.disable();
    const wall = (nowMs() - t0) / 1000;
    const o = process.cpuUsage(o0);
    const m1 = machineCpu();
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(join(PROFILE!, `${kind}-${name}.cpuprofile`), JSON.stringify(profile));
      if (process.env.BENCH_HEAP) {
        const { profile: heap } = await session.post('HeapProfiler.getSamplingProfile');
        await session.post('HeapProfiler.stopSampling');
        writeFileSync(join(PROFILE!, `${kind}-${name}.heapprofile`), JSON.stringify(heap));
      }
    }
    const th1 = threadCpu();
    const got = committed - c0;
    const perThread = [...th1]
      .map(([k, v]) => [k, v - (th0.get(k) ?? 0)] as const)
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1]);
    for (const x of r)
      if (x.noPeer)
        console.log(`  ${kind} ${name}: a publisher sent ${x.unsent} envelopes to no peer; its view: ${x.noPeer}`);
    for (const x of r)
      for (const why of x.streamClosed ?? [])
        console.log(`  ${kind} ${name}: a publisher's gossip stream to the observer closed: ${why}`);
    const pubCpu = r.reduce((a, x) => a + x.cpu.user + x.cpu.system, 0) / 1e6;
    const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
    const b = ing.batches - ing0.batches;
    console.log(
      `  ${kind} ${name}: ${wall.toFixed(1)} s; event-loop delay p50 ${(eld.percentile(50) / 1e6).toFixed(1)}` +
        ` p99 ${(eld.percentile(99) / 1e6).toFixed(1)} max ${(eld.max / 1e6).toFixed(1)} ms; ` +
        `CPU observer ${(((o.user + o.system) / 1e6 / wall) * 100).toFixed(0)}` +
        `% publishers ${((pubCpu / wall) * 100).toFixed(0)}% machine ` +
        `${(((m1.busy - m0.busy) / (m1.total - m0.total)) * 200).toFixed(0)}% of 200%; ` +
        `heap ${heapMb.toFixed(0)} MB; ` +
        `${
          r.some((x) => x.unsent)
            ? `publishes that reached no peer ${r.reduce((a, x) => a + (x.unsent ?? 0), 0)}; `
            : ''
        }${b}` +
        ` batches, mean ${((ing.items - ing0.items) / b).toFixed(0)} envelopes, ` +
        `${((ing.ms - ing0.ms) / b).toFixed(1)} ms` +
        (r.some((x) => x.late) ? `; publishers late ${r.reduce((a, x) => a + x.late, 0)}` : ''),
    );
    if (perThread.length > 0 && got > 0) {
      const us = (j: number) => ((j * 10_000) / got).toFixed(0);
      const main = perThread.find(([t]) => t === String(process.pid))?.[1] ?? 0;
      const rest = perThread.filter(([t]) => t !== String(process.pid));
      console.log(
        `  ${kind} ${name}: observer CPU per envelope by thread (µs): event loop ${us(main)}; others ${rest
          .slice(0, 4)
          .map(([, v]) => us(v))
          .join(', ')}${
          rest.length > 4 ? ` (+${us(rest.slice(4).reduce((x, [, v]) => x + v, 0))} in ${rest.length - 4} more)` : ''
        }`,
      );
    }
    return { got, cpuSeconds: (o.user + o.system) / 1e6 };
  };

  // Warm-up (not counted): the observer's code is optimised by V8 and the database's caches
  // are filled before anything is measured, as in a long-running observatory.
  const warm = Math.ceil(WARMUP / P);
  if (warm > 0) {
    await measure('warmup', warm, 0);
    phase = 'idle';
    await sleep(500);
  }
  // Throughput: every publisher as fast as gossipsub's backpressure lets it (pre-signed).
  const per = Math.ceil(TOTAL / P);
  let rate = NaN;
  let capacity = NaN;
  if (per > 0) {
    const { got, cpuSeconds } = await measure('load', per, 0);
    // Capacity: what the observer process (event loop, signature workers, Postgres client, WebSocket
    // hub; process.cpuUsage counts every thread) spends per envelope, whatever else the machine runs.
    capacity = got / cpuSeconds;
    // From the first publish (after pre-signing) to the last commit. The earlier first-commit-
    // based figure is printed too: it rewards a stall before the first commit.
    rate = got / ((lastCommit - sendStart) / 1000);
    console.log(
      `  ${kind} load: ${got} envelopes, first publish -> last commit ${f1(lastCommit - sendStart)}` +
        ` ms (${rate.toFixed(0)}/s); first -> last commit ${f1(lastCommit - firstCommit)}` +
        ` ms (${(got / ((lastCommit - firstCommit) / 1000)).toFixed(0)}/s)`,
    );
  }
  phase = 'idle';
  await sleep(1_000);
  await ask(wsc, { t: 'report' }, 'report'); // discard the load phase's WebSocket samples
  // Latency at RATE envelopes/s overall.
  pacedFrom = nowMs();
  const n = Math.ceil((RATE * SECONDS) / P);
  const pacedCpu = await measure('paced', n, RATE / P);
  await sleep(500);
  phase = 'idle';
  const rep = await ask(wsc, { t: 'report' }, 'report');
  const wsLat: number[] = [];
  for (let i = 0; i < rep.ts.length; i++) if (rep.ts[i] >= pacedFrom) wsLat.push(rep.at[i] - rep.ts[i]);
  const parts = alerting ? await evaluatorParts(store, config.epochSeconds) : undefined;
  const res: Result = {
    kind,
    rate,
    capacity,
    commitP50: pct(commitLat, 50),
    commitP99: pct(commitLat, 99),
    wsP50: pct(wsLat, 50),
    wsP99: pct(wsLat, 99),
    paced: commitLat.length,
    wsLost: commitLat.length - wsLat.length,
    pacedUs: (pacedCpu.cpuSeconds / pacedCpu.got) * 1e6,
    ...(parts ? { parts } : {}),
  };
  const sp = (xs: number[]) => `p50 ${f1(pct(xs, 50))} p99 ${f1(pct(xs, 99))}`;
  console.log(
    `  ${kind} paced split (ms): publish->validated ${sp(split.net)}; ` +
      `validated->batch start ${sp(split.queue)}; batch start->commit ${sp(split.db)}`,
  );
  console.log(`  ${kind}: mesh ${JSON.stringify(obs.mesh.stats())}, bus messages ${committed}, sent ${sentTotal}`);
  const drops = obs.dropCounts();
  if (Object.keys(drops).length) console.log(`  ${kind}: drops ${JSON.stringify(drops)}`);
  session?.disconnect();
  for (const c of pubs) c.send({ t: 'stop' });
  wsc.send({ t: 'stop' });
  await hub.close?.();
  http.close();
  await alerting?.stop();
  await obs.stop();
  await store.close();
  await cleanup();
  return res;
}

console.log(
  `bench:ingest: ${P} publisher processes, ${WARMUP} envelopes of warm-up, ${TOTAL} envelopes for throughput, ` +
    `then ${RATE}/s for ${SECONDS} s; ${RUNS} run(s); Ed25519 backend ${ed25519Backend().name}; V8 ` +
    `flags ${process.execArgv.filter((a) => a.startsWith('--') && !a.startsWith('--import')).join(' ') || 'none'}` +
    `; signature workers ${process.env.VERIFY_WORKERS ?? defaultVerifyWorkers()}; load average ${la()}`,
);
const kinds = (process.env.BENCH_ONLY ? [process.env.BENCH_ONLY] : ['postgres', 'pglite']) as Array<
  'postgres' | 'pglite'
>;
const METRICS = process.env.BENCH_METRICS ?? 'on';
if (!['on', 'off', 'ab'].includes(METRICS)) throw new Error('BENCH_METRICS must be on, off or ab');
/** Capacity with metrics and without, per run, when BENCH_METRICS=ab. */
const metricsAb: Array<{ on: Result; off: Result }> = [];
const ALERTS = process.env.BENCH_ALERTS ?? 'off';
if (!['off', 'ab'].includes(ALERTS)) throw new Error('BENCH_ALERTS must be off or ab');
/** Paced CPU per envelope with the alert evaluator and without, per run, when BENCH_ALERTS=ab. */
const alertsAb: Array<{ on: Result; off: Result }> = [];
const all = new Map<string, Array<Result & { check: number; checkCpu: number }>>();
const naive: Array<NaiveResult & { check: number }> = [];
/** Observer capacity target, × the one-core check's rate per CPU-second. */
const CAPACITY_TARGET = 0.75;
const NAIVE_TOTAL = Number(process.env.BENCH_NAIVE_TOTAL ?? 6_000);
for (let run = 1; run <= RUNS; run++) {
  const { wall: check, cpu: checkCpu, verifyCpu } = checkRates();
  console.log(
    `run ${run}: one-core full check (decode + keccak + verify): ${check.toFixed(0)} envelopes/s, ` +
      `${checkCpu.toFixed(0)} per CPU-second (${(1e6 / checkCpu).toFixed(0)} µs each); load average ${la()}`,
  );
  console.log(
    `  of which the Ed25519 verify alone: ${verifyCpu.toFixed(0)} per CPU-second (` +
      `${(1e6 / verifyCpu).toFixed(0)} µs); capacity ${CAPACITY_TARGET} x the check ` +
      `allows ${(1e6 / (CAPACITY_TARGET * checkCpu)).toFixed(0)} µs per envelope in all, ` +
      `${(1e6 / (CAPACITY_TARGET * checkCpu) - 1e6 / verifyCpu).toFixed(0)} µs of ` +
      `it besides the signature (libp2p's gossip receive alone: npm run bench:mesh)`,
  );
  for (const kind of kinds) {
    // With BENCH_METRICS=ab, even runs measure the observer without metrics first, so neither
    // side always has the warmer machine.
    const offFirst = METRICS === 'ab' && kind === 'postgres' && run % 2 === 0 ? await runOn(kind, false) : null;
    const alertsFirst =
      ALERTS === 'ab' && kind === 'postgres' && run % 2 === 0 ? await runOn(kind, METRICS !== 'off', true) : null;
    const r = await runOn(kind, METRICS !== 'off');
    if (typeof r === 'string') {
      console.log(`${kind}: ${r}`);
      continue;
    }
    all.set(kind, [...(all.get(kind) ?? []), { ...r, check, checkCpu }]);
    console.log(
      `${kind}: sustained validated+committed ${r.rate.toFixed(0)} ` +
        `envelopes/s = ${(r.rate / check).toFixed(2)} x one-core check rate`,
    );
    console.log(
      `  observer capacity ${r.capacity.toFixed(0)} envelopes per CPU-second (` +
        `${(1e6 / r.capacity).toFixed(0)} µs CPU each, every thread) = ` +
        `${(r.capacity / checkCpu).toFixed(2)} x the check's ${checkCpu.toFixed(0)} per CPU-second`,
    );
    console.log(
      `  at ${RATE}/s (${r.paced} envelopes): publish->committed p50 ${f1(r.commitP50)} ms p99 ` +
        `${f1(r.commitP99)} ms; publish->WebSocket p50 ${f1(r.wsP50)} ms p99 ${f1(r.wsP99)} ms` +
        `${r.wsLost ? `; ${r.wsLost} not delivered to the WebSocket` : ''}; load average ${la()}`,
    );
    if (METRICS === 'ab' && kind === 'postgres') {
      const off = offFirst ?? (await runOn(kind, false));
      if (typeof off === 'string') {
        console.log(`${kind} without metrics: ${off}`);
        continue;
      }
      metricsAb.push({ on: r, off });
      console.log(
        `${kind} without metrics and mesh health: observer capacity ${off.capacity.toFixed(0)} envelopes ` +
          `per CPU-second (${(1e6 / off.capacity).toFixed(0)} µs each); with them ${(1e6 / r.capacity).toFixed(0)}` +
          ` µs: ${(100 * (off.capacity / r.capacity - 1)).toFixed(1)} % more CPU per envelope`,
      );
    }
    if (ALERTS === 'ab' && kind === 'postgres') {
      // Alternating order again: odd runs measure with the evaluator after the plain run, even ones before it.
      const on = alertsFirst ?? (await runOn(kind, METRICS !== 'off', true));
      if (typeof on === 'string') {
        console.log(`${kind} with alerts: ${on}`);
        continue;
      }
      alertsAb.push({ on, off: r });
      console.log(
        `${kind} with the alert evaluator (1,000 agents x 5 rules): observer CPU ` +
          `per envelope at ${RATE}/s ${on.pacedUs.toFixed(1)} µs; without ` +
          `${r.pacedUs.toFixed(1)} µs (${alertsFirst ? 'with measured first' : 'without measured first'}` +
          `): ${(100 * (on.pacedUs / r.pacedUs - 1)).toFixed(1)} %; capacity ` +
          `${(1e6 / on.capacity).toFixed(0)} vs ${(1e6 / r.capacity).toFixed(0)} µs`,
      );
      if (on.parts) {
        const x = on.parts;
        const extra = x.perEventUs + x.hookUs + x.perTickUs / ((RATE * x.tickMs) / 1000);
        console.log(
          `  the evaluator measured apart: ${(1000 * x.perEventUs).toFixed(0)} ns per ` +
            `envelope on the bus, ${(1000 * x.hookUs).toFixed(0)} ns for the drop hook, ` +
            `${(x.perTickUs / 1000).toFixed(2)} ms CPU per tick (every ${x.tickMs / 1000}` +
            ` s, ${(x.perTickUs / ((RATE * x.tickMs) / 1000)).toFixed(3)} µs per ` +
            `envelope at ${RATE}/s): ${extra.toFixed(2)} µs per envelope = ` +
            `${((100 * extra) / r.pacedUs).toFixed(2)} % of the observer's ${r.pacedUs.toFixed(0)} µs`,
        );
      }
    }
  }
  if (NAIVE_TOTAL > 0 && kinds.includes('postgres')) {
    const n = await runNaive({
      pgUrl: PG,
      publishers: P,
      total: NAIVE_TOTAL,
      warmup: Math.min(WARMUP, 3_000),
      setup: SETUP,
    }).catch((e: Error) => `Postgres at ${PG} unavailable (${e.message}): skipped`);
    if (typeof n === 'string') console.log(`naive: ${n}`);
    else {
      naive.push({ ...n, check });
      console.log(
        `naive (StrictSign gossip, validation on the event loop, one INSERT per envelope) on postgres: ` +
          `${n.rate.toFixed(0)} envelopes/s over ${n.envelopes}; ${n.perCpuSecond.toFixed(0)} per ` +
          `CPU-second (${(1e6 / n.perCpuSecond).toFixed(0)} µs each); mesh ${n.stats}; load average ${la()}`,
      );
    }
  }
}
console.log(`\nsummary${RUNS > 1 ? ` (median of ${RUNS} runs)` : ''}; load average ${la()}`);
if (metricsAb.length) {
  const cost = median(metricsAb.map((x) => x.off.capacity / x.on.capacity - 1));
  console.log(
    `${cost <= 0.05 ? 'PASS' : 'FAIL'} metrics and mesh health cost the observer ${(100 * cost).toFixed(1)}` +
      ` % more CPU per envelope on postgres (capacity without ÷ with, same run) <= 5 %`,
  );
}
if (alertsAb.some((x) => x.on.parts)) {
  const shares = alertsAb
    .filter((x) => x.on.parts)
    .map((x) => {
      const p = x.on.parts!;
      return (p.perEventUs + p.hookUs + p.perTickUs / ((RATE * p.tickMs) / 1000)) / x.off.pacedUs;
    });
  const share = median(shares);
  console.log(
    `${share <= 0.05 ? 'PASS' : 'FAIL'} the alert evaluator's own CPU (1,000 watched agents x 5 rules, ` +
      `measured apart) is ${(100 * share).toFixed(2)} % of the observer's CPU per envelope at ${RATE}/s <= 5 %` +
      (shares.length > 1 ? ` (runs: ${shares.map((v) => (100 * v).toFixed(2)).join(' ')} %)` : ''),
  );
}
if (alertsAb.length) {
  const cost = median(alertsAb.map((x) => x.on.pacedUs / x.off.pacedUs - 1));
  console.log(
    `${cost <= 0.05 ? 'PASS' : 'FAIL'} A/B: with the alert evaluator the observer ` +
      `spent ${(100 * cost).toFixed(1)} % more CPU per envelope at ${RATE}/s on postgres ` +
      `(paced phase, with ÷ without; moves with batch sizes and machine load) <= 5 %` +
      (alertsAb.length > 1
        ? ` (runs: ${alertsAb.map((x) => (100 * (x.on.pacedUs / x.off.pacedUs - 1)).toFixed(1)).join(' ')} %)`
        : ''),
  );
}
for (const [kind, rs] of all) {
  const m = (f: (r: Result & { check: number; checkCpu: number }) => number) => median(rs.map(f));
  const check = m((r) => r.check);
  const ratio = m((r) => r.rate / r.check);
  console.log(
    `${kind}: ingest ${m((r) => r.rate).toFixed(0)} envelopes/s; ` +
      `one-core check ${check.toFixed(0)}/s; ratio ${ratio.toFixed(2)}; ` +
      `at ${RATE}/s publish->committed p50 ${f1(m((r) => r.commitP50))} p99 ${f1(m((r) => r.commitP99))}` +
      ` ms, publish->WebSocket p50 ${f1(m((r) => r.wsP50))} p99 ${f1(m((r) => r.wsP99))} ms` +
      (rs.length > 1
        ? ` (runs: ratio ${rs.map((r) => (r.rate / r.check).toFixed(2)).join(' ')}` +
          `; ws p99 ${rs.map((r) => f1(r.wsP99)).join(' ')})`
        : ''),
  );
  if (kind !== 'postgres') continue;
  const ws99 = m((r) => r.wsP99);
  console.log(
    `${ratio >= 0.6 ? 'PASS' : 'FAIL'} postgres ingest ratio ` +
      `${ratio.toFixed(2)} >= 0.60 (goal 1.00: ${ratio >= 1 ? 'met' : 'not met'})`,
  );
  console.log(`${ws99 <= 100 ? 'PASS' : 'FAIL'} postgres p99 publish->WebSocket ${f1(ws99)} ms <= 100 ms at ${RATE}/s`);
  const cap = m((r) => r.capacity / r.checkCpu);
  console.log(
    `${cap >= CAPACITY_TARGET ? 'PASS' : 'FAIL'} postgres observer capacity ` +
      `${m((r) => r.capacity).toFixed(0)} envelopes per CPU-second = ${cap.toFixed(2)} x the one-core ` +
      `check's ${m((r) => r.checkCpu).toFixed(0)} per CPU-second >= ${CAPACITY_TARGET}` +
      (rs.length > 1 ? ` (runs: ${rs.map((r) => (r.capacity / r.checkCpu).toFixed(2)).join(' ')})` : ''),
  );
  if (naive.length) {
    const nm = (f: (r: NaiveResult & { check: number }) => number) => median(naive.map(f));
    console.log(
      `naive design on postgres: ${nm((r) => r.rate).toFixed(0)} ` +
        `envelopes/s, ${nm((r) => r.perCpuSecond).toFixed(0)} per CPU-second; ` +
        `the observer is ${(m((r) => r.rate) / nm((r) => r.rate)).toFixed(1)}x faster (wall clock) and ${(
          m((r) => r.capacity) / nm((r) => r.perCpuSecond)
        ).toFixed(1)}x cheaper per envelope (CPU)`,
    );
  }
}
process.exit(0);

/**
 * `npm run bench:soak`: does the observatory hold steady over time? Runs `npm start`
 * (scripts/start.mjs, which builds the web app first if it is stale) on its defaults — demo
 * agents, embedded chain, PGlite — in a fresh data folder on a port of its own, for 60 minutes,
 * and prints one line a minute: elapsed time, resident memory of the server process and of the
 * whole process tree (start.mjs, the server, the demo agents), the server's V8 heap in use, the
 * data folder's size on disk and the envelopes stored. At the end: the least-squares slope of
 * the server's and the tree's RSS after the warm-up, in % per hour of the fitted value at the
 * end of the warm-up, PASS when both are under 5 %/h, and the disk growth per million envelopes.
 *
 * Flags (or env): --minutes N (SOAK_MINUTES, 60), --warmup N (SOAK_WARMUP_MINUTES, 10),
 * --sample S seconds between samples (SOAK_SAMPLE_SECONDS, 10; the regression uses every sample,
 * the printed lines one a minute), --keep keeps the data folder, --log FILE writes the server's
 * output there (otherwise only its tail is kept, printed if it dies). Everything else in the
 * environment passes through to the server (DEMO_AGENTS, EPOCH_SECONDS, DATABASE_URL …), except
 * PORT, HOST, DATA_DIR and CHAIN_PORT, which the soak sets so it never collides with a running
 * observatory.
 *
 * Heap and off-heap memory come from the server's own report (/api/health `memory`): the main
 * thread's V8 heap and external memory, and the heap of the embedded chain's worker thread
 * (process.memoryUsage() of the main thread does not count a worker's heap, only RSS does).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  createWriteStream,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  type WriteStream,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TARGET_SLOPE_PCT_PER_H = 5;

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0 && i + 1 < process.argv.length) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}
function num(name: string, envName: string, dflt: number, min: number): number {
  const raw = flag(name) ?? process.env[envName];
  if (raw === undefined) return dflt;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) {
    console.error(`bench:soak: --${name} / ${envName} must be a number ≥ ${min}, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
}

const MINUTES = num('minutes', 'SOAK_MINUTES', 60, 0.5);
const WARMUP = num('warmup', 'SOAK_WARMUP_MINUTES', 10, 0);
const SAMPLE_S = num('sample', 'SOAK_SAMPLE_SECONDS', 10, 1);
const KEEP = process.argv.includes('--keep');
const LOG_FILE = flag('log');
if (WARMUP >= MINUTES) {
  console.error(`bench:soak: the warm-up (${WARMUP} min) must be shorter than the run (${MINUTES} min)`);
  process.exit(2);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const la = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const mb = (bytes: number) => (bytes / 1048576).toFixed(1);

interface Proc {
  ppid: number;
  rssKb: number;
  cmd: string;
}

/** Every process on the machine: parent, resident set (kB), command line. */
function processTable(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const status = readFileSync(`/proc/${d}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0); // absent for zombies
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').replaceAll('\0', ' ');
      procs.set(Number(d), { ppid, rssKb, cmd });
    } catch {
      /* exited meanwhile */
    }
  }
  return procs;
}

/** `root` and its live descendants. */
function descendants(root: number, procs: Map<number, Proc>): number[] {
  const out: number[] = [];
  for (const pid of procs.keys()) {
    for (let q: number | undefined = pid; q !== undefined && q > 1; q = procs.get(q)?.ppid) {
      if (q === root) {
        out.push(pid);
        break;
      }
    }
  }
  return out;
}

/** Bytes the folder takes on disk (allocated blocks, as `du` counts them). */
function diskBytes(dir: string): number {
  let total = 0;
  const walk = (p: string) => {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return;
    } // removed meanwhile (temp files, WAL segments)
    total += st.blocks * 512;
    if (st.isDirectory()) {
      let names: string[] = [];
      try {
        names = readdirSync(p);
      } catch {
        return;
      }
      for (const n of names) walk(join(p, n));
    }
  };
  walk(dir);
  return total;
}

/** Least-squares slope and intercept of y over x. */
function fit(xs: number[], ys: number[]): { slope: number; intercept: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

interface Health {
  counts?: { envelopes?: number; drops?: number };
  memory?: { heapUsed?: number; external?: number; chainThread?: { heapUsed: number } };
}

interface Sample {
  tMin: number;
  serverRss: number;
  treeRss: number;
  heap?: number;
  external?: number;
  chainHeap?: number;
  disk: number;
  envelopes?: number;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM'); // start.mjs forwards it: the server stops the agents and the database
  const t = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, 20_000);
  await exited;
  clearTimeout(t);
  // Anything of the group still alive (an agent that missed the signal) goes too.
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    /* none left */
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zerox1-soak-data-'));
  const port = 20_000 + Math.floor(Math.random() * 40_000);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CHAIN_PORT: '0',
  };
  console.log(
    `bench:soak: ${MINUTES} min (warm-up ${WARMUP} min, a sample every ${SAMPLE_S}` +
      ` s), DEMO_AGENTS=${env.DEMO_AGENTS ?? 'default'}, ${env.DATABASE_URL ? 'Postgres' : 'PGlite'}` +
      `, port ${port}, data ${dataDir}; load average ${la()}`,
  );

  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const logFile: WriteStream | undefined = LOG_FILE ? createWriteStream(LOG_FILE) : undefined;
  let tail = '';
  let readyAt = 0;
  const onData = (b: Buffer) => {
    logFile?.write(b);
    tail = (tail + b.toString()).slice(-8000);
    if (!readyAt && /ready on http:\/\//.test(tail)) readyAt = performance.now();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const samples: Sample[] = [];
  let failure: string | undefined;
  try {
    const t0 = performance.now();
    while (!readyAt) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before ready\n${tail}`);
      if (interrupted) throw new Error('interrupted before ready');
      // A first start builds the web app (minutes on a busy machine).
      if (performance.now() - t0 > 20 * 60_000) throw new Error(`not ready within 20 min\n${tail}`);
      await sleep(200);
    }
    console.log(`ready after ${((readyAt - t0) / 1000).toFixed(1)} s; the clock starts now`);
    console.log(
      'elapsed  server RSS MB  tree RSS MB (procs)  server heap MB  external MB  chain heap MB  disk MB  envelopes',
    );
    let nextPrint = 0;
    for (let i = 0; ; i++) {
      const due = readyAt + i * SAMPLE_S * 1000;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      if (interrupted) {
        failure = 'interrupted';
        break;
      }
      if (child.exitCode !== null || child.signalCode !== null) {
        failure = `server exited (${child.exitCode ?? child.signalCode})`;
        console.log(tail);
        break;
      }
      const tMin = (performance.now() - readyAt) / 60_000;
      // Timers may fire a hair early: a sample within half an interval of a minute mark is that minute's.
      const slack = SAMPLE_S / 120;
      const health = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(10_000) })
        .then((r) => r.json() as Promise<Health>)
        .catch(() => null);
      const procs = processTable();
      const tree = descendants(child.pid!, procs);
      const server = tree.find((p) => procs.get(p)!.cmd.includes('server/main.ts'));
      const serverRss = (server ? procs.get(server)!.rssKb : 0) * 1024;
      const treeRss = tree.reduce((a, p) => a + procs.get(p)!.rssKb, 0) * 1024;
      const heap = health?.memory?.heapUsed;
      // external: memory V8 objects hold outside the heap (Buffers, and WebAssembly memories such as PGlite's and
      // litesvm's).
      const s: Sample = {
        tMin,
        serverRss,
        treeRss,
        heap,
        external: health?.memory?.external,
        chainHeap: health?.memory?.chainThread?.heapUsed,
        disk: diskBytes(dataDir),
        envelopes: health?.counts?.envelopes,
      };
      samples.push(s);
      if (tMin >= nextPrint - slack || tMin >= MINUTES - slack) {
        nextPrint = Math.floor(tMin + slack) + 1;
        console.log(
          [
            `${tMin.toFixed(1).padStart(5)} min`,
            mb(serverRss).padStart(13),
            `${mb(treeRss).padStart(11)} (${tree.length})`.padStart(20),
            (heap === undefined ? 'n/a' : mb(heap)).padStart(15),
            (s.external === undefined ? 'n/a' : mb(s.external)).padStart(12),
            (s.chainHeap === undefined ? 'n/a' : mb(s.chainHeap)).padStart(14),
            mb(s.disk).padStart(8),
            String(s.envelopes ?? (health ? '?' : 'no answer')).padStart(10),
            `  load ${la()}`,
          ].join(' '),
        );
      }
      if (tMin >= MINUTES - slack) break;
    }
  } finally {
    await stop(child);
    logFile?.end();
    if (!KEEP) rmSync(dataDir, { recursive: true, force: true });
    else console.log(`data kept in ${dataDir}`);
  }

  const after = samples.filter((s) => s.tMin >= WARMUP);
  if (after.length < 3) {
    console.log(`FAIL too few samples after the warm-up (${after.length})${failure ? `: ${failure}` : ''}`);
    process.exit(1);
  }
  const hours = after.map((s) => s.tMin / 60);
  const slopePct = (ys: number[]) => {
    const { slope, intercept } = fit(hours, ys);
    const base = intercept + slope * (WARMUP / 60);
    return base > 0 ? (slope / base) * 100 : Number.NaN;
  };
  const server = slopePct(after.map((s) => s.serverRss));
  const tree = slopePct(after.map((s) => s.treeRss));
  const heaps = after.filter((s) => s.heap !== undefined);
  const slopeOf = (pts: Sample[], y: (s: Sample) => number) => {
    const { slope, intercept } = fit(
      pts.map((s) => s.tMin / 60),
      pts.map(y),
    );
    return (slope / (intercept + slope * (WARMUP / 60))) * 100;
  };
  const heapSlope = heaps.length >= 3 ? slopeOf(heaps, (s) => s.heap!) : undefined;
  const exts = after.filter((s) => s.external !== undefined);
  const extSlope = exts.length >= 3 ? slopeOf(exts, (s) => s.external!) : undefined;
  const chains = after.filter((s) => s.chainHeap !== undefined);
  const chainSlope = chains.length >= 3 ? slopeOf(chains, (s) => s.chainHeap!) : undefined;
  const first = samples[0];
  const last = samples[samples.length - 1];
  const fmt = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)} %/h`;
  console.log(
    `after the ${WARMUP}-min warm-up (${after.length} samples, ${(last.tMin - after[0].tMin).toFixed(1)}` +
      ` min): RSS slope server ${fmt(server)}, process tree ${fmt(tree)}` +
      (heapSlope === undefined ? '' : `, server heap ${fmt(heapSlope)}`) +
      (extSlope === undefined ? '' : `, server external ${fmt(extSlope)}`) +
      `${chainSlope === undefined ? '' : `, chain thread heap ${fmt(chainSlope)}`}; load average ${la()}`,
  );
  const withEnv = after.filter((s) => s.envelopes !== undefined);
  if (withEnv.length >= 2 && withEnv[withEnv.length - 1].envelopes! > withEnv[0].envelopes!) {
    // Disk against envelopes: the slope over the samples after the warm-up, so start-up files
    // (the build of the chain, the first checkpoint) do not count.
    const { slope } = fit(
      withEnv.map((s) => s.envelopes!),
      withEnv.map((s) => s.disk),
    );
    const n = withEnv[withEnv.length - 1].envelopes! - withEnv[0].envelopes!;
    const rate = n / ((withEnv[withEnv.length - 1].tMin - withEnv[0].tMin) * 60);
    console.log(
      `disk: ${mb(first.disk)} MB at ready → ${mb(last.disk)} MB at the end; ${n} ` +
        `envelopes after the warm-up (${rate.toFixed(1)}/s); growth ${((slope * 1e6) / 1073741824).toFixed(2)}` +
        ` GB per million envelopes (${(slope / 1024).toFixed(2)} kB each)`,
    );
  } else {
    console.log(
      `disk: ${mb(first.disk)} MB at ready → ${mb(last.disk)} MB at the ` +
        `end; no envelopes counted after the warm-up, so no growth per envelope`,
    );
  }
  const pass = !failure && server < TARGET_SLOPE_PCT_PER_H && tree < TARGET_SLOPE_PCT_PER_H;
  console.log(
    `${pass ? 'PASS' : 'FAIL'} RSS slope after warm-up: server ${fmt(server)}, tree ` +
      `${fmt(tree)} (target < ${TARGET_SLOPE_PCT_PER_H} %/h)${failure ? `; ${failure}` : ''}`,
  );
  process.exit(pass ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

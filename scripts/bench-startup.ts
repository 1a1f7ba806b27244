/**
 * `npm run bench:startup`: how soon `npm start` shows a live page. Runs `scripts/start.mjs
 * --no-build` (the built app in .next) on a fresh data folder with the default demo (8 agents on
 * the embedded chain, PGlite), polls /api/health every 100 ms and prints the seconds from process
 * start to "ready" and from "ready" to the first validated envelope in the health counts, the
 * server's own start-up phases (health `startup`), and PASS/FAIL against the target (≤ 10 s from
 * ready to the first envelope).
 *
 * `--build` first runs `next build` (as `npm start` on a fresh clone does), timed, and adds the
 * fresh-clone line: build + start to the first envelope (target ≤ 60 s).
 *
 * Env: BENCH_RUNS (1; with more, medians are printed), DEMO_AGENTS (8), BENCH_DATABASE_URL (unset:
 * PGlite, as on a fresh clone).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const AGENTS = process.env.DEMO_AGENTS ?? '8';
const TARGET_READY_TO_FIRST_S = 10;
const TARGET_FRESH_S = 60;
const la = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Run {
  toReady: number;
  readyToFirst: number;
  toFirst: number;
  cpuToReady: number;
  cpuToFirst: number;
  phases: Array<{ phase: string; ms: number }>;
}

/**
 * CPU-seconds (user + system) of `root` and every live descendant, plus what exited children
 * that were waited for used (cutime/cstime). On a machine shared with other work the wall-clock
 * figures stretch with the load; this one does not, so it shows what a change saved.
 */
function treeCpuSeconds(root: number): number {
  const procs = new Map<number, { ppid: number; ticks: number }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Fields after the command: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
      procs.set(Number(d), {
        ppid: Number(f[1]),
        ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]),
      });
    } catch {
      /* exited meanwhile */
    }
  }
  let ticks = 0;
  for (const [pid, p] of procs) {
    for (let q: number | undefined = pid; q !== undefined && q > 1; q = procs.get(q)?.ppid) {
      if (q === root) {
        ticks += p.ticks;
        break;
      }
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** One start of the server on a fresh data folder; resolves once the first envelope is in health. */
async function runOnce(): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zerox1-bench-startup-'));
  const port = 20_000 + Math.floor(Math.random() * 40_000);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CHAIN_PORT: '0',
    DEMO_AGENTS: AGENTS,
    LOG_LEVEL: 'info',
  };
  if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
  else delete env.DATABASE_URL;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  let readyAt = 0;
  let cpuAtReady = 0;
  const onData = (b: Buffer) => {
    log += b.toString();
    if (!readyAt && /ready on http:\/\//.test(log)) {
      readyAt = performance.now();
      cpuAtReady = treeCpuSeconds(child.pid!);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let last: unknown = null;
  try {
    const deadline = t0 + 180_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}\n${log.slice(-3000)}`);
      if (performance.now() > deadline)
        throw new Error(`no envelope within 180 s; last health ${JSON.stringify(last)}\n${log.slice(-3000)}`);
      if (readyAt) {
        const h = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(30_000) })
          .then((r) => r.json() as Promise<{ counts?: { envelopes: number }; startup?: Run['phases'] }>)
          .catch(() => null);
        if (h) last = h;
        if (h?.counts && h.counts.envelopes > 0) {
          const at = performance.now();
          const cpu = treeCpuSeconds(child.pid!);
          return {
            toReady: (readyAt - t0) / 1000,
            readyToFirst: (at - readyAt) / 1000,
            toFirst: (at - t0) / 1000,
            cpuToReady: cpuAtReady,
            cpuToFirst: cpu,
            phases: h.startup ?? [],
          };
        }
      }
      await sleep(100);
    }
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function stop(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const t = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, 15_000);
  await exited;
  clearTimeout(t);
}

async function main(): Promise<void> {
  console.log(
    `bench:startup: ${AGENTS} demo agents, ` +
      `${process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite'}, embedded chain; load average ${la()}`,
  );
  let buildS: number | undefined;
  if (process.argv.includes('--build')) {
    const t = performance.now();
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/next/dist/bin/next'), 'build'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      stdio: 'ignore',
    });
    if (r.status !== 0) throw new Error('next build failed');
    buildS = (performance.now() - t) / 1000;
    console.log(`next build: ${buildS.toFixed(1)} s (load average ${la()})`);
  } else if (!existsSync(join(ROOT, '.next', 'BUILD_ID'))) {
    throw new Error('no build in .next: run `npm run build` first, or pass --build');
  }
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await runOnce();
    runs.push(r);
    console.log(
      `run ${i + 1}: process start → ready ${r.toReady.toFixed(1)} s; ready → ` +
        `first envelope in /api/health ${r.readyToFirst.toFixed(1)} s; process ` +
        `start → first envelope ${r.toFirst.toFixed(1)} s (load average ${la()})`,
    );
    console.log(
      `  CPU of the process tree (server, agents): ${r.cpuToReady.toFixed(1)} s to ready, ${(
        r.cpuToFirst - r.cpuToReady
      ).toFixed(1)} s from ready to the first envelope`,
    );
    console.log(
      `  server phases (s since its process start): ${r.phases
        .map((p) => `${p.phase} ${(p.ms / 1000).toFixed(1)}`)
        .join(', ')}`,
    );
  }
  const m = (f: (r: Run) => number) => median(runs.map(f));
  const readyToFirst = m((r) => r.readyToFirst);
  const toFirst = m((r) => r.toFirst);
  const label = RUNS > 1 ? `median of ${RUNS}` : 'one run';
  console.log(
    `${readyToFirst <= TARGET_READY_TO_FIRST_S ? 'PASS' : 'FAIL'} ready → first envelope ` +
      `${readyToFirst.toFixed(1)} s (${label}; target ≤ ${TARGET_READY_TO_FIRST_S} s)`,
  );
  console.log(
    `process start → first envelope ${toFirst.toFixed(1)} s (${label}); CPU ready → first envelope ${m(
      (r) => r.cpuToFirst - r.cpuToReady,
    ).toFixed(1)} s`,
  );
  if (buildS !== undefined) {
    const fresh = buildS + toFirst;
    console.log(
      `${fresh <= TARGET_FRESH_S ? 'PASS' : 'FAIL'} fresh clone: next build + ` +
        `start → first envelope ${fresh.toFixed(1)} s (target ≤ ${TARGET_FRESH_S} s)`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

/**
 * Shared harness for the end-to-end specs: `npm start`'s own launcher (scripts/start.mjs builds
 * the app when needed, then runs server.ts) on ephemeral ports in its own process group, so the
 * launcher, the server and the demo agents stop together; plus Debian Chromium's launch flags.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
/** Headless flags for Debian Chromium on a closed network (docs/architecture.md). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** A node:test skip reason when Chromium is absent, else false. */
export const chromiumSkip: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is absent (apt-get install -y chromium)`;

export interface RunningServer {
  /** http://127.0.0.1:PORT */
  base: string;
  /** A temp folder removed by stop(). */
  dataDir: string;
  /** The tail of the server's stdout and stderr. */
  log(): string;
  /** Polls `probe` every `everyMs` until it returns a truthy value; the error carries the log tail. */
  until<T>(
    what: string,
    ms: number,
    probe: () => Promise<T | undefined | false> | T | undefined | false,
    everyMs?: number,
  ): Promise<T>;
  getJson<T>(path: string): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
  /** Kills the whole process group with SIGKILL (a crash: nothing shuts down), then as stop(). */
  crash(): Promise<void>;
}

/**
 * Starts the observatory as `npm start` does, with PORT 0 on 127.0.0.1, an empty BOOTSTRAP and
 * DATABASE_URL, `env(dataDir)` on top; resolves once it prints its address.
 */
export async function startServer(env: (dataDir: string) => Record<string, string>): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zerox1-e2e-'));
  let log = '';
  const server: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // The browser, its prefetches and the test's own API polls all come from 127.0.0.1, one
    // client to the heavy-read gate, on a machine whose pages take seconds under the suite's load:
    // the gate's own tests hold it to its defaults (server/heavy-gate.test.ts); here it is wide.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      BOOTSTRAP: '',
      HEAVY_PER_CLIENT: '16',
      HEAVY_QUEUE: '64',
      HEAVY_BUDGET: 'off',
      ...env(dataDir),
    },
  });
  const collect = (b: Buffer) => {
    log += b.toString();
    if (log.length > 200_000) log = log.slice(-100_000);
  };
  server.stdout!.on('data', collect);
  server.stderr!.on('data', collect);

  const until: RunningServer['until'] = async (what, ms, probe, everyMs = 250) => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await probe();
      if (v) return v;
      if (Date.now() > end)
        throw new Error(`timed out after ${ms} ms waiting for ${what}\n--- server log tail ---\n${log.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (server.pid && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      try {
        process.kill(-server.pid, signal);
      } catch {
        /* already gone */
      }
      const t = setTimeout(() => {
        try {
          process.kill(-server.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 10_000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // A fresh checkout builds the app first (about a minute on 2 cores).
    const port = await until('the server to listen', 240_000, () => {
      if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}\n${log.slice(-4000)}`);
      return /ready on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
    });
    const base = `http://127.0.0.1:${port}`;
    const getJson = async <T>(path: string) => {
      const res = await fetch(base + path);
      return { status: res.status, body: (await res.json()) as T };
    };
    return { base, dataDir, log: () => log, until, getJson, stop: () => stop(), crash: () => stop('SIGKILL') };
  } catch (e) {
    await stop();
    throw e;
  }
}

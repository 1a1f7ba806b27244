/**
 * What the attacks of `npm run abuse` share: the target (loopback only), HTTP requests sent
 * from a chosen loopback source address (127.0.0.0/8 is all the machine's, so each "client"
 * of a check can be its own address), bounded waits, and the server's open file descriptors.
 */

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { isIPv4 } from 'node:net';

/** One target observatory, reachable on loopback. */
export interface Target {
  /** `http://127.0.0.1:3000` form (localhost is dialled as 127.0.0.1). */
  base: string;
  host: string;
  port: number;
  /** True when the host is IPv4 loopback, so other 127.x source addresses can reach it. */
  ipv4: boolean;
  epochSeconds: number;
  /** The server's pid, for its file descriptors; found from the listening port when not given. */
  pid?: number;
}

/**
 * Parses the URL the user gave and refuses anything whose host is not loopback: 127.0.0.0/8,
 * `localhost` or `::1`. Returns an error sentence instead of a target.
 */
export function parseTarget(
  raw: string | undefined,
): { host: string; port: number; ipv4: boolean } | { error: string } {
  if (!raw) return { error: 'usage: npm run abuse -- URL (a loopback observatory, e.g. http://127.0.0.1:3000)' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: `not a URL: ${raw}` };
  }
  if (url.protocol !== 'http:') return { error: `only http: targets on loopback are attacked, got ${url.protocol}` };
  const name = url.hostname.toLowerCase();
  const port = Number(url.port || 80);
  if (name === 'localhost') return { host: '127.0.0.1', port, ipv4: true };
  if (name === '[::1]') return { host: '::1', port, ipv4: false };
  if (isIPv4(name) && name.startsWith('127.')) return { host: name, port, ipv4: true };
  return { error: `refusing ${url.host}: only loopback targets (127.0.0.0/8, localhost, ::1) are attacked` };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A source address for the `n`th pretend client (127.0.0.n), or undefined on IPv6. */
export function source(t: Target, n: number): string | undefined {
  return t.ipv4 ? `127.0.0.${n}` : undefined;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  ms: number;
}

const agents = new Map<string, Agent>();
function agentFor(from: string | undefined): Agent {
  const key = from ?? '';
  let a = agents.get(key);
  if (!a) {
    a = new Agent({ keepAlive: true, maxSockets: 16, localAddress: from });
    agents.set(key, a);
  }
  return a;
}

/** Closes the keep-alive sockets of every source address used. */
export function closeAgents(): void {
  for (const a of agents.values()) a.destroy();
  agents.clear();
}

/**
 * One HTTP request with `path` sent exactly as given (no normalisation: `/x/../api/stats`
 * reaches the server as written), from source address `from`; rejects after `timeoutMs`.
 */
export function http(
  t: Target,
  method: string,
  path: string,
  opts: {
    from?: string;
    body?: Uint8Array | string;
    headers?: Record<string, string>;
    timeoutMs?: number;
    maxBody?: number;
  } = {},
): Promise<RawResponse> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const body =
      typeof opts.body === 'string' ? Buffer.from(opts.body) : opts.body ? Buffer.from(opts.body) : undefined;
    const req = request(
      {
        host: t.host,
        port: t.port,
        method,
        path,
        agent: agentFor(opts.from),
        headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...opts.headers },
        timeout: opts.timeoutMs ?? 30_000,
      },
      (res) => {
        const parts: Buffer[] = [];
        let size = 0;
        const max = opts.maxBody ?? 64 << 20;
        res.on('data', (b: Buffer) => {
          size += b.length;
          if (size <= max) parts.push(b);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts),
            ms: performance.now() - t0,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`${method} ${path}: no answer within ${opts.timeoutMs ?? 30_000} ms`)),
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** GET returning parsed JSON, or throwing with the status and the start of the body. */
export async function getJson<T>(t: Target, path: string, from?: string): Promise<T> {
  const r = await http(t, 'GET', path, { from, timeoutMs: 20_000 });
  if (r.status !== 200 && !(path === '/api/health' && r.status === 503))
    throw new Error(`GET ${path}: ${r.status} ${r.body.toString('utf8', 0, 200)}`);
  return JSON.parse(r.body.toString('utf8')) as T;
}

/** Polls `f` every `everyMs` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function poll<T>(
  f: () => Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 1_000,
): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() + everyMs > end) return undefined;
    await sleep(everyMs);
  }
}

/** The error sentence of a JSON problem body, or the start of the body. */
export function sentence(body: Buffer): string {
  try {
    const j = JSON.parse(body.toString('utf8')) as { error?: unknown };
    if (typeof j.error === 'string') return j.error;
    if (j.error && typeof j.error === 'object' && typeof (j.error as { message?: unknown }).message === 'string')
      return (j.error as { message: string }).message;
  } catch {
    /* not JSON */
  }
  return body.toString('utf8', 0, 120);
}

/** The pid of the process holding the listening TCP socket on `port` (same user only). */
export function pidListeningOn(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      const localPort = parseInt(f[1]!.split(':')[1]!, 16);
      if (localPort === port && f[3] === '0A') inodes.add(f[9]!); // 0A = LISTEN
    }
  }
  if (inodes.size === 0) return undefined;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${d}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${d}/fd/${fd}`));
        if (m && inodes.has(m[1]!)) return Number(d);
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return undefined;
}

/** Open file descriptors of `pid`, or undefined when they cannot be read. */
export function fdCount(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
}

/** p-th percentile (0..100) of `xs`. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** The outcome of one check: one line of the report. */
export interface CheckResult {
  ok: boolean;
  detail: string;
  /** The target cannot be checked this way (the detail says how to run it); counted neither way. */
  skip?: boolean;
}

export type Check = (t: Target) => Promise<CheckResult | CheckResult[]>;

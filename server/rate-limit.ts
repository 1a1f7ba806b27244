/**
 * Fair limits: one token bucket (the `limiter` package) per client IP and class of route, checked
 * on the custom server's HTTP handler before Next sees the request, so every route under /api is
 * covered, those added later included. Classes: `api` (the read API, search and /metrics), `export`
 * (/api/export/*: whole datasets, so a smaller budget; its progress poll counts as `api`),
 * `mcp` (/api/mcp). Uploads (/api/ingest/*) keep their own size caps and the live stream
 * (/api/stream) its per-client buffer caps (docs/app.md), so neither is counted here; pages are
 * not either.
 *
 * The class is taken from the path Next serves (./request-target.ts servedPath), never from the
 * raw target: `/x/../api/stats` and `/x/%2e%2e/api/stats` are `/api/stats` to Next, so they are
 * `api` here too.
 *
 * The client is the socket's remote address (./request-target.ts clientKey): behind a reverse proxy every request
 * shares the proxy's address, so limit there instead (this server trusts no forwarding header a client can set itself).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TokenBucket } from 'limiter';
import { clientKey, servedPath } from './request-target';

export type LimitClass = 'api' | 'export' | 'mcp';

/** Refill rate (requests per second) and bucket size (the burst a quiet client may spend at once). */
export interface BucketSpec {
  perSecond: number;
  burst: number;
}

/** Per class; absent = not limited. */
export type RateLimits = Partial<Record<LimitClass, BucketSpec>>;

export const DEFAULT_RATE_LIMITS: Required<RateLimits> = {
  api: { perSecond: 20, burst: 100 },
  export: { perSecond: 0.2, burst: 5 },
  mcp: { perSecond: 5, burst: 30 },
};

/**
 * The class a request path is limited under, or null for paths with their own caps (or none).
 * `pathname` is normalised first ({@link servedPath}), so any spelling of a path Next serves as
 * an API route is limited as that route.
 */
export function limitClassOf(target: string): LimitClass | null {
  const pathname = servedPath(target);
  // A Prometheus scrape is a read of the API's kind (every 15 s or so), not a page.
  if (pathname === '/metrics') return 'api';
  if (!pathname.startsWith('/api/')) return null;
  if (pathname === '/api/stream' || pathname.startsWith('/api/ingest/')) return null;
  if (pathname === '/api/mcp' || pathname.startsWith('/api/mcp/')) return 'mcp';
  // The progress poll is a small JSON read made while a download runs: under the export budget
  // it would use up the tokens of the downloads it reports on.
  if (pathname === '/api/export/progress') return 'api';
  if (pathname.startsWith('/api/export/') || pathname === '/api/export') return 'export';
  return 'api';
}

export interface RateLimiter {
  /** Takes a token for `client` in `cls`: 0 when allowed, else the seconds to wait (≥ 1). */
  take(cls: LimitClass, client: string): number;
  /**
   * The HTTP gate: answers 429 with Retry-After (and returns true) when the request's client is
   * over its budget; false when the request may go on.
   */
  reject(req: IncomingMessage, res: ServerResponse): boolean;
  /** Buckets held (for tests of the eviction). */
  size(): number;
  close(): void;
}

/** At most this many clients are tracked; past it, full (idle) buckets are dropped first. */
const MAX_CLIENTS = 50_000;

/** Token buckets per class and client (also used by the chain proxy's and the faucet's budgets). */
export interface KeyedBuckets<K extends string> {
  /**
   * Takes `count` tokens (default 1) for `client` in `cls`: 0 when allowed (or `cls` has no
   * spec), else the seconds to wait (≥ 1), or Infinity when `count` is over the bucket's size
   * (waiting never helps).
   */
  take(cls: K, client: string, count?: number): number;
  /** Puts `count` tokens back (a request refused further on must not cost its client). */
  refund(cls: K, client: string, count?: number): void;
  size(): number;
  close(): void;
}

export function createBuckets<K extends string>(
  limits: Partial<Record<K, BucketSpec>>,
  sweepMs = 60_000,
): KeyedBuckets<K> {
  const buckets = new Map<string, TokenBucket>();
  // A bucket that has refilled completely is the same as a new one: dropping it loses nothing.
  const sweep = () => {
    for (const [key, b] of buckets) {
      b.drip();
      if (b.content >= b.bucketSize) buckets.delete(key);
    }
  };
  const timer = setInterval(sweep, sweepMs);
  timer.unref();

  const bucketOf = (cls: K, client: string, spec: BucketSpec): TokenBucket => {
    const key = `${cls} ${client}`;
    let b = buckets.get(key);
    if (!b) {
      if (buckets.size >= MAX_CLIENTS) sweep();
      b = new TokenBucket({ bucketSize: spec.burst, tokensPerInterval: spec.perSecond, interval: 'second' });
      // The package's buckets start empty; a client's first requests get the whole burst.
      b.content = spec.burst;
      buckets.set(key, b);
    }
    return b;
  };

  return {
    take(cls, client, count = 1) {
      const spec = limits[cls];
      if (!spec || count <= 0) return 0;
      if (count > spec.burst) return Infinity;
      const b = bucketOf(cls, client, spec);
      if (b.tryRemoveTokens(count)) return 0;
      return Math.max(1, Math.ceil(b.getWaitTime(count) / 1000));
    },
    refund(cls, client, count = 1) {
      const spec = limits[cls];
      if (!spec || count <= 0) return;
      const b = bucketOf(cls, client, spec);
      b.content = Math.min(b.bucketSize, b.content + count);
    },
    size: () => buckets.size,
    close: () => clearInterval(timer),
  };
}

export function createRateLimiter(limits: RateLimits, sweepMs = 60_000): RateLimiter {
  const buckets = createBuckets<LimitClass>(limits, sweepMs);
  const take = (cls: LimitClass, client: string): number => buckets.take(cls, client);

  return {
    take,
    reject(req, res) {
      const cls = limitClassOf(req.url ?? '/');
      if (!cls) return false;
      const wait = take(cls, clientKey(req.socket.remoteAddress));
      if (wait === 0) return false;
      const body = JSON.stringify({
        error: `rate limit: too many ${cls} requests from this client; retry after ${wait} s`,
      });
      res.writeHead(429, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'retry-after': String(wait),
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
      return true;
    },
    size: () => buckets.size(),
    close: () => buckets.close(),
  };
}

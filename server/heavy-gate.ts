/**
 * Limits by cost, per client (docs/app.md "Fair limits"). A request budget counts requests, but
 * one replay page of 1,000 envelopes costs the database and the event loop what a hundred small
 * reads do, so a client with budget to spare could still hold the process. Heavy reads (replay
 * pages, envelope, conversation and agent lists, exports, collusion and reconciliation windows,
 * search, MCP calls, and the pages that render the same reads) therefore also:
 *
 * - **take a slot.** At most `perClient` run at once per client ({@link clientKey}); up to `queue`
 *   more wait in order, each at most `waitMs`; beyond that, or after waiting that long, `429` with
 *   `Retry-After` and a sentence saying why. A slot is given back when the answer is finished or
 *   the connection closes, whichever comes first, so a client that goes away mid-read frees it.
 * - **pay for their time.** Each client has a budget of heavy-read milliseconds (a token bucket:
 *   `budget.perSecond` ms earned per second up to `budget.burst`). A finished read is charged the
 *   time it held its slot (exports excepted: their time is the downloader's pace, and they have a
 *   request budget of their own); while the budget is spent (at or below zero) the client's heavy
 *   reads are refused with `429` until it has earned it back.
 *
 * `/api/health`, the live stream and every light read are never held here, so they stay fast for
 * everyone while one client is refused.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BucketSpec } from './rate-limit';
import { clientKey, servedPath } from './request-target';

export interface HeavyLimits {
  /** Heavy reads running at once per client. */
  perClient: number;
  /** Heavy reads waiting per client beyond those running. */
  queue: number;
  /** Longest a heavy read waits for a slot before it is refused. */
  waitMs: number;
  /** Milliseconds of heavy reads earned per second and banked at most; null = time not charged. */
  budget: BucketSpec | null;
}

export interface HeavyGateOptions {
  now?: () => number;
  runHeavy?: (go: () => void) => void;
}

export const DEFAULT_HEAVY_LIMITS: HeavyLimits = {
  perClient: 2,
  queue: 4,
  waitMs: 10_000,
  budget: { perSecond: 200, burst: 5_000 },
};

/** Pages whose server render runs a heavy read (the same loaders as their API routes). */
const HEAVY_PAGES = new Set(['/agents', '/collusion', '/conversations', '/envelopes', '/reconciliation', '/search']);
const HEAVY_API = new Set([
  '/api/replay',
  '/api/envelopes',
  '/api/conversations',
  '/api/agents',
  '/api/collusion',
  '/api/reconciliation',
  '/api/search',
  '/api/mcp',
]);

/** 'export' and 'read' are heavy (exports are not charged time); null = not held here. */
export function heavyClassOf(target: string | undefined): 'read' | 'export' | null {
  const p = servedPath(target);
  if (HEAVY_API.has(p) || HEAVY_PAGES.has(p) || p.startsWith('/api/reconciliation/')) return 'read';
  if (p.startsWith('/api/export/') && p !== '/api/export/progress') return 'export';
  return null;
}

export interface HeavyStats {
  /** Heavy reads running and waiting now, over every client. */
  running: number;
  waiting: number;
  /** Refused since start: no room in the queue, waited too long, budget spent. */
  refusedBusy: number;
  refusedWait: number;
  refusedBudget: number;
  perClient: number;
  queue: number;
}

export interface HeavyGate {
  /**
   * Runs `next` for `req` now, later (queued) or never (answered 429 here). Light requests run at
   * once.
   */
  run(req: IncomingMessage, res: ServerResponse, next: () => void): void;
  stats(): HeavyStats;
  /** The client's heavy-read budget now, in ms (tests). */
  budgetOf(client: string): number;
  close(): void;
}

interface Waiter {
  start: () => void;
  drop: () => void;
}
interface ClientState {
  running: number;
  waiting: Waiter[];
  tokens: number;
  at: number;
}

/** A 429 with `Retry-After` and a sentence saying why (nothing when the answer has begun). */
function refuse(res: ServerResponse, seconds: number, why: string): void {
  if (res.headersSent || res.destroyed) return void res.destroy();
  const body = JSON.stringify({ error: why });
  res.writeHead(429, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'retry-after': String(seconds),
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * `runHeavy` runs every admitted heavy read (the server puts their statements in the embedded
 * database's background lane, lib/store/engine/lanes.ts); `now` is the clock the budget is charged by.
 */
export function createHeavyGate(
  limits: HeavyLimits,
  { now = () => performance.now(), runHeavy = (go: () => void) => go() }: HeavyGateOptions = {},
): HeavyGate {
  const clients = new Map<string, ClientState>();
  let running = 0;
  let waiting = 0;
  let refusedBusy = 0;
  let refusedWait = 0;
  let refusedBudget = 0;
  const budget = limits.budget;

  // Tokens as of now: refilled since the last look, never above the burst.
  const refill = (c: ClientState) => {
    if (!budget) return;
    const t = now();
    c.tokens = Math.min(budget.burst, c.tokens + ((t - c.at) / 1000) * budget.perSecond);
    c.at = t;
  };
  const stateOf = (key: string): ClientState => {
    let c = clients.get(key);
    if (!c) {
      c = { running: 0, waiting: [], tokens: budget?.burst ?? 0, at: now() };
      clients.set(key, c);
    }
    return c;
  };
  // A client with nothing running, nothing waiting and a full budget is the same as a new one.
  const forget = (key: string, c: ClientState) => {
    refill(c);
    if (c.running === 0 && c.waiting.length === 0 && (!budget || c.tokens >= budget.burst)) clients.delete(key);
  };
  const sweep = setInterval(() => {
    for (const [k, c] of clients) forget(k, c);
  }, 60_000);
  sweep.unref();

  return {
    run(req, res, next) {
      const cls = heavyClassOf(req.url);
      if (!cls) return next();
      const key = clientKey(req.socket.remoteAddress);
      const c = stateOf(key);
      refill(c);
      if (budget && c.tokens <= 0) {
        refusedBudget++;
        const wait = Math.max(1, Math.ceil((1 - c.tokens) / budget.perSecond));
        return refuse(
          res,
          wait,
          `heavy-read budget spent: this client's heavy reads (replays, lists, searches, windows) took ` +
            `more server time than it earns (${budget.perSecond} ms per second); retry after ${wait} s`,
        );
      }
      const start = () => {
        c.running++;
        running++;
        const t0 = now();
        let done = false;
        const release = () => {
          if (done) return;
          done = true;
          c.running--;
          running--;
          if (budget && cls === 'read') {
            refill(c);
            c.tokens -= now() - t0;
          }
          const nextUp = c.waiting.shift();
          if (nextUp) nextUp.start();
          else forget(key, c);
        };
        // `finish`: the whole answer was handed to the socket; `close`: the client went away (or
        // the answer ended); either gives the slot back, once.
        res.once('finish', release);
        res.once('close', release);
        runHeavy(next);
      };
      if (c.running < limits.perClient) return start();
      if (c.waiting.length >= limits.queue) {
        refusedBusy++;
        return refuse(
          res,
          1,
          `too many heavy reads from this client: ${limits.perClient} ` +
            `are running and ${limits.queue} waiting; wait for one to finish`,
        );
      }
      waiting++;
      let timer: NodeJS.Timeout;
      const waiter: Waiter = {
        start: () => {
          clearTimeout(timer);
          waiting--;
          res.off('close', waiter.drop);
          start();
        },
        drop: () => {
          clearTimeout(timer);
          const i = c.waiting.indexOf(waiter);
          if (i >= 0) {
            c.waiting.splice(i, 1);
            waiting--;
          }
        },
      };
      timer = setTimeout(() => {
        waiter.drop();
        res.off('close', waiter.drop);
        refusedWait++;
        refuse(
          res,
          Math.max(1, Math.ceil(limits.waitMs / 1000)),
          `this client's heavy reads waited ${limits.waitMs / 1000} ` +
            `s for a slot (${limits.perClient} run at once); retry later`,
        );
      }, limits.waitMs);
      timer.unref();
      // A client that gives up while waiting leaves the queue at once.
      res.once('close', waiter.drop);
      c.waiting.push(waiter);
    },
    stats: () => ({
      running,
      waiting,
      refusedBusy,
      refusedWait,
      refusedBudget,
      perClient: limits.perClient,
      queue: limits.queue,
    }),
    budgetOf(client) {
      const c = clients.get(client);
      if (!c) return budget?.burst ?? 0;
      refill(c);
      return c.tokens;
    },
    close: () => clearInterval(sweep),
  };
}

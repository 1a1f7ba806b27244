/**
 * The budgets of the same-origin chain proxy (POST /api/chain/rpc) and of the faucet, held in the
 * server process and reached by the routes through the wallet services (docs/app.md "Fair
 * limits").
 *
 * The embedded chain runs on a thread of this process (lib/devchain/thread.ts): every call the
 * proxy forwards is work on the two cores that also answer pages and /api/health, and the proxy
 * itself holds a socket and a buffer per request. So the proxy's work is bounded three ways:
 * a batch holds at most `maxBatch` calls (checked in lib/chain/node/rpc-proxy.ts), each client has a
 * token budget of calls and a smaller one of expensive calls (scans and history), and at most
 * `concurrency` proxied requests run at once with `queue` more waiting; past that the answer is
 * 429 at once, never a wait that holds a socket.
 *
 * The faucet (and requestAirdrop through the proxy) has a budget per client and per receiving
 * wallet, in drops per hour.
 */
import { type BucketSpec, createBuckets } from './rate-limit';

export interface RpcLimits {
  /** RPC_MAX_BATCH: most calls in one request. */
  maxBatch: number;
  /** RATE_LIMIT_RPC: calls per client (each call of a batch is one token); null = not limited. */
  calls: BucketSpec | null;
  /** RATE_LIMIT_RPC_HEAVY: expensive calls per client (lib/chain/node/rpc-proxy.ts isHeavyCall). */
  heavy: BucketSpec | null;
  /** Proxied requests forwarded at once. */
  concurrency: number;
  /** Requests waiting for a turn; one more is refused with 429. */
  queue: number;
}

export const DEFAULT_RPC_LIMITS: RpcLimits = {
  maxBatch: 50,
  calls: { perSecond: 50, burst: 200 },
  heavy: { perSecond: 2, burst: 20 },
  concurrency: 2,
  queue: 16,
};

export interface FaucetLimits {
  /** FAUCET_PER_HOUR: drops per client address per hour. */
  perClientPerHour: number;
  /** FAUCET_WALLET_PER_HOUR: drops per receiving wallet per hour. */
  perWalletPerHour: number;
}

export const DEFAULT_FAUCET_LIMITS: FaucetLimits = { perClientPerHour: 10, perWalletPerHour: 3 };

/** Why a request was not let through: the HTTP status, a sentence, and when to retry. */
export interface Refusal {
  status: 413 | 429;
  message: string;
  /** Seconds (429 only). */
  retryAfter?: number;
}

export interface Admission {
  /** Frees the request's turn; call once the chain answered. */
  release(): void;
}

export interface RpcGateStats {
  inFlight: number;
  queued: number;
  /** Requests refused for a budget (since start). */
  overBudget: number;
  /** Requests refused because every turn and queue place was taken (since start). */
  busy: number;
}

export interface RpcGate {
  readonly limits: RpcLimits;
  /** Charges `cost` to `client` and waits for a turn: the turn, or why not. */
  admit(client: string, cost: { calls: number; heavy: number }): Promise<Admission | Refusal>;
  stats(): RpcGateStats;
  close(): void;
}

export const isRefusal = (a: Admission | Refusal): a is Refusal => 'status' in a;

/** A waiting request is refused after this long rather than hold its socket any longer. */
const QUEUE_WAIT_MS = 10_000;

export function createRpcGate(limits: RpcLimits = DEFAULT_RPC_LIMITS): RpcGate {
  const buckets = createBuckets<'calls' | 'heavy'>({
    ...(limits.calls && { calls: limits.calls }),
    ...(limits.heavy && { heavy: limits.heavy }),
  });
  const waiting: Array<() => void> = [];
  let inFlight = 0;
  let overBudget = 0;
  let busy = 0;

  const turn = (): Admission => {
    let done = false;
    return {
      release() {
        if (done) return;
        done = true;
        const next = waiting.shift();
        if (next) next();
        else inFlight--;
      },
    };
  };

  return {
    limits,
    async admit(client, cost) {
      const refund = (calls: boolean, heavy: boolean) => {
        if (calls) buckets.refund('calls', client, cost.calls);
        if (heavy) buckets.refund('heavy', client, cost.heavy);
      };
      const calls = buckets.take('calls', client, cost.calls);
      if (calls !== 0) {
        overBudget++;
        return calls === Infinity
          ? {
              status: 413,
              message:
                `a request of ${cost.calls} calls is over this client's ` +
                `budget of ${limits.calls?.burst} calls; split it`,
            }
          : {
              status: 429,
              retryAfter: calls,
              message:
                `rate limit: too many chain calls from this client (budget ` +
                `${limits.calls?.perSecond}/s, burst ${limits.calls?.burst}); retry after ${calls} s`,
            };
      }
      const heavy = buckets.take('heavy', client, cost.heavy);
      if (heavy !== 0) {
        refund(true, false);
        overBudget++;
        return heavy === Infinity
          ? {
              status: 413,
              message:
                `a request of ${cost.heavy} expensive calls (getProgramAccounts, history, blocks ` +
                `…) is over this client's budget of ${limits.heavy?.burst}; send fewer at a time`,
            }
          : {
              status: 429,
              retryAfter: heavy,
              message:
                `rate limit: too many expensive chain calls (getProgramAccounts, ` +
                `history, blocks …) from this client (budget ${limits.heavy?.perSecond}` +
                `/s, burst ${limits.heavy?.burst}); retry after ${heavy} s`,
            };
      }
      if (inFlight < limits.concurrency) {
        inFlight++;
        return turn();
      }
      if (waiting.length >= limits.queue) {
        refund(true, true);
        busy++;
        return {
          status: 429,
          retryAfter: 1,
          message:
            `the chain proxy is busy: ${inFlight} requests ` + `running and ${waiting.length} waiting; retry after 1 s`,
        };
      }
      return new Promise<Admission | Refusal>((resolve) => {
        const go = () => {
          clearTimeout(timer);
          resolve(turn());
        };
        const timer = setTimeout(() => {
          const i = waiting.indexOf(go);
          if (i >= 0) waiting.splice(i, 1);
          refund(true, true);
          busy++;
          resolve({
            status: 429,
            retryAfter: 1,
            message: 'the chain proxy is busy: this request waited 10 s for a turn; retry after 1 s',
          });
        }, QUEUE_WAIT_MS);
        timer.unref();
        waiting.push(go);
      });
    },
    stats: () => ({ inFlight, queued: waiting.length, overBudget, busy }),
    close: () => buckets.close(),
  };
}

export interface FaucetGate {
  readonly limits: FaucetLimits;
  /** Takes one drop for `client` sending to `wallet`: null when allowed, else why not. */
  take(client: string, wallet: string): Refusal | null;
  /** Gives the drop back (it failed before anything was sent). */
  refund(client: string, wallet: string): void;
  close(): void;
}

export function createFaucetGate(limits: FaucetLimits = DEFAULT_FAUCET_LIMITS): FaucetGate {
  const hourly = (n: number): BucketSpec => ({ perSecond: n / 3600, burst: n });
  const buckets = createBuckets<'client' | 'wallet'>({
    client: hourly(limits.perClientPerHour),
    wallet: hourly(limits.perWalletPerHour),
  });
  return {
    limits,
    take(client, wallet) {
      const c = buckets.take('client', client);
      if (c !== 0)
        return {
          status: 429,
          retryAfter: c,
          message:
            `the faucet gives at most ${limits.perClientPerHour}` + ` drops per hour to one client; retry after ${c} s`,
        };
      const w = buckets.take('wallet', wallet);
      if (w !== 0) {
        buckets.refund('client', client);
        return {
          status: 429,
          retryAfter: w,
          message:
            `the faucet gives at most ${limits.perWalletPerHour}` + ` drops per hour to one wallet; retry after ${w} s`,
        };
      }
      return null;
    },
    refund(client, wallet) {
      buckets.refund('client', client);
      buckets.refund('wallet', wallet);
    },
    close: () => buckets.close(),
  };
}

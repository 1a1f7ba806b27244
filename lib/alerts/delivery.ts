/**
 * The webhook sender: claims due outbox rows (lib/store alerts.ts `claimDeliveries`), posts each
 * once, and records the verdict on the same row. At least once: a row is pending in Postgres
 * until a 2xx answer, so a restart picks it up again; a row that was sent but whose verdict was
 * lost with the process is sent again with the same `X-Zerox1-Delivery` id, which receivers use
 * to drop the repeat. A delivered row is never claimed again.
 *
 * Failures retry with exponential backoff and ±25% jitter: base, 2×base, 4×base … (default
 * base 30 s: 8 attempts over about an hour), then the row is `failed` and the webhook reports
 * `failing` with the last error until a delivery succeeds.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { AlertsStore, ClaimedDelivery } from '../store';
import { guardedLookup, isBlockedAddress } from './url-guard';
import { webhookBody, webhookHeaders, type AlertMessage, type WebhookFormat } from './payloads';

export interface DeliveryOptions {
  store: AlertsStore;
  /** Builds the alert's page URL from its id and watchlist (the `url` of a message). */
  linkFor: (alertId: bigint) => string;
  allowPrivate: boolean;
  /** First retry delay, ms (default 30,000). */
  retryBaseMs?: number;
  /** Attempts before a row is failed (default 8). */
  maxAttempts?: number;
  /** Per-request timeout, ms (default 10,000). */
  timeoutMs?: number;
  /** Poll interval when idle, ms (default 1,000). */
  pollMs?: number;
  random?: () => number;
  log?: { warn(msg: string): void };
}

export interface DeliveryWorker {
  /** Looks for due rows now (the evaluator calls it after queuing). */
  kick(): void;
  /** Claims and sends what is due once; resolves when those sends are recorded. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/** Delay before retry number `attempt` (1 = after the first failure), with jitter. */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const raw = baseMs * 2 ** Math.max(0, attempt - 1);
  return Math.round(raw * (0.75 + random() * 0.5));
}

/** The message of one outbox row. */
export function messageOf(d: ClaimedDelivery, link: string): AlertMessage {
  const cleared = d.event === 'cleared';
  return {
    id: d.alertId.toString(), kind: d.kind, state: d.event === 'throttled' ? 'throttled' : cleared ? 'cleared' : 'open',
    agent: Buffer.from(d.agent).toString('hex'), agentName: d.agentName, subject: d.subject,
    why: d.event === 'throttled' ? `rule ${d.kind} opened more alerts in the last hour than it may deliver; further alerts of this rule are stored but not delivered until the hour's count falls. The last: ${d.why}` : cleared ? (d.clearedWhy ?? 'cleared') : d.why,
    at: (cleared ? d.clearedAt ?? d.openedAt : d.openedAt).toISOString(), url: link,
  };
}

/** Posts `body` to `url`; resolves with the status or rejects with a network error. */
export function post(url: string, body: string, headers: Record<string, string>, p: { allowPrivate: boolean; timeoutMs: number }): Promise<number> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!p.allowPrivate && isIP(host) && isBlockedAddress(host)) return Promise.reject(new Error(`${host} is not a public address; refused`));
  const req = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const r = req(u, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: guardedLookup(p.allowPrivate) as never, timeout: p.timeoutMs }, (res) => {
      // Redirects are not followed: a 3xx is a failure (a redirect could point inside the network).
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    r.on('timeout', () => r.destroy(new Error(`no answer within ${p.timeoutMs} ms`)));
    r.on('error', reject);
    r.end(body);
  });
}

export function startDeliveryWorker(o: DeliveryOptions): DeliveryWorker {
  const base = o.retryBaseMs ?? 30_000;
  const maxAttempts = o.maxAttempts ?? 8;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const random = o.random ?? Math.random;
  let stopped = false;
  let running: Promise<number> | null = null;
  let again = false;

  async function sendOne(d: ClaimedDelivery): Promise<void> {
    const sentAt = Math.floor(Date.now() / 1000);
    const body = webhookBody(d.format as WebhookFormat, messageOf(d, o.linkFor(d.alertId)), d.id, sentAt);
    let error: string | null = null;
    try {
      const status = await post(d.url, body, webhookHeaders(body, d.id, sentAt, d.secret), { allowPrivate: o.allowPrivate, timeoutMs });
      if (status < 200 || status >= 300) error = `HTTP ${status}`;
    } catch (e) {
      error = (e as Error).message || String(e);
    }
    if (error === null) return o.store.finishDelivery(d.id, d.webhookId, { ok: true });
    const nextAt = d.attempts >= maxAttempts ? null : new Date(Date.now() + backoffMs(d.attempts, base, random));
    await o.store.finishDelivery(d.id, d.webhookId, { ok: false, error: `attempt ${d.attempts} of ${maxAttempts}: ${error}`, nextAt });
  }

  async function run(): Promise<number> {
    let n = 0;
    for (;;) {
      const batch = await o.store.claimDeliveries(16, timeoutMs * 3);
      if (batch.length === 0) return n;
      n += batch.length;
      await Promise.all(batch.map((d) => sendOne(d).catch((e: unknown) => o.log?.warn(`alert delivery ${d.id}: ${String(e)}`))));
      if (stopped) return n;
    }
  }

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = run().finally(() => {
      running = null;
      if (again && !stopped) {
        again = false;
        void runOnce().catch(() => undefined);
      }
    });
    return running;
  }

  const timer = setInterval(() => { if (!stopped) void runOnce().catch((e: unknown) => o.log?.warn(`alert deliveries: ${String(e)}`)); }, o.pollMs ?? 1_000);
  timer.unref?.();

  return {
    kick: () => { if (!stopped) void runOnce().catch((e: unknown) => o.log?.warn(`alert deliveries: ${String(e)}`)); },
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

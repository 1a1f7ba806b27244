/**
 * The webhook sender: claims due outbox rows (lib/store alerts.ts `claimDeliveries`), posts each
 * once, and records the verdict on the same row. At least once: a row is pending in Postgres
 * until a 2xx answer, so a restart picks it up again; a row that was sent but whose verdict was
 * lost with the process is sent again with the same `X-Zerox1-Delivery` id, which receivers use
 * to drop the repeat. A delivered row is never claimed again.
 *
 * No receiver can hold another list's alerts: every row is sent on its own (a bounded pool of
 * attempts; a freed slot claims the next due row at once), a webhook has one attempt under way at
 * a time, and an attempt ends at its deadline whatever the receiver does (lib/net/outbound.ts).
 * Failures retry with exponential backoff and ±25% jitter per row: base, 2×base, 4×base …
 * (default base 30 s: 8 attempts over about an hour), then the row is `failed` and the webhook
 * reports `failing` with the last error's class until a delivery succeeds.
 */

import { failureClass, outboundRequest, type Resolver } from '../net/outbound';
import type { AlertsStore, ClaimedDelivery } from '../store';
import { type AlertMessage, type WebhookFormat, webhookBody, webhookHeaders } from './payloads';

export interface DeliveryOptions {
  store: AlertsStore;
  /** Builds the alert's page URL from its id and watchlist (the `url` of a message). */
  linkFor: (alertId: bigint) => string;
  allowPrivate: boolean;
  /** First retry delay, ms (default 30,000). */
  retryBaseMs?: number;
  /** Attempts before a row is failed (default 8). */
  maxAttempts?: number;
  /** Deadline of one attempt, connect to last byte read, ms (default 10,000). */
  timeoutMs?: number;
  /** Attempts under way at once (default 32); each row is scheduled on its own. */
  concurrency?: number;
  /** Injected resolver (tests); the system's otherwise. */
  resolve?: Resolver;
  /** Poll interval when idle, ms (default 1,000). */
  pollMs?: number;
  random?: () => number;
  log?: { warn(msg: string): void };
}

export interface DeliveryWorker {
  /** Looks for due rows now (the evaluator calls it after queuing). */
  kick(): void;
  /** Claims what is due and resolves when every send under way is recorded; the rows started. */
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
    id: d.alertId.toString(),
    kind: d.kind,
    state: d.event === 'throttled' ? 'throttled' : cleared ? 'cleared' : 'open',
    agent: Buffer.from(d.agent).toString('hex'),
    agentName: d.agentName,
    subject: d.subject,
    why:
      d.event === 'throttled'
        ? `rule ${d.kind} opened more alerts in the last hour than it may deliver; further alerts ` +
          `of this rule are stored but not delivered until the hour's count falls. The last: ${d.why}`
        : cleared
          ? (d.clearedWhy ?? 'cleared')
          : d.why,
    at: (cleared ? (d.clearedAt ?? d.openedAt) : d.openedAt).toISOString(),
    url: link,
  };
}

/** Most answer bytes read from a receiver: the status is the verdict, the body is not used. */
export const MAX_ANSWER_BYTES = 4 * 1024;

/**
 * Posts `body` to `url` through the outbound guard (lib/net/outbound.ts): the checked, pinned
 * address, one deadline for connect, headers and body, at most {@link MAX_ANSWER_BYTES} read,
 * no redirect followed (a 3xx is a failure: it could point inside the network). Resolves with the
 * status; rejects with an OutboundError whose message is a generic failure class.
 */
export async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  p: { allowPrivate: boolean; timeoutMs: number; resolve?: Resolver },
): Promise<number> {
  const r = await outboundRequest(url, {
    method: 'POST',
    headers,
    body,
    deadlineMs: p.timeoutMs,
    maxBodyBytes: MAX_ANSWER_BYTES,
    overflow: 'truncate',
    maxRedirects: 0,
    allowPrivate: p.allowPrivate,
    resolve: p.resolve,
  });
  return r.status;
}

export function startDeliveryWorker(o: DeliveryOptions): DeliveryWorker {
  const base = o.retryBaseMs ?? 30_000;
  const maxAttempts = o.maxAttempts ?? 8;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const pool = Math.max(1, o.concurrency ?? 32);
  const random = o.random ?? Math.random;
  let stopped = false;
  /** Sends under way, by outbox row id; each is scheduled on its own. */
  const inflight = new Map<string, Promise<void>>();
  /** Webhooks with a send under way (their other rows wait; other webhooks' do not). */
  const busy = new Map<string, number>();
  let started = 0;
  let claiming: Promise<void> | null = null;
  let again = false;

  async function sendOne(d: ClaimedDelivery): Promise<void> {
    const sentAt = Math.floor(Date.now() / 1000);
    const body = webhookBody(d.format as WebhookFormat, messageOf(d, o.linkFor(d.alertId)), d.id, sentAt);
    let error: string | null = null;
    try {
      const status = await post(d.url, body, webhookHeaders(body, d.id, sentAt, d.secret), {
        allowPrivate: o.allowPrivate,
        timeoutMs,
        resolve: o.resolve,
      });
      if (status >= 300 && status < 400) error = `HTTP ${status} (redirects are not followed)`;
      else if (status < 200 || status >= 300) error = `HTTP ${status}`;
    } catch (e) {
      // Only the class is stored and shown (the list's owner sees it): never the system's text.
      error = failureClass(e);
    }
    if (error === null) return o.store.finishDelivery(d.id, d.webhookId, { ok: true });
    const nextAt = d.attempts >= maxAttempts ? null : new Date(Date.now() + backoffMs(d.attempts, base, random));
    await o.store.finishDelivery(d.id, d.webhookId, {
      ok: false,
      error: `attempt ${d.attempts} of ${maxAttempts}: ${error}`,
      nextAt,
    });
  }

  function start(d: ClaimedDelivery): void {
    started++;
    busy.set(d.webhookId, (busy.get(d.webhookId) ?? 0) + 1);
    const send = sendOne(d)
      .catch((e: unknown) => o.log?.warn(`alert delivery ${d.id}: ${String(e)}`))
      .finally(() => {
        inflight.delete(d.id);
        const n = (busy.get(d.webhookId) ?? 1) - 1;
        if (n > 0) busy.set(d.webhookId, n);
        else busy.delete(d.webhookId);
        // A freed slot is filled at once, not when the rest of some batch is done.
        kick();
      });
    inflight.set(d.id, send);
  }

  /** Claims due rows while there are free slots; each claimed row starts sending at once. */
  async function fill(): Promise<void> {
    while (!stopped && inflight.size < pool) {
      const rows = await o.store.claimDeliveries(pool - inflight.size, timeoutMs * 3, [...busy.keys()]);
      if (rows.length === 0 || stopped) return;
      for (const d of rows) start(d);
    }
  }

  function kick(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (claiming) {
      again = true;
      return claiming;
    }
    claiming = fill()
      .catch((e: unknown) => o.log?.warn(`alert deliveries: ${String(e)}`))
      .finally(() => {
        claiming = null;
        if (again && !stopped) {
          again = false;
          void kick();
        }
      });
    return claiming;
  }

  async function runOnce(): Promise<number> {
    const before = started;
    await kick();
    while (inflight.size || claiming) await Promise.all([...inflight.values(), claiming]);
    return started - before;
  }

  const timer = setInterval(() => void kick(), o.pollMs ?? 1_000);
  timer.unref?.();

  return {
    kick: () => void kick(),
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await claiming;
      await Promise.all(inflight.values());
    },
  };
}

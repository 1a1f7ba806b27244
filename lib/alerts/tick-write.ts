/**
 * What a tick of the alert evaluator (evaluator.ts) writes, and the keys it writes them under.
 */

import { fromHex } from '../protocol/hex';
import type { AlertsStore, DeliveryEvent, NewAlert } from '../store';
import { type AlertKind, EVENT_KINDS } from './kinds';

/** What a tick's write needs of the evaluator's options (evaluator.ts passes its own). */
export interface TickWriteOptions {
  store: Pick<AlertsStore, 'atomically'>;
  ruleAlertsPerHour: number;
  deliveriesPerHour: number;
  onQueued?: () => void;
}

/**
 * `why` is made only when it is stored (a new alert or a clearing): most statuses of a tick need none.
 * `hold` keeps an open alert open and opens none (a debounced condition between its thresholds).
 */
export interface Status {
  wl: string;
  agent: string;
  kind: AlertKind;
  subject: string;
  firing: boolean | 'hold';
  why: string | (() => string);
}
export interface OpenAlert {
  id: bigint;
  throttled: boolean;
}

/** An open alert to clear, with the sentence stored as why. */
export interface ClearAlert {
  key: string;
  id: bigint;
  why: string;
  kind: string;
  throttled: boolean;
}

export const keyOf = (wl: string, agent: string, kind: string, subject: string) => `${wl}|${agent}|${kind}|${subject}`;
export const whyOf = (s: Status) => (typeof s.why === 'function' ? s.why() : s.why);

/**
 * One tick's writes, in one transaction: the new alerts, the cleared ones and their webhook
 * deliveries. A process that dies between them (the alerts leader, killed) leaves none of them,
 * so the next leader finds the same alerts fresh and opens and queues them once: an alert is
 * never stored without the delivery it was owed.
 */
export async function writeTick(
  o: TickWriteOptions,
  m: { open: Map<string, OpenAlert>; eventKeys: Set<string>; graceLong: Map<string, number> },
  t: number,
  fresh: Status[],
  clear: ClearAlert[],
): Promise<{ opened: number; cleared: number; reload: boolean }> {
  const { open, eventKeys, graceLong } = m;
  let queued = 0;
  const r = await o.store.atomically(async (tx) => {
    const at = new Date(t);
    const deliveries: DeliveryEvent[] = [];
    let opened = 0;
    let reload = false;
    if (fresh.length) {
      const counts = new Map<string, number>();
      for (const c of await tx.alertCountsSince(new Date(t - 3_600_000))) counts.set(`${c.watchlistId}|${c.kind}`, c.n);
      const rows: NewAlert[] = [];
      const notice: boolean[] = [];
      for (const s of fresh) {
        const ck = `${s.wl}|${s.kind}`;
        const n = (counts.get(ck) ?? 0) + 1;
        counts.set(ck, n);
        rows.push({
          watchlistId: s.wl,
          agent: fromHex(s.agent),
          kind: s.kind,
          subject: s.subject,
          dedupeKey: s.subject,
          why: whyOf(s),
          throttled: n > o.ruleAlertsPerHour,
          at,
        });
        notice.push(n === o.ruleAlertsPerHour + 1);
      }
      const inserted = await tx.insertAlerts(rows);
      for (const { index, id } of inserted) {
        const s = fresh[index];
        const k = keyOf(s.wl, s.agent, s.kind, s.subject);
        open.set(k, { id, throttled: rows[index].throttled });
        if (EVENT_KINDS.has(s.kind)) eventKeys.add(k);
        if (!rows[index].throttled) deliveries.push({ alertId: id, watchlistId: s.wl, event: 'open' });
        else if (notice[index]) deliveries.push({ alertId: id, watchlistId: s.wl, event: 'throttled' });
      }
      opened = inserted.length;
      // A row another process opened first: learn it (so it is cleared in time) without alerting.
      if (inserted.length < rows.length) reload = true;
    }
    let cleared = 0;
    if (clear.length) {
      const done = new Set(
        (
          await tx.clearAlerts(
            clear.map((c) => ({ id: c.id, why: c.why, at, keepKey: EVENT_KINDS.has(c.kind as AlertKind) })),
          )
        ).map(String),
      );
      for (const c of clear) {
        open.delete(c.key);
        graceLong.delete(c.key);
        if (done.has(String(c.id)) && !c.throttled)
          deliveries.push({ alertId: c.id, watchlistId: c.key.split('|')[0], event: 'cleared' });
      }
      cleared = done.size;
    }
    if (deliveries.length) queued = await tx.enqueueDeliveries(deliveries, o.deliveriesPerHour);
    return { opened, cleared, reload };
  });
  if (queued > 0) o.onQueued?.();
  return r;
}

/** The webhook outbox: deliveries queued per alert, claimed with FOR UPDATE SKIP LOCKED, and their verdicts. */
import type { Queryable } from '../engine/db';
import { bytes, type ClaimedDelivery, type DeliveryEvent, date, dateOrNull, toBig } from './rows';

export function outboxStatements(db: Queryable & { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }) {
  return {
    /**
     * One outbox row per event and webhook of the alert's watchlist, while the watchlist made
     * fewer than `perHour` deliveries in the last hour (the rest are not queued). Returns rows queued.
     */
    async enqueueDeliveries(events: readonly DeliveryEvent[], perHour: number): Promise<number> {
      if (events.length === 0) return 0;
      const r = await db.query(
        `WITH e AS (
          SELECT a, w, ev, i FROM unnest($1::int8[], $2::text[], $3::text[], $4::int[]) AS u(a, w, ev, i)
        ), c AS (
          SELECT e.*, h.id AS webhook_id, row_number() OVER (PARTITION BY e.w ORDER BY e.i, h.id) AS n FROM e JOIN
            alert_webhook h ON h.watchlist_id = e.w
        ), used AS (
          SELECT watchlist_id, count(*) AS n FROM alert_delivery WHERE created_at > now() - interval '1 hour' AND
            watchlist_id = ANY($2::text[]) GROUP BY 1
        )
        INSERT INTO alert_delivery (id, alert_id, webhook_id, watchlist_id, event, next_at)
        SELECT gen_random_uuid()::text, c.a, c.webhook_id, c.w, c.ev, now() FROM c LEFT JOIN used ON used.watchlist_id =
          c.w
        WHERE c.n + COALESCE(used.n, 0) <= $5
        ON CONFLICT (alert_id, webhook_id, event) DO NOTHING RETURNING 1`,
        [
          events.map((e) => e.alertId.toString()),
          events.map((e) => e.watchlistId),
          events.map((e) => e.event),
          events.map((_, i) => i),
          perHour,
        ],
      );
      return r.length;
    },

    /* ---------- the outbox ---------- */

    /**
     * Claims up to `limit` due deliveries: pending ones whose time has come and ones whose
     * sender's claim ran out (a process that died mid-send). A claimed row is `sending` until
     * `leaseMs` from now; only its claimer marks it delivered or failed.
     */
    async claimDeliveries(
      limit: number,
      leaseMs: number,
      busyWebhooks: readonly string[] = [],
    ): Promise<ClaimedDelivery[]> {
      // At most one row per webhook, and none of a webhook the caller is still sending to: one
      // receiver's slow or failing answers hold its own rows, never a slot another list needs.
      const r = await db.query<Record<string, unknown>>(
        `WITH due AS (
          SELECT id FROM alert_delivery
          WHERE id IN (
              SELECT DISTINCT ON (webhook_id) id FROM alert_delivery
              WHERE ((status = 'pending' AND next_at <= now()) OR (status = 'sending' AND claimed_until < now()))
                AND NOT (webhook_id = ANY($3::text[]))
              ORDER BY webhook_id, next_at
            )
            AND ((status = 'pending' AND next_at <= now()) OR (status = 'sending' AND claimed_until < now()))
          ORDER BY next_at LIMIT $1 FOR UPDATE SKIP LOCKED
        ), claimed AS (
          UPDATE alert_delivery d SET status = 'sending', attempts = d.attempts + 1, claimed_until = now() + ($2::int *
            interval '1 millisecond')
          FROM due WHERE d.id = due.id RETURNING d.*
        )
        SELECT c.id, c.alert_id::text AS alert_id, c.webhook_id, c.event, c.attempts, h.url, h.format, h.secret,
          a.kind, a.agent, g.label, a.subject, a.why, a.opened_at, a.cleared_at, a.cleared_why
        FROM claimed c JOIN alert_webhook h ON h.id = c.webhook_id JOIN alert a ON a.id = c.alert_id LEFT JOIN agent g
          ON g.id = a.agent`,
        [limit, leaseMs, [...busyWebhooks]],
      );
      return r.map((x) => ({
        id: x.id as string,
        alertId: toBig(x.alert_id),
        webhookId: x.webhook_id as string,
        event: x.event as string,
        attempts: x.attempts as number,
        url: x.url as string,
        format: x.format as string,
        secret: (x.secret as string) ?? null,
        kind: x.kind as string,
        agent: bytes(x.agent),
        agentName: (x.label as string) ?? null,
        subject: x.subject as string,
        why: x.why as string,
        openedAt: date(x.opened_at),
        clearedAt: dateOrNull(x.cleared_at),
        clearedWhy: (x.cleared_why as string) ?? null,
      }));
    },
    /** The claimer's verdict: delivered, retry at `nextAt`, or failed for good (nextAt null). */
    async finishDelivery(
      id: string,
      webhookId: string,
      outcome: { ok: true } | { ok: false; error: string; nextAt: Date | null },
    ): Promise<void> {
      await db.transaction(async (tx) => {
        if (outcome.ok) {
          await tx.query(
            `UPDATE alert_delivery SET status = 'delivered', delivered_at = now(), ` +
              `claimed_until = NULL, last_error = NULL WHERE id = $1 AND status = 'sending'`,
            [id],
          );
          await tx.query(
            `UPDATE alert_webhook SET status = 'ok', last_error = NULL, last_delivered_at = now() WHERE id = $1`,
            [webhookId],
          );
        } else {
          await tx.query(
            `UPDATE alert_delivery SET status = $2, next_at = COALESCE($3, next_at), ` +
              `claimed_until = NULL, last_error = $4 WHERE id = $1 AND status = 'sending'`,
            [id, outcome.nextAt ? 'pending' : 'failed', outcome.nextAt?.toISOString() ?? null, outcome.error],
          );
          await tx.query(`UPDATE alert_webhook SET status = 'failing', last_error = $2 WHERE id = $1`, [
            webhookId,
            outcome.error,
          ]);
        }
      });
    },
    /** Outbox rows of one alert (tests, the watchlist page). */
    async deliveriesOf(alertId: bigint): Promise<
      Array<{
        id: string;
        webhookId: string;
        event: string;
        status: string;
        attempts: number;
        lastError: string | null;
        deliveredAt: Date | null;
      }>
    > {
      const r = await db.query<Record<string, unknown>>(
        `SELECT * FROM alert_delivery WHERE alert_id = $1::int8 ORDER BY created_at, id`,
        [alertId.toString()],
      );
      return r.map((x) => ({
        id: x.id as string,
        webhookId: x.webhook_id as string,
        event: x.event as string,
        status: x.status as string,
        attempts: x.attempts as number,
        lastError: (x.last_error as string) ?? null,
        deliveredAt: dateOrNull(x.delivered_at),
      }));
    },
    /** The earliest time a pending delivery is due, or null (the worker sleeps until then). */
    async nextDeliveryAt(): Promise<Date | null> {
      const [r] = await db.query<{ t: unknown }>(
        `SELECT min(CASE WHEN status = 'pending' THEN next_at ELSE claimed_until ` +
          `END) AS t FROM alert_delivery WHERE status IN ('pending', 'sending')`,
      );
      return dateOrNull(r?.t);
    },

    /* ---------- the alerts API ---------- */
  };
}

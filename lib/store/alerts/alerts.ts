/**
 * Watchlists, alerts and the webhook outbox (lib/alerts drives them; docs/app.md "Alerts and
 * watchlists"). Every statement is set-based: the evaluator reads the chain tables for all
 * watched agents in one query per table and writes a tick's new and cleared alerts in one
 * statement each; the outbox is claimed with FOR UPDATE SKIP LOCKED so two processes on one
 * Postgres never send the same row at once. alerts-atomic.ts adds `atomically` (one transaction).
 */
import type { Queryable } from '../engine/db';

export interface WatchlistRow {
  id: string;
  wallet: string | null;
  allAgents: boolean;
  createdAt: Date;
}
export interface WatchItemRow {
  watchlistId: string;
  kind: 'agent' | 'conversation';
  target: Uint8Array;
  addedAt: Date;
}
export interface WatchRuleRow {
  watchlistId: string;
  kind: string;
  enabled: boolean;
  params: Record<string, unknown>;
}
export interface WebhookRow {
  id: string;
  watchlistId: string;
  url: string;
  format: string;
  secret: string | null;
  env: boolean;
  status: string;
  lastError: string | null;
  lastDeliveredAt: Date | null;
}
export interface AlertRow {
  id: bigint;
  watchlistId: string;
  agent: Uint8Array;
  agentName: string | null;
  kind: string;
  subject: string;
  why: string;
  openedAt: Date;
  clearedAt: Date | null;
  clearedWhy: string | null;
  read: boolean;
  throttled: boolean;
}
export interface NewAlert {
  watchlistId: string;
  agent: Uint8Array;
  kind: string;
  subject: string;
  dedupeKey: string;
  why: string;
  throttled: boolean;
  at: Date;
}
export interface ClearAlert {
  id: bigint;
  why: string;
  at: Date;
  keepKey: boolean;
}
export interface DeliveryEvent {
  alertId: bigint;
  watchlistId: string;
  event: 'open' | 'cleared' | 'throttled';
}
export interface ClaimedDelivery {
  id: string;
  alertId: bigint;
  webhookId: string;
  event: string;
  attempts: number;
  url: string;
  format: string;
  secret: string | null;
  kind: string;
  agent: Uint8Array;
  agentName: string | null;
  subject: string;
  why: string;
  openedAt: Date;
  clearedAt: Date | null;
  clearedWhy: string | null;
}

const toBig = (v: unknown): bigint => BigInt(v as string);
const date = (v: unknown): Date => (v instanceof Date ? v : new Date(v as string));
const dateOrNull = (v: unknown): Date | null => (v == null ? null : date(v));
const bytes = (v: unknown): Uint8Array => new Uint8Array(v as Uint8Array);

export function alertsStore(db: Queryable & { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }) {
  return {
    /** Creates a watchlist with its first token hash and its default rules. */
    async createWatchlist(
      id: string,
      tokenHash: Uint8Array,
      rules: ReadonlyArray<{ kind: string; enabled: boolean; params: unknown }>,
      opts: { allAgents?: boolean } = {},
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.query(`INSERT INTO watchlist (id, all_agents) VALUES ($1, $2)`, [id, opts.allAgents ?? false]);
        await tx.query(`INSERT INTO watchlist_token (hash, watchlist_id) VALUES ($1, $2)`, [tokenHash, id]);
        if (rules.length) {
          await tx.query(
            `INSERT INTO watch_rule (watchlist_id, kind, enabled, params) SELECT $1, k, ` +
              `e, p::jsonb FROM unnest($2::text[], $3::bool[], $4::text[]) AS t(k, e, p)`,
            [id, rules.map((r) => r.kind), rules.map((r) => r.enabled), rules.map((r) => JSON.stringify(r.params))],
          );
        }
      });
    },
    /** The deployment's own list (ALERT_WEBHOOKS): created once, its rules and webhooks replaced at each start. */
    async syncEnvWatchlist(
      id: string,
      p: {
        allAgents: boolean;
        agents: readonly Uint8Array[];
        rules: ReadonlyArray<{ kind: string; params: unknown }>;
        webhooks: ReadonlyArray<{ id: string; url: string; format: string; secret: string | null }>;
      },
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO watchlist (id, all_agents) VALUES ($1, $2) ON ` +
            `CONFLICT (id) DO UPDATE SET all_agents = excluded.all_agents`,
          [id, p.allAgents],
        );
        await tx.query(`DELETE FROM watch_item WHERE watchlist_id = $1 AND NOT (target = ANY($2::bytea[]))`, [
          id,
          p.agents,
        ]);
        if (p.agents.length)
          await tx.query(
            `INSERT INTO watch_item (watchlist_id, kind, target) SELECT $1, ` +
              `'agent', t FROM unnest($2::bytea[]) AS t ON CONFLICT DO NOTHING`,
            [id, p.agents],
          );
        await tx.query(`DELETE FROM watch_rule WHERE watchlist_id = $1`, [id]);
        if (p.rules.length) {
          await tx.query(
            `INSERT INTO watch_rule (watchlist_id, kind, enabled, params) SELECT ` +
              `$1, k, true, p::jsonb FROM unnest($2::text[], $3::text[]) AS t(k, p)`,
            [id, p.rules.map((r) => r.kind), p.rules.map((r) => JSON.stringify(r.params))],
          );
        }
        // Webhooks keep their id (and so their outbox rows) while their URL stays in the setting.
        await tx.query(`DELETE FROM alert_webhook WHERE watchlist_id = $1 AND NOT (id = ANY($2::text[]))`, [
          id,
          p.webhooks.map((w) => w.id),
        ]);
        if (p.webhooks.length) {
          await tx.query(
            `INSERT INTO alert_webhook (id, watchlist_id, url, format, secret, env)
            SELECT i, $1, u, f, s, true FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t(i, u, f, s)
            ON CONFLICT (id) DO UPDATE SET url = excluded.url, format = excluded.format, secret = excluded.secret`,
            [
              id,
              p.webhooks.map((w) => w.id),
              p.webhooks.map((w) => w.url),
              p.webhooks.map((w) => w.format),
              p.webhooks.map((w) => w.secret),
            ],
          );
        }
      });
    },
    async addToken(watchlistId: string, tokenHash: Uint8Array): Promise<void> {
      await db.query(`INSERT INTO watchlist_token (hash, watchlist_id) VALUES ($1, $2)`, [tokenHash, watchlistId]);
    },
    /** True when `tokenHash` is a token of the watchlist. */
    async tokenValid(watchlistId: string, tokenHash: Uint8Array): Promise<boolean> {
      const r = await db.query(`SELECT 1 FROM watchlist_token WHERE hash = $1 AND watchlist_id = $2`, [
        tokenHash,
        watchlistId,
      ]);
      return r.length > 0;
    },
    async getWatchlist(
      id: string,
    ): Promise<{ list: WatchlistRow; items: WatchItemRow[]; rules: WatchRuleRow[]; webhooks: WebhookRow[] } | null> {
      const [l] = await db.query<Record<string, unknown>>(
        `SELECT id, wallet, all_agents, created_at FROM watchlist WHERE id = $1`,
        [id],
      );
      if (!l) return null;
      const [items, rules, webhooks] = [
        await db.query<Record<string, unknown>>(
          `SELECT watchlist_id, kind, target, added_at FROM ` +
            `watch_item WHERE watchlist_id = $1 ORDER BY added_at, target`,
          [id],
        ),
        await db.query<Record<string, unknown>>(
          `SELECT watchlist_id, kind, enabled, params FROM watch_rule WHERE watchlist_id = $1 ORDER BY kind`,
          [id],
        ),
        await db.query<Record<string, unknown>>(
          `SELECT * FROM alert_webhook WHERE watchlist_id = $1 ORDER BY created_at, id`,
          [id],
        ),
      ];
      return {
        list: {
          id: l.id as string,
          wallet: (l.wallet as string) ?? null,
          allAgents: l.all_agents as boolean,
          createdAt: date(l.created_at),
        },
        items: items.map(itemRow),
        rules: rules.map(ruleRow),
        webhooks: webhooks.map(webhookRow),
      };
    },
    /** Adds an item unless the list already holds `cap` of that kind: 'added', 'exists' or 'cap'. */
    async putItem(
      watchlistId: string,
      kind: string,
      target: Uint8Array,
      cap: number,
    ): Promise<'added' | 'exists' | 'cap'> {
      return db.transaction(async (tx) => {
        // Serialises concurrent adds to one list, so the cap holds.
        await tx.query(`SELECT 1 FROM watchlist WHERE id = $1 FOR UPDATE`, [watchlistId]);
        const [have] = await tx.query(
          `SELECT 1 FROM watch_item WHERE watchlist_id = $1 AND kind = $2 AND target = $3`,
          [watchlistId, kind, target],
        );
        if (have) return 'exists';
        const [c] = await tx.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM watch_item WHERE watchlist_id = $1 AND kind = $2`,
          [watchlistId, kind],
        );
        if (c.n >= cap) return 'cap';
        await tx.query(`INSERT INTO watch_item (watchlist_id, kind, target) VALUES ($1, $2, $3)`, [
          watchlistId,
          kind,
          target,
        ]);
        return 'added';
      });
    },
    /** Adds many agents up to the cap (a wallet's own agents); returns how many were added. */
    async addAgents(watchlistId: string, agents: readonly Uint8Array[], cap: number): Promise<number> {
      if (agents.length === 0) return 0;
      return db.transaction(async (tx) => {
        await tx.query(`SELECT 1 FROM watchlist WHERE id = $1 FOR UPDATE`, [watchlistId]);
        const r = await tx.query(
          `INSERT INTO watch_item (watchlist_id, kind, target)
          SELECT $1, 'agent', t FROM unnest($2::bytea[]) WITH ORDINALITY AS u(t, o)
          WHERE NOT EXISTS (SELECT 1 FROM watch_item w WHERE w.watchlist_id = $1 AND w.kind = 'agent' AND w.target =
            u.t)
          ORDER BY o LIMIT GREATEST(0, $3 - (SELECT count(*) FROM watch_item WHERE watchlist_id = $1 AND kind =
            'agent'))
          ON CONFLICT DO NOTHING RETURNING 1`,
          [watchlistId, agents, cap],
        );
        return r.length;
      });
    },
    async deleteItem(watchlistId: string, kind: string, target: Uint8Array): Promise<boolean> {
      const r = await db.query(
        `DELETE FROM watch_item WHERE watchlist_id = $1 AND kind = $2 AND target = $3 RETURNING 1`,
        [watchlistId, kind, target],
      );
      return r.length > 0;
    },
    /** Sets a rule; an enabled rule beyond `cap` enabled rules is refused ('cap'). */
    async putRule(
      watchlistId: string,
      kind: string,
      enabled: boolean,
      params: unknown,
      cap: number,
    ): Promise<'ok' | 'cap'> {
      return db.transaction(async (tx) => {
        await tx.query(`SELECT 1 FROM watchlist WHERE id = $1 FOR UPDATE`, [watchlistId]);
        if (enabled) {
          const [c] = await tx.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM watch_rule WHERE watchlist_id = $1 AND enabled AND kind <> $2`,
            [watchlistId, kind],
          );
          if (c.n >= cap) return 'cap';
        }
        await tx.query(
          `INSERT INTO watch_rule (watchlist_id, kind, enabled, params, updated_at) VALUES ($1, $2, $3, $4::jsonb,
            now())
          ON CONFLICT (watchlist_id, kind) DO UPDATE SET enabled = excluded.enabled, params = excluded.params,
            updated_at = now()`,
          [watchlistId, kind, enabled, JSON.stringify(params)],
        );
        return 'ok';
      });
    },
    async addWebhook(
      w: { id: string; watchlistId: string; url: string; format: string; secret: string | null },
      cap: number,
    ): Promise<'ok' | 'cap'> {
      return db.transaction(async (tx) => {
        await tx.query(`SELECT 1 FROM watchlist WHERE id = $1 FOR UPDATE`, [w.watchlistId]);
        const [c] = await tx.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM alert_webhook WHERE watchlist_id = $1`,
          [w.watchlistId],
        );
        if (c.n >= cap) return 'cap';
        await tx.query(
          `INSERT INTO alert_webhook (id, watchlist_id, url, format, secret) VALUES ($1, $2, $3, $4, $5)`,
          [w.id, w.watchlistId, w.url, w.format, w.secret],
        );
        return 'ok';
      });
    },
    /** Deletes a webhook and its undelivered outbox rows. */
    async deleteWebhook(watchlistId: string, webhookId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const r = await tx.query(
          `DELETE FROM alert_webhook WHERE watchlist_id = $1 AND id = $2 AND NOT env RETURNING 1`,
          [watchlistId, webhookId],
        );
        if (r.length)
          await tx.query(`DELETE FROM alert_delivery WHERE webhook_id = $1 AND status IN ('pending', 'sending')`, [
            webhookId,
          ]);
        return r.length > 0;
      });
    },
    /** Binds a wallet to the list (moving it from another list that had it). */
    async bindWallet(watchlistId: string, wallet: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.query(`UPDATE watchlist SET wallet = NULL WHERE wallet = $1 AND id <> $2`, [wallet, watchlistId]);
        await tx.query(`UPDATE watchlist SET wallet = $1 WHERE id = $2`, [wallet, watchlistId]);
      });
    },
    async watchlistByWallet(wallet: string): Promise<string | null> {
      const [r] = await db.query<{ id: string }>(`SELECT id FROM watchlist WHERE wallet = $1`, [wallet]);
      return r?.id ?? null;
    },

    /* ---------- the evaluator ---------- */

    /** Every watchlist with an enabled rule: its rules and items (the evaluator's working set). */
    async watchState(): Promise<{ lists: WatchlistRow[]; items: WatchItemRow[]; rules: WatchRuleRow[] }> {
      const lists = await db.query<Record<string, unknown>>(
        `SELECT id, wallet, all_agents, created_at FROM watchlist w WHERE EXISTS ` +
          `(SELECT 1 FROM watch_rule r WHERE r.watchlist_id = w.id AND r.enabled)`,
      );
      const ids = lists.map((l) => l.id as string);
      const items = ids.length
        ? await db.query<Record<string, unknown>>(
            `SELECT watchlist_id, kind, target, added_at FROM watch_item WHERE watchlist_id = ANY($1::text[])`,
            [ids],
          )
        : [];
      const rules = ids.length
        ? await db.query<Record<string, unknown>>(
            `SELECT watchlist_id, kind, enabled, params FROM ` +
              `watch_rule WHERE watchlist_id = ANY($1::text[]) AND enabled`,
            [ids],
          )
        : [];
      return {
        lists: lists.map((l) => ({
          id: l.id as string,
          wallet: (l.wallet as string) ?? null,
          allAgents: l.all_agents as boolean,
          createdAt: date(l.created_at),
        })),
        items: items.map(itemRow),
        rules: rules.map(ruleRow),
      };
    },
    /** Agents' last_seen and label; `agents` null = every agent. */
    async agentsSeen(
      agents: readonly Uint8Array[] | null,
    ): Promise<Array<{ agent: Uint8Array; lastSeen: Date; label: string | null }>> {
      const r =
        agents === null
          ? await db.query<Record<string, unknown>>(`SELECT id, last_seen, label FROM agent`)
          : await db.query<Record<string, unknown>>(
              `SELECT id, last_seen, label FROM agent WHERE id = ANY($1::bytea[])`,
              [agents],
            );
      return r.map((x) => ({ agent: bytes(x.id), lastSeen: date(x.last_seen), label: (x.label as string) ?? null }));
    },
    async leasesOf(
      agents: readonly Uint8Array[] | null,
    ): Promise<Array<{ agent: Uint8Array; paidThrough: bigint; active: boolean; slot: bigint }>> {
      const r =
        agents === null
          ? await db.query<Record<string, unknown>>(
              `SELECT agent_id, paid_through_epoch::text AS pt, active, slot::text AS slot FROM lease`,
            )
          : await db.query<Record<string, unknown>>(
              `SELECT agent_id, paid_through_epoch::text AS pt, active, ` +
                `slot::text AS slot FROM lease WHERE agent_id = ANY($1::bytea[])`,
              [agents],
            );
      return r.map((x) => ({
        agent: bytes(x.agent_id),
        paidThrough: toBig(x.pt),
        active: x.active as boolean,
        slot: toBig(x.slot),
      }));
    },
    /** Batches of epochs from `fromEpoch` on, plus the (agent, epoch) pairs in `also`. */
    async batchesOf(
      agents: readonly Uint8Array[] | null,
      fromEpoch: bigint,
      also: ReadonlyArray<{ agent: Uint8Array; epoch: bigint }> = [],
    ): Promise<Array<{ agent: Uint8Array; epoch: bigint; status: string; slot: bigint }>> {
      const r = await db.query<Record<string, unknown>>(
        `SELECT agent_id, epoch::text AS epoch, status::text AS status, slot::text AS slot FROM batch
        WHERE (epoch >= $1::int8 AND ($2::bytea[] IS NULL OR agent_id = ANY($2::bytea[])))
          OR (agent_id, epoch) IN (SELECT a, e::int8 FROM unnest($3::bytea[], $4::text[]) AS t(a, e))`,
        [fromEpoch.toString(), agents, also.map((a) => a.agent), also.map((a) => a.epoch.toString())],
      );
      return r.map((x) => ({
        agent: bytes(x.agent_id),
        epoch: toBig(x.epoch),
        status: x.status as string,
        slot: toBig(x.slot),
      }));
    },
    /** Challenges naming the agents as target or challenger: pending ones, and any updated since `since`. */
    async challengesOf(
      agents: readonly Uint8Array[] | null,
      since: Date,
    ): Promise<
      Array<{
        address: string;
        agent: Uint8Array;
        challenger: Uint8Array;
        epoch: bigint;
        status: string;
        updatedAt: Date;
      }>
    > {
      const r = await db.query<Record<string, unknown>>(
        `SELECT address, agent_id, challenger, epoch::text AS epoch, status, updated_at FROM challenge
        WHERE (status = 'pending' OR updated_at >= $2) AND ($1::bytea[] IS NULL OR agent_id = ANY($1::bytea[]) OR
          challenger = ANY($1::bytea[]))`,
        [agents, since],
      );
      return r.map((x) => ({
        address: x.address as string,
        agent: bytes(x.agent_id),
        challenger: bytes(x.challenger),
        epoch: toBig(x.epoch),
        status: x.status as string,
        updatedAt: date(x.updated_at),
      }));
    },
    /** Open alerts, and the keys of event alerts ever opened (they never alert twice). */
    async alertKeys(eventKinds: readonly string[]): Promise<
      Array<{
        id: bigint;
        watchlistId: string;
        agent: Uint8Array;
        kind: string;
        subject: string;
        open: boolean;
        openedAt: Date;
      }>
    > {
      const r = await db.query<Record<string, unknown>>(
        `SELECT id::text AS id, watchlist_id, agent, kind, subject, cleared_at IS NULL AS open, opened_at FROM alert
        WHERE cleared_at IS NULL OR (dedupe_key IS NOT NULL AND kind = ANY($1::text[]))`,
        [eventKinds],
      );
      return r.map((x) => ({
        id: toBig(x.id),
        watchlistId: x.watchlist_id as string,
        agent: bytes(x.agent),
        kind: x.kind as string,
        subject: x.subject as string,
        open: x.open as boolean,
        openedAt: date(x.opened_at),
      }));
    },
    /** Alerts opened per (watchlist, kind) since `since` (the throttle's count). */
    async alertCountsSince(since: Date): Promise<Array<{ watchlistId: string; kind: string; n: number }>> {
      const r = await db.query<Record<string, unknown>>(
        `SELECT watchlist_id, kind, count(*)::int AS n FROM alert WHERE opened_at >= $1 GROUP BY 1, 2`,
        [since],
      );
      return r.map((x) => ({ watchlistId: x.watchlist_id as string, kind: x.kind as string, n: x.n as number }));
    },
    /**
     * Opens alerts (one statement); a row whose (watchlist, agent, kind, dedupe key) exists is
     * skipped. Returns the ids of the rows inserted, by their input index.
     */
    async insertAlerts(rows: readonly NewAlert[]): Promise<Array<{ index: number; id: bigint }>> {
      if (rows.length === 0) return [];
      const r = await db.query<Record<string, unknown>>(
        `INSERT INTO alert (watchlist_id, agent, kind, subject, dedupe_key, why, opened_at, throttled)
        SELECT w, a, k, s, d, y, t, th FROM unnest($1::text[], $2::bytea[], $3::text[], $4::text[], $5::text[],
          $6::text[], $7::timestamptz[], $8::bool[], $9::int[]) AS u(w, a, k, s, d, y, t, th, i)
        ORDER BY i
        ON CONFLICT (watchlist_id, agent, kind, dedupe_key) DO NOTHING
        RETURNING id::text AS id, watchlist_id, agent, kind, dedupe_key`,
        [
          rows.map((x) => x.watchlistId),
          rows.map((x) => x.agent),
          rows.map((x) => x.kind),
          rows.map((x) => x.subject),
          rows.map((x) => x.dedupeKey),
          rows.map((x) => x.why),
          rows.map((x) => x.at.toISOString()),
          rows.map((x) => x.throttled),
          rows.map((_, i) => i),
        ],
      );
      const index = new Map(
        rows.map((x, i) => [`${x.watchlistId}|${Buffer.from(x.agent).toString('hex')}|${x.kind}|${x.dedupeKey}`, i]),
      );
      return r.map((x) => ({
        index: index.get(
          `${x.watchlist_id}|${Buffer.from(x.agent as Uint8Array).toString('hex')}|${x.kind}|${x.dedupe_key}`,
        )!,
        id: toBig(x.id),
      }));
    },
    /** Clears open alerts (one statement); returns the ids that were open. */
    async clearAlerts(rows: readonly ClearAlert[]): Promise<bigint[]> {
      if (rows.length === 0) return [];
      const r = await db.query<{ id: string }>(
        `UPDATE alert SET cleared_at = u.t, cleared_why = u.y, dedupe_key = CASE WHEN u.k THEN alert.dedupe_key END
        FROM unnest($1::int8[], $2::text[], $3::timestamptz[], $4::bool[]) AS u(i, y, t, k)
        WHERE alert.id = u.i AND alert.cleared_at IS NULL RETURNING alert.id::text AS id`,
        [
          rows.map((x) => x.id.toString()),
          rows.map((x) => x.why),
          rows.map((x) => x.at.toISOString()),
          rows.map((x) => x.keepKey),
        ],
      );
      return r.map((x) => BigInt(x.id));
    },
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

    async listAlerts(p: {
      watchlistId: string;
      state: 'open' | 'cleared' | 'all';
      kind?: string;
      agent?: Uint8Array;
      limit: number;
      before?: bigint;
    }): Promise<AlertRow[]> {
      const r = await db.query<Record<string, unknown>>(
        `SELECT a.id::text AS id, a.watchlist_id, a.agent, g.label, a.kind, a.subject, a.why, a.opened_at, a.cleared_at,
          a.cleared_why, a.read, a.throttled
        FROM alert a LEFT JOIN agent g ON g.id = a.agent
        WHERE a.watchlist_id = $1 AND ($2 = 'all' OR ($2 = 'open') = (a.cleared_at IS NULL))
          AND ($3::text IS NULL OR a.kind = $3) AND ($4::bytea IS NULL OR a.agent = $4) AND ($5::int8 IS NULL OR a.id <
            $5::int8)
        ORDER BY a.id DESC LIMIT $6`,
        [p.watchlistId, p.state, p.kind ?? null, p.agent ?? null, p.before?.toString() ?? null, p.limit],
      );
      return r.map((x) => ({
        id: toBig(x.id),
        watchlistId: x.watchlist_id as string,
        agent: bytes(x.agent),
        agentName: (x.label as string) ?? null,
        kind: x.kind as string,
        subject: x.subject as string,
        why: x.why as string,
        openedAt: date(x.opened_at),
        clearedAt: dateOrNull(x.cleared_at),
        clearedWhy: (x.cleared_why as string) ?? null,
        read: x.read as boolean,
        throttled: x.throttled as boolean,
      }));
    },
    async unreadCount(watchlistId: string): Promise<number> {
      const [r] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM alert WHERE watchlist_id = $1 AND NOT read`,
        [watchlistId],
      );
      return r.n;
    },
    /** Marks alerts read (`ids` null = all of the list); returns how many changed. */
    async markRead(watchlistId: string, ids: readonly bigint[] | null): Promise<number> {
      const r = await db.query(
        `UPDATE alert SET read = true WHERE watchlist_id = $1 AND NOT ` +
          `read AND ($2::int8[] IS NULL OR id = ANY($2::int8[])) RETURNING 1`,
        [watchlistId, ids === null ? null : ids.map(String)],
      );
      return r.length;
    },
  };
}

export type AlertsStatements = ReturnType<typeof alertsStore>;

function itemRow(x: Record<string, unknown>): WatchItemRow {
  return {
    watchlistId: x.watchlist_id as string,
    kind: x.kind as 'agent' | 'conversation',
    target: bytes(x.target),
    addedAt: date(x.added_at),
  };
}
function ruleRow(x: Record<string, unknown>): WatchRuleRow {
  const p = typeof x.params === 'string' ? JSON.parse(x.params) : x.params;
  return {
    watchlistId: x.watchlist_id as string,
    kind: x.kind as string,
    enabled: x.enabled as boolean,
    params: (p ?? {}) as Record<string, unknown>,
  };
}
function webhookRow(x: Record<string, unknown>): WebhookRow {
  return {
    id: x.id as string,
    watchlistId: x.watchlist_id as string,
    url: x.url as string,
    format: x.format as string,
    secret: (x.secret as string) ?? null,
    env: x.env as boolean,
    status: x.status as string,
    lastError: (x.last_error as string) ?? null,
    lastDeliveredAt: dateOrNull(x.last_delivered_at),
  };
}

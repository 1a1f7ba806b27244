/** Watchlists: their tokens, items, rules, webhooks and wallets. */
import type { Queryable } from '../engine/db';
import {
  date,
  itemRow,
  ruleRow,
  type WatchItemRow,
  type WatchlistRow,
  type WatchRuleRow,
  type WebhookRow,
  webhookRow,
} from './rows';

export function watchlistStatements(db: Queryable & { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }) {
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
  };
}

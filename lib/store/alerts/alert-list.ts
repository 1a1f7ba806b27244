/** The alerts a watchlist shows: listed, counted unread, marked read. */
import type { Queryable } from '../engine/db';
import { type AlertRow, bytes, date, dateOrNull, toBig } from './rows';

export function alertListStatements(db: Queryable & { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }) {
  return {
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

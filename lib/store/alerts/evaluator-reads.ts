/**
 * What the alert evaluator reads each tick (watch state, agents, leases, batches, challenges) and how it writes alerts.
 */
import type { Queryable } from '../engine/db';
import {
  bytes,
  type ClearAlert,
  date,
  itemRow,
  type NewAlert,
  ruleRow,
  toBig,
  type WatchItemRow,
  type WatchlistRow,
  type WatchRuleRow,
} from './rows';

export function evaluatorStatements(db: Queryable & { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }) {
  return {
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
  };
}

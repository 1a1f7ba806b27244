/**
 * The agent list with filters and sorting: online, stake status (from the chain indexer's stake
 * table), the stored gossip reputation when the observer keeps one (docs/protocol.md §7), and
 * keyset paging on (sort key, id), so paging never repeats or skips an agent while the list moves.
 * Filtering and sorting by reputation happen in app/_lib/lists.ts, which folds the feedback of
 * agents without a stored fold.
 */
import type { Queryable } from '../engine/db';
import type { AgentRow } from '../types';

export type AgentSort = 'last_seen' | 'first_seen' | 'envelopes';

/** The SQL of each sort key. */
const KEYS: Record<AgentSort, { sql: string; cast: string }> = {
  last_seen: { sql: 'a.last_seen', cast: 'timestamptz' },
  first_seen: { sql: 'a.first_seen', cast: 'timestamptz' },
  envelopes: { sql: 'a.sent', cast: 'int4' },
};

export interface AgentFilter {
  /** Online: marked so by the observer or seen at or after `onlineSinceMs`. */
  online?: boolean;
  onlineSinceMs: number;
  /** A stake status (`locked`, `unlocking`, `claimed`, `slashed`) or `none` for agents without stake. */
  stake?: string;
  sort: AgentSort;
  limit: number;
  /** The sort key's value (ISO time or decimal) and id of the last row of the previous page. */
  cursor?: { value: string; id: Uint8Array };
}

export interface AgentListRow extends AgentRow {
  reputation: {
    reliabilityScore: bigint;
    cooperationIndex: bigint;
    notaryAccuracy: bigint;
    totalTasks: bigint;
    totalNotarized: bigint;
    totalDisputes: bigint;
  } | null;
  stake: { status: string; amount: bigint } | null;
  /** This row's sort-key value as the cursor carries it. */
  sortValue: string;
}

type Row = Record<string, unknown>;
const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);

export async function listAgentsPage(q: Queryable, f: AgentFilter): Promise<{ rows: AgentListRow[]; more: boolean }> {
  const key = KEYS[f.sort];
  const where: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  if (f.online !== undefined) {
    const live = `(a.online OR a.last_seen >= ${arg(new Date(f.onlineSinceMs).toISOString())}::timestamptz)`;
    where.push(f.online ? live : `NOT ${live}`);
  }
  if (f.stake === 'none') where.push('s.agent_id IS NULL');
  else if (f.stake) where.push(`s.status = ${arg(f.stake)}`);
  if (f.cursor) where.push(`(${key.sql}, a.id) < (${arg(f.cursor.value)}::${key.cast}, ${arg(f.cursor.id)})`);
  const rows = await q.query<Row>(
    `SELECT a.*, (${key.sql})::text AS sort_value,
       r.reliability_score::text AS rs, r.cooperation_index::text AS ci, r.notary_accuracy::text AS na,
       r.total_tasks::text AS tt, r.total_notarized::text AS tn, r.total_disputes::text AS td,
       s.status AS stake_status, s.amount::text AS stake_amount
     FROM agent a
     LEFT JOIN reputation_state r ON r.agent_id = a.id AND r.kind = 'gossip' AND r.folded = r.feedback_count
     LEFT JOIN stake s ON s.agent_id = a.id
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY ${key.sql} DESC, a.id DESC LIMIT ${arg(f.limit + 1)}`,
    args,
  );
  return {
    more: rows.length > f.limit,
    rows: rows.slice(0, f.limit).map((r) => ({
      id: u8(r.id),
      firstSeen: new Date(r.first_seen as Date),
      lastSeen: new Date(r.last_seen as Date),
      label: (r.label as string | null) ?? null,
      online: Boolean(r.online),
      sent: Number(r.sent),
      reputation:
        r.rs === null || r.rs === undefined
          ? null
          : {
              reliabilityScore: BigInt(String(r.rs)),
              cooperationIndex: BigInt(String(r.ci)),
              notaryAccuracy: BigInt(String(r.na)),
              totalTasks: BigInt(String(r.tt)),
              totalNotarized: BigInt(String(r.tn)),
              totalDisputes: BigInt(String(r.td)),
            },
      stake: r.stake_status ? { status: r.stake_status as string, amount: BigInt(String(r.stake_amount)) } : null,
      // Timestamps as ISO text keep their milliseconds exactly for the keyset comparison.
      sortValue:
        key.cast === 'timestamptz'
          ? new Date(r[f.sort === 'last_seen' ? 'last_seen' : 'first_seen'] as Date).toISOString()
          : String(r.sort_value),
    })),
  };
}

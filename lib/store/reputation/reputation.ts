/**
 * An agent's gossip reputation (docs/protocol.md §7): the fold of every stored FEEDBACK about it
 * in (timestamp, envelope_id) order, read from `reputation_state` instead of folding all of it
 * on each read. The ingest statement only counts feedback per agent (`feedback_count`, an
 * increment); the stored values fold the first `folded` rows, the last being (last_ts,
 * last_feedback). A read that finds rows not folded yet reads those after that key: when they
 * are all the new ones, it continues the fold from the stored values; when some sort before it
 * (late or out-of-order feedback: each step truncates, so order matters) it refolds them all.
 * Either way it stores what it folded, so the next read is one row. The commit path stays a
 * counter, and the work of a late feedback falls on the next read of that agent, once. With the
 * fold it stores the state at the end of each epoch it reached (`reputation_point` kind gossip,
 * reputation-points.ts), the agent's reputation history read back in bounded pages.
 */
import { applyFeedback, emptyReputation, type ReputationState } from '../../protocol/reputation';
import type { Queryable } from '../engine/db';

type Row = Record<string, unknown>;
const STATE = [
  'reliability_score',
  'cooperation_index',
  'notary_accuracy',
  'total_tasks',
  'total_notarized',
  'total_disputes',
] as const;
const stateOf = (r: Row): ReputationState => ({
  reliabilityScore: BigInt(String(r.reliability_score)),
  cooperationIndex: BigInt(String(r.cooperation_index)),
  notaryAccuracy: BigInt(String(r.notary_accuracy)),
  totalTasks: BigInt(String(r.total_tasks)),
  totalNotarized: BigInt(String(r.total_notarized)),
  totalDisputes: BigInt(String(r.total_disputes)),
});
const fb = (r: Row) => ({
  score: Number(r.score),
  outcome: Number(r.outcome),
  role: Number(r.role),
  isDispute: Boolean(r.is_dispute),
});

export interface GossipRow extends ReputationState {
  lastEpoch: number | null;
  updatedAt: Date;
}

/** The agent's current gossip fold, or null when nothing about it is stored. */
export async function gossipReputation(q: Queryable, agent: Uint8Array): Promise<GossipRow | null> {
  // One statement: the count and the rows after the stored key come from one snapshot.
  const rows = await q.query<Row>(
    `WITH r AS (SELECT ${STATE.map((c) => `${c}::text`).join(', ')}, folded, feedback_count, last_ts, last_feedback,
      last_epoch, updated_at FROM reputation_state WHERE agent_id = $1 AND kind = 'gossip')
    SELECT r.*, f.score, f.outcome, f.role, f.is_dispute, f.timestamp::text AS f_ts, f.envelope_id AS f_id, f.epoch AS
      f_epoch FROM r
    LEFT JOIN LATERAL (SELECT * FROM feedback f WHERE f.target_agent = $1 AND r.folded <> r.feedback_count
      AND (r.last_ts IS NULL OR (f.timestamp, f.envelope_id) > (r.last_ts, r.last_feedback)) ORDER BY f.timestamp,
        f.envelope_id) f ON true`,
    [agent],
  );
  const r = rows[0];
  if (!r) return null;
  const meta = { lastEpoch: (r.last_epoch as number | null) ?? null, updatedAt: new Date(r.updated_at as Date) };
  const folded = Number(r.folded),
    count = Number(r.feedback_count);
  if (folded === count) return { ...stateOf(r), ...meta };
  const after = rows.filter((x) => x.f_id !== null && x.f_id !== undefined);
  let state: ReputationState;
  let last: Row;
  let n: number;
  // The state at the end of each epoch the folded rows reach (the points of reputation-points.ts).
  const points = new Map<string, { state: ReputationState; folded: number }>();
  const foldRows = (rows: Row[], from: ReputationState, n0: number) =>
    rows.reduce((s, x, i) => {
      const next = applyFeedback(s, fb(x));
      points.set(String(x.f_epoch), { state: next, folded: n0 + i + 1 });
      return next;
    }, from);
  let refold = false;
  if (folded + after.length === count && after.length > 0) {
    // Every row not folded yet sorts after the last folded one: continue.
    state = foldRows(after, stateOf(r), folded);
    last = after[after.length - 1];
    n = count;
  } else {
    refold = true;
    const all = await q.query<Row>(
      `SELECT f.score, f.outcome, f.role, f.is_dispute, f.timestamp::text AS f_ts, f.envelope_id AS f_id, f.epoch AS
        f_epoch,
        (SELECT feedback_count FROM reputation_state WHERE agent_id = $1 AND kind = 'gossip') AS c
      FROM feedback f WHERE f.target_agent = $1 ORDER BY f.timestamp, f.envelope_id`,
      [agent],
    );
    state = foldRows(all, emptyReputation(), 0);
    if (all.length === 0) return { ...emptyReputation(), ...meta };
    // Stored only if the count read with the rows says they are all of them.
    if (Number(all[0].c) !== all.length) return { ...state, ...meta };
    last = all[all.length - 1];
    n = all.length;
  }
  // Only over the state this read started from: a concurrent read may have stored first. The
  // points go with it; a refold also drops the points of epochs it no longer reaches.
  const pts = [...points].map(([epoch, p]) => ({ epoch, ...p }));
  const col = (k: keyof ReputationState) => pts.map((x) => x.state[k].toString());
  await q.query(
    `WITH u AS (
      UPDATE reputation_state SET ${STATE.map((c, i) => `${c} = $${i + 3}::int8`).join(', ')}, folded = $9, last_ts =
        $10::int8, last_feedback = $11,
        updated_at = now() WHERE agent_id = $1 AND kind = 'gossip' AND folded = $2 RETURNING 1
    ), d AS (
      DELETE FROM reputation_point WHERE $12::boolean AND agent_id = $1 AND kind = 'gossip' AND epoch <>
        ALL($13::int8[]) AND EXISTS (SELECT 1 FROM u)
    )
    INSERT INTO reputation_point (agent_id, kind, epoch, ${STATE.join(', ')}, folded)
    SELECT $1, 'gossip', x.* FROM unnest($13::int8[], ${STATE.map((_, i) => `$${14 + i}::int8[]`).join(', ')},
      $20::int[]) AS x WHERE EXISTS (SELECT 1 FROM u)
    ON CONFLICT (agent_id, kind, epoch) DO UPDATE SET ${STATE.map((c) => `${c} = excluded.${c}`).join(', ')}, folded =
      excluded.folded`,
    [
      agent,
      folded,
      ...[
        state.reliabilityScore,
        state.cooperationIndex,
        state.notaryAccuracy,
        state.totalTasks,
        state.totalNotarized,
        state.totalDisputes,
      ].map(String),
      n,
      String(last.f_ts),
      last.f_id,
      refold,
      pts.map((x) => x.epoch),
      col('reliabilityScore'),
      col('cooperationIndex'),
      col('notaryAccuracy'),
      col('totalTasks'),
      col('totalNotarized'),
      col('totalDisputes'),
      pts.map((x) => x.folded),
    ],
  );
  return { ...state, ...meta };
}

/**
 * The agent page's chain reads, each an index read of one agent's rows whatever its history:
 * its stake and lease rows, a page of its batches (newest epoch first) each with its verdict's
 * reconciliation row, the authoritative fold after it (reputation-points.ts) and its challenge
 * count, so the page lists every batch once; and the authoritative reputation now, from the
 * newest batch point instead of refolding every verified batch from its log.
 */

import type { Queryable } from '../engine/db';
import { type ReconciliationRow, rowOf, SELECT_ROW } from '../reconciliation/reconciliation';
import { type ReputationPoint, readReputationPoints } from '../reputation/reputation-points';
import { type BatchRow, type LeaseRow, listLeases, listStakes, type StakeRow } from './chain';

type Row = Record<string, unknown>;
const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);
const big = (v: unknown) => BigInt(String(v));
const optBig = (v: unknown) => (v === null || v === undefined ? null : big(v));

/** One agent's stake and lease rows (null when it has none). */
export async function agentStakeLease(
  q: Queryable,
  agent: Uint8Array,
): Promise<{ stake: StakeRow | null; lease: LeaseRow | null }> {
  const [s, l] = await Promise.all([listStakes(q, agent), listLeases(q, agent)]);
  return { stake: s[0] ?? null, lease: l[0] ?? null };
}

export interface AgentBatchRow {
  batch: BatchRow;
  /** The authoritative fold after this batch; null when it is not folded (not verified, or its log not decodable). */
  point: ReputationPoint | null;
  /** Its verdict's reconciliation (figures null unless verified). */
  reconciliation: ReconciliationRow;
  /** Challenges against this batch. */
  challenges: number;
}

const BATCH_COLS =
  `b.agent_id, b.epoch::text AS epoch, b.batch_hash, b.root, b.slot::text AS ` +
  `slot, b.signature, b.status::text AS status, b.log_root, b.data, b.updated_at`;
const RECON_COLS = SELECT_ROW.split(', ')
  .slice(3)
  .map((c) => `r.${c}`)
  .join(', ');
const POINT_COLS = `p.reliability_score::text AS p_rel, p.cooperation_index::text AS p_coop, p.notary_accuracy::text AS
  p_not, p.total_tasks::text AS p_tasks,
  p.total_notarized::text AS p_notarized, p.total_disputes::text AS p_disputes, p.folded AS p_folded`;

/**
 * A page of the agent's batches, newest epoch first, before epoch `before` when given; with
 * `epoch`, only the batch of that epoch (the one the agent page pins when a link opens it), by
 * primary key.
 */
export async function listAgentBatches(
  q: Queryable,
  agent: Uint8Array,
  p: { limit: number; before?: bigint; epoch?: bigint },
): Promise<{ rows: AgentBatchRow[]; more: boolean }> {
  if (p.before !== undefined && p.epoch !== undefined)
    throw new Error('listAgentBatches: before and epoch exclude each other');
  const args: unknown[] = [agent, p.limit + 1];
  if (p.before !== undefined) args.push(p.before.toString());
  if (p.epoch !== undefined) args.push(p.epoch.toString());
  const where =
    p.before !== undefined ? 'AND b.epoch < $3::int8' : p.epoch !== undefined ? 'AND b.epoch = $3::int8' : '';
  const rows = await q.query<Row>(
    `SELECT ${BATCH_COLS}, ${RECON_COLS}, ${POINT_COLS},
      (SELECT count(*)::int FROM challenge c WHERE c.agent_id = b.agent_id AND c.epoch = b.epoch) AS challenges
    FROM batch b
    LEFT JOIN reconciliation r ON r.agent_id = b.agent_id AND r.epoch = b.epoch
    LEFT JOIN reputation_point p ON p.agent_id = b.agent_id AND p.kind = 'batch' AND p.epoch = b.epoch
    WHERE b.agent_id = $1 ${where}
    ORDER BY b.epoch DESC LIMIT $2`,
    args,
  );
  return {
    more: rows.length > p.limit,
    rows: rows.slice(0, p.limit).map((x) => ({
      batch: {
        agentId: u8(x.agent_id),
        epoch: big(x.epoch),
        batchHash: u8(x.batch_hash),
        root: u8(x.root),
        slot: big(x.slot),
        signature: (x.signature as string | null) ?? null,
        status: x.status as BatchRow['status'],
        logRoot: x.log_root ? u8(x.log_root) : null,
        data: x.data ?? undefined,
        updatedAt: x.updated_at as Date,
      },
      point:
        x.p_folded === null || x.p_folded === undefined
          ? null
          : {
              epoch: big(x.epoch),
              folded: Number(x.p_folded),
              state: {
                reliabilityScore: big(x.p_rel),
                cooperationIndex: big(x.p_coop),
                notaryAccuracy: big(x.p_not),
                totalTasks: big(x.p_tasks),
                totalNotarized: big(x.p_notarized),
                totalDisputes: big(x.p_disputes),
              },
            },
      reconciliation: rowOf(x),
      challenges: Number(x.challenges),
    })),
  };
}

/**
 * What the authoritative fold needs about the agent's batches, by index: its first and last batch
 * epoch (any verdict), its newest verified batch epoch and the newest batch point.
 */
export async function authoritativeBasis(
  q: Queryable,
  agent: Uint8Array,
): Promise<{
  firstEpoch: bigint | null;
  lastEpoch: bigint | null;
  lastVerified: bigint | null;
  point: ReputationPoint | null;
}> {
  const [[r], pts] = await Promise.all([
    q.query<Row>(
      `SELECT (SELECT epoch::text FROM batch WHERE agent_id = $1 ORDER BY epoch LIMIT 1) AS first,
      (SELECT epoch::text FROM batch WHERE agent_id = $1 ORDER BY epoch DESC LIMIT 1) AS last,
      (SELECT epoch::text FROM batch WHERE agent_id = $1 AND status = 'verified' ORDER BY epoch DESC LIMIT 1) AS
        verified`,
      [agent],
    ),
    readReputationPoints(q, agent, 'batch', 1),
  ]);
  return {
    firstEpoch: optBig(r.first),
    lastEpoch: optBig(r.last),
    lastVerified: optBig(r.verified),
    point: pts.points[0] ?? null,
  };
}

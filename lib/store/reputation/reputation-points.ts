/**
 * An agent's reputation history as stored points (`reputation_point`, one per agent, kind and
 * epoch), so its page reads the newest few instead of refolding its whole history:
 *
 * - `gossip`: the gossip fold at the end of each epoch with feedback about the agent, written by
 *   the fold itself (reputation.ts) as it folds.
 * - `batch`: the authoritative fold (docs/protocol.md §7) after each verified batch, written at
 *   the batch's verdict (chain.ts setBatchStatus): the point before it, the idle decays in
 *   between and this batch's feedback events (lib/protocol foldNextBatch). Each point keeps its
 *   batch's own fold input, so a verdict reached late for an earlier epoch (or one that changes)
 *   refolds the points after it from that input alone. A point's `folded` counts the verified
 *   batches folded up to it.
 *
 * A verified batch whose log cannot be decoded any more has no point (it cannot be folded);
 * {@link missingBatchPoints} lists verified batches without one, which the chain indexer fills
 * when it starts (batches verified before points existed).
 */

import type { BehaviorBatch } from '../../protocol/batch';
import { buildBatchFromLog } from '../../protocol/batch-build';
import { decodeEnvelope } from '../../protocol/envelope';
import {
  batchFoldInput,
  emptyReputation,
  type FeedbackInput,
  foldNextBatch,
  type ReputationState,
} from '../../protocol/reputation';
import type { Envelope } from '../../protocol/types';
import type { Queryable } from '../engine/db';
import { epochLogEntries } from '../logs/epoch-log';

type Row = Record<string, unknown>;
export type PointKind = 'gossip' | 'batch';

export interface ReputationPoint {
  epoch: bigint;
  state: ReputationState;
  folded: number;
}

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
const values = (s: ReputationState) =>
  [s.reliabilityScore, s.cooperationIndex, s.notaryAccuracy, s.totalTasks, s.totalNotarized, s.totalDisputes].map(
    String,
  );
const COLS = `epoch::text AS epoch, ${STATE.map((c) => `${c}::text`).join(', ')}, folded`;
const pointOf = (r: Row): ReputationPoint => ({
  epoch: BigInt(String(r.epoch)),
  state: stateOf(r),
  folded: Number(r.folded),
});
const same = (a: ReputationState, b: ReputationState) => values(a).join() === values(b).join();

/**
 * The newest `limit` points of one kind, returned oldest first; `more` when older points exist.
 * One index range read of (agent_id, kind, epoch) whatever the agent's history.
 */
export async function readReputationPoints(
  q: Queryable,
  agent: Uint8Array,
  kind: PointKind,
  limit: number,
): Promise<{ points: ReputationPoint[]; more: boolean }> {
  const rows = await q.query<Row>(
    `SELECT ${COLS} FROM reputation_point WHERE agent_id = $1 AND kind = $2 ORDER BY epoch DESC LIMIT $3`,
    [agent, kind, limit + 1],
  );
  return { points: rows.slice(0, limit).reverse().map(pointOf), more: rows.length > limit };
}

type Input = { events: FeedbackInput[]; disputes: bigint };
const inputJson = (i: Input) =>
  JSON.stringify({ e: i.events.map((e) => [e.score, e.outcome, e.role]), d: i.disputes.toString() });
function inputOf(v: unknown): Input | null {
  const o = (typeof v === 'string' ? JSON.parse(v) : v) as { e?: unknown; d?: unknown } | null;
  if (!o || !Array.isArray(o.e) || typeof o.d !== 'string') return null;
  return {
    events: o.e.map((x) => {
      const [score, outcome, role] = x as number[];
      return { score, outcome, role };
    }),
    disputes: BigInt(o.d),
  };
}

async function writeBatchPoint(
  q: Queryable,
  agent: Uint8Array,
  epoch: bigint,
  state: ReputationState,
  folded: number,
  input: Input,
): Promise<void> {
  await q.query(
    `INSERT INTO reputation_point (agent_id, kind, epoch, ${STATE.join(', ')}, folded, events)
    VALUES ($1, 'batch', $2::int8, ${STATE.map((_, i) => `$${i + 3}::int8`).join(', ')}, $9, $10::jsonb)
    ON CONFLICT (agent_id, kind, epoch) DO UPDATE SET ${STATE.map((c) => `${c} = excluded.${c}`).join(', ')}, folded =
      excluded.folded, events = excluded.events`,
    [agent, epoch.toString(), ...values(state), folded, inputJson(input)],
  );
}

/** Refolds the batch points after `from` (null: from the empty state) from their stored inputs. */
async function refoldAfter(
  q: Queryable,
  agent: Uint8Array,
  from: ReputationPoint | null,
  afterEpoch: bigint,
): Promise<void> {
  const later = await q.query<Row>(
    `SELECT epoch::text AS epoch, events FROM reputation_point WHERE ` +
      `agent_id = $1 AND kind = 'batch' AND epoch > $2::int8 ORDER BY epoch`,
    [agent, afterEpoch.toString()],
  );
  let prev = from;
  for (const r of later) {
    const epoch = BigInt(String(r.epoch));
    const input = inputOf(r.events);
    if (!input) throw new Error(`reputation_point batch ${epoch} has no fold input`);
    const state = foldNextBatch({
      state: prev?.state ?? emptyReputation(),
      previousEpoch: prev?.epoch ?? null,
      epoch,
      ...input,
    });
    const folded = (prev?.folded ?? 0) + 1;
    await writeBatchPoint(q, agent, epoch, state, folded, input);
    prev = { epoch, state, folded };
  }
}

/**
 * Records the authoritative fold after the batch of (`agent`, `epoch`): `batch` is the batch
 * built from its verified log, or null when the batch is not (or no longer) verified, which drops
 * its point. Points after it are refolded when its own changed.
 */
export async function foldBatchPoint(
  q: Queryable,
  agent: Uint8Array,
  epoch: bigint,
  batch: Pick<BehaviorBatch, 'feedbackEvents' | 'disputes'> | null,
): Promise<void> {
  const before = await q.query<Row>(
    `SELECT ${COLS} FROM reputation_point WHERE agent_id = $1 AND ` +
      `kind = 'batch' AND epoch < $2::int8 ORDER BY epoch DESC LIMIT 1`,
    [agent, epoch.toString()],
  );
  const prev = before[0] ? pointOf(before[0]) : null;
  if (!batch) {
    const gone = await q.query(
      `DELETE FROM reputation_point WHERE agent_id = $1 AND kind = 'batch' AND epoch = $2::int8 RETURNING 1`,
      [agent, epoch.toString()],
    );
    if (gone.length > 0) await refoldAfter(q, agent, prev, epoch);
    return;
  }
  const input = batchFoldInput(batch);
  const state = foldNextBatch({
    state: prev?.state ?? emptyReputation(),
    previousEpoch: prev?.epoch ?? null,
    epoch,
    ...input,
  });
  const folded = (prev?.folded ?? 0) + 1;
  const old = await q.query<Row>(
    `SELECT ${COLS} FROM reputation_point WHERE agent_id = $1 AND kind = 'batch' AND epoch = $2::int8`,
    [agent, epoch.toString()],
  );
  if (old[0] && same(pointOf(old[0]).state, state) && pointOf(old[0]).folded === folded) return;
  await writeBatchPoint(q, agent, epoch, state, folded, input);
  await refoldAfter(q, agent, { epoch, state, folded }, epoch);
}

/**
 * The batch built from the stored uploaded log of (agent, epoch), or null when it cannot be (no log, an entry not
 * decodable).
 */
export async function batchFromStoredLog(
  q: Queryable,
  agent: Uint8Array,
  epoch: bigint,
): Promise<BehaviorBatch | null> {
  const rows = await epochLogEntries(q, agent, epoch);
  if (rows.length === 0) return null;
  const envs: Envelope[] = [];
  for (const r of rows) {
    const d = r.raw ? decodeEnvelope(r.raw) : null;
    if (!d?.ok) return null;
    envs.push(d.envelope);
  }
  return buildBatchFromLog({ agentId: agent, epochNumber: epoch, slotStart: 0n, slotEnd: 0n, envelopes: envs });
}

/** Verified batches with no batch point yet, by agent and epoch (at most `limit`). */
export async function missingBatchPoints(q: Queryable, limit = 200): Promise<{ agent: Uint8Array; epoch: bigint }[]> {
  const rows = await q.query<Row>(
    `SELECT b.agent_id, b.epoch::text AS epoch FROM batch b WHERE b.status = 'verified'
      AND NOT EXISTS (SELECT 1 FROM reputation_point p WHERE p.agent_id = b.agent_id AND p.kind = 'batch' AND p.epoch =
        b.epoch)
    ORDER BY b.agent_id, b.epoch LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ agent: new Uint8Array(r.agent_id as Uint8Array), epoch: BigInt(String(r.epoch)) }));
}

/**
 * Folds up to `limit` verified batches that have no point yet, from their stored logs, in epoch
 * order per agent. Returns how many it looked at (fewer than `limit`: none left). A batch whose log
 * no longer decodes is skipped and stays without a point (its page says the fold is behind).
 */
export async function backfillBatchPoints(q: Queryable, limit = 200): Promise<{ looked: number; folded: number }> {
  const todo = await missingBatchPoints(q, limit);
  let folded = 0;
  for (const t of todo) {
    const b = await batchFromStoredLog(q, t.agent, t.epoch);
    if (!b) continue;
    await foldBatchPoint(q, t.agent, t.epoch, b);
    folded++;
  }
  return { looked: todo.length, folded };
}

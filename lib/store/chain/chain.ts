/**
 * Chain tables written by the chain indexer: stakes, leases, batches, challenges with
 * their transitions, every program event, and the indexer cursor. Every write is idempotent by
 * its natural key, and account snapshots only move forward in slot, so replaying events after
 * a restart or a catch-up changes nothing.
 */

import type { BehaviorBatch } from '../../protocol/batch';
import type { BatchCheck } from '../../wire/chain-events';
import { toJsonText } from '../../wire/codec';
import type { Queryable } from '../engine/db';
import { refreshReconciliation } from '../reconciliation/reconciliation';
import { batchFromStoredLog, foldBatchPoint } from '../reputation/reputation-points';
import { STATS_LEVELS_SQL, statsBucketOfTime } from '../stats/stats';

/** NegotiationRefunded `status` of a negotiation that expired (lib/chain/haggle.ts HAGGLE_STATUS_NAMES). */
const HAGGLE_EXPIRED = 6;

/** A batch's check against the uploaded log (the wire contract's BatchCheck). */
export type BatchStatus = BatchCheck;

export interface StakeInput {
  agentId: Uint8Array;
  owner?: Uint8Array | null;
  amount: bigint;
  status: string;
  unlockSlot?: bigint | null;
  slot: bigint;
}
export interface LeaseInput {
  agentId: Uint8Array;
  paidThroughEpoch: bigint;
  lastPaidEpoch?: bigint | null;
  missedEpochs?: number;
  active: boolean;
  slot: bigint;
}
export interface BatchInput {
  agentId: Uint8Array;
  epoch: bigint;
  batchHash: Uint8Array;
  root: Uint8Array;
  slot: bigint;
  signature?: string | null;
  data?: unknown;
}
export interface ChallengeInput {
  address: string;
  agentId: Uint8Array;
  epoch: bigint;
  challenger: Uint8Array;
  status: string;
  slot: bigint;
  signature: string;
  data?: unknown;
}
export interface ChainEventInput {
  signature: string;
  index: number;
  slot: bigint;
  program: string;
  name: string;
  data: unknown;
  blockTime?: Date | null;
}

export interface StakeRow extends StakeInput {
  updatedAt: Date;
}
export interface LeaseRow extends LeaseInput {
  missedEpochs: number;
  updatedAt: Date;
}
export interface BatchRow extends BatchInput {
  status: BatchStatus;
  logRoot: Uint8Array | null;
  updatedAt: Date;
  /** The block time of the batch's transaction, from its indexed event (undefined where not read). */
  blockTime?: Date | null;
}
export interface ChallengeRow {
  address: string;
  agentId: Uint8Array;
  epoch: bigint;
  challenger: Uint8Array;
  status: string;
  slot: bigint;
  openedSlot: bigint;
  data: unknown;
  updatedAt: Date;
  transitions: { status: string; slot: bigint; signature: string }[];
}
export interface ChainEventRow extends ChainEventInput {
  id: bigint;
}
export interface Cursor {
  name: string;
  signature: string | null;
  slot: bigint;
}

type Row = Record<string, unknown>;
const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);
const big = (v: unknown) => BigInt(String(v));
const optBig = (v: unknown) => (v === null || v === undefined ? null : big(v));
/** JSON text for the jsonb columns, in the wire forms (bytes hex, bigint decimal). */
const json = toJsonText;

/** Upserts the stake of an agent unless a newer slot is already stored (spec §10.5). */
export async function upsertStake(q: Queryable, s: StakeInput): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO stake (agent_id, owner, amount, status, unlock_slot, slot, updated_at)
    VALUES ($1, $2, $3::numeric, $4, $5::int8, $6::int8, now())
    ON CONFLICT (agent_id) DO UPDATE SET owner = excluded.owner, amount = excluded.amount, status = excluded.status,
      unlock_slot = excluded.unlock_slot, slot = excluded.slot, updated_at = now()
    WHERE stake.slot <= excluded.slot RETURNING 1`,
    [s.agentId, s.owner ?? null, s.amount.toString(), s.status, s.unlockSlot?.toString() ?? null, s.slot.toString()],
  );
  return r.length > 0;
}

/** Upserts the lease of an agent unless a newer slot is already stored (spec §10.3). */
export async function upsertLease(q: Queryable, l: LeaseInput): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO lease (agent_id, paid_through_epoch, last_paid_epoch, missed_epochs, active, slot, updated_at)
    VALUES ($1, $2::int8, $3::int8, $4, $5, $6::int8, now())
    ON CONFLICT (agent_id) DO UPDATE SET paid_through_epoch = excluded.paid_through_epoch, last_paid_epoch =
      excluded.last_paid_epoch,
      missed_epochs = excluded.missed_epochs, active = excluded.active, slot = excluded.slot, updated_at = now()
    WHERE lease.slot <= excluded.slot RETURNING 1`,
    [
      l.agentId,
      l.paidThroughEpoch.toString(),
      l.lastPaidEpoch?.toString() ?? null,
      l.missedEpochs ?? 0,
      l.active,
      l.slot.toString(),
    ],
  );
  return r.length > 0;
}

/**
 * Upserts a submitted batch keyed by (agent, epoch). Its verification status is kept unless the
 * batch hash changes (then it returns to unverified).
 */
export async function upsertBatch(q: Queryable, b: BatchInput): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO batch (agent_id, epoch, batch_hash, root, slot, signature, data, updated_at)
    VALUES ($1, $2::int8, $3, $4, $5::int8, $6, $7::jsonb, now())
    ON CONFLICT (agent_id, epoch) DO UPDATE SET batch_hash = excluded.batch_hash, root = excluded.root, slot =
      excluded.slot,
      signature = excluded.signature, data = excluded.data, updated_at = now(),
      status = CASE WHEN batch.batch_hash = excluded.batch_hash AND batch.root = excluded.root THEN batch.status ELSE
        'unverified' END,
      log_root = CASE WHEN batch.batch_hash = excluded.batch_hash AND batch.root = excluded.root THEN batch.log_root
        ELSE NULL END
    WHERE batch.slot <= excluded.slot RETURNING 1`,
    [
      b.agentId,
      b.epoch.toString(),
      b.batchHash,
      b.root,
      b.slot.toString(),
      b.signature ?? null,
      b.data === undefined ? null : json(b.data),
    ],
  );
  return r.length > 0;
}

/**
 * Records the check of a batch root against the agent's uploaded log. `built`: the batch the
 * check built from that log (read again from the stored log when a verified batch comes without).
 */
export async function setBatchStatus(
  q: Queryable,
  agentId: Uint8Array,
  epoch: bigint,
  status: BatchStatus,
  logRoot?: Uint8Array,
  built?: Pick<BehaviorBatch, 'feedbackEvents' | 'disputes'>,
): Promise<boolean> {
  // A verdict that changes is counted once, in the interval the observatory reached it (stats.ts).
  const r = await q.query(
    `WITH old AS (SELECT status FROM batch WHERE agent_id = $1 AND epoch = $2::int8),
    u AS (UPDATE batch SET status = $3::"BatchStatus", log_root = $4, updated_at = now() WHERE agent_id = $1 AND epoch =
      $2::int8 RETURNING status),
    st AS (
      INSERT INTO stats_bucket AS b (res, bucket, batches_verified, batches_mismatched)
      SELECT lv.res, ${statsBucketOfTime('now()')}, (u.status = 'verified')::int, (u.status = 'mismatch')::int
      FROM u CROSS JOIN old CROSS JOIN ${STATS_LEVELS_SQL} WHERE u.status <> old.status AND u.status <> 'unverified'
        ORDER BY 1, 2
      ON CONFLICT (res, bucket) DO UPDATE SET batches_verified = b.batches_verified + excluded.batches_verified,
        batches_mismatched = b.batches_mismatched + excluded.batches_mismatched
    )
    SELECT 1 FROM u`,
    [agentId, epoch.toString(), status, logRoot ?? null],
  );
  // The verdict is where gossip and the committed log can first be compared (reconciliation.ts).
  if (r.length > 0) {
    await refreshReconciliation(q, agentId, epoch, status, logRoot ?? null);
    // And where the authoritative fold gains (or loses) this batch (reputation-points.ts).
    await foldBatchPoint(
      q,
      agentId,
      epoch,
      status === 'verified' ? (built ?? (await batchFromStoredLog(q, agentId, epoch))) : null,
    );
  }
  return r.length > 0;
}

/**
 * Upserts a challenge (spec §10.4) and appends its transition. Returns whether this transition
 * is new (so the indexer publishes `challenge_submitted`/`challenge_resolved` once).
 */
export async function upsertChallenge(q: Queryable, c: ChallengeInput): Promise<{ transitioned: boolean }> {
  await q.query(
    `INSERT INTO challenge (address, agent_id, epoch, challenger, status, slot, opened_slot, data, updated_at)
    VALUES ($1, $2, $3::int8, $4, $5, $6::int8, $6::int8, $7::jsonb, now())
    ON CONFLICT (address) DO UPDATE SET status = excluded.status, slot = excluded.slot,
      data = COALESCE(excluded.data, challenge.data), updated_at = now(),
      opened_slot = LEAST(challenge.opened_slot, excluded.opened_slot)
    WHERE challenge.slot <= excluded.slot`,
    [
      c.address,
      c.agentId,
      c.epoch.toString(),
      c.challenger,
      c.status,
      c.slot.toString(),
      c.data === undefined ? null : json(c.data),
    ],
  );
  const t = await q.query(
    `INSERT INTO challenge_transition (challenge, status, slot, signature) VALUES ($1, $2, $3::int8, $4)
    ON CONFLICT (challenge, status, signature) DO NOTHING RETURNING 1`,
    [c.address, c.status, c.slot.toString(), c.signature],
  );
  return { transitioned: t.length > 0 };
}

/** Inserts program events; (signature, index) already stored are skipped. Returns the new ones. */
export async function insertChainEvents(
  q: Queryable,
  events: readonly ChainEventInput[],
): Promise<{ inserted: number; duplicates: number; newKeys: { signature: string; index: number }[] }> {
  if (events.length === 0) return { inserted: 0, duplicates: 0, newKeys: [] };
  // The events this inserts are counted into the stats rollups by block time (stats.ts).
  const rows = await q.query<Row>(
    `WITH ins AS (
      INSERT INTO chain_event (signature, index, slot, program, name, data, block_time, agent)
      SELECT u.*, u.d->>'agent' FROM unnest($1::text[], $2::int[], $3::int8[], $4::text[], $5::text[], $6::jsonb[],
        $7::timestamptz[]) AS u(s, i, sl, p, n, d, bt)
      ON CONFLICT (signature, index) DO NOTHING RETURNING signature, index, name, data, block_time
    ), st AS (
      INSERT INTO stats_bucket AS b (res, bucket, expired, batches_submitted, challenges_opened, challenges_resolved)
      SELECT lv.res, ${statsBucketOfTime('COALESCE(ins.block_time, now())')},
        count(*) FILTER (WHERE name = 'NegotiationRefunded' AND data->>'status' = '${HAGGLE_EXPIRED}'), count(*) FILTER
          (WHERE name = 'BatchSubmitted'),
        count(*) FILTER (WHERE name = 'ChallengeSubmitted'), count(*) FILTER (WHERE name = 'ChallengeResolved')
      FROM ins CROSS JOIN ${STATS_LEVELS_SQL}
      WHERE name IN ('NegotiationRefunded', 'BatchSubmitted', 'ChallengeSubmitted', 'ChallengeResolved')
      GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (res, bucket) DO UPDATE SET expired = b.expired + excluded.expired, batches_submitted =
        b.batches_submitted + excluded.batches_submitted,
        challenges_opened = b.challenges_opened + excluded.challenges_opened, challenges_resolved =
          b.challenges_resolved + excluded.challenges_resolved
    )
    SELECT signature, index FROM ins`,
    [
      events.map((e) => e.signature),
      events.map((e) => e.index),
      events.map((e) => e.slot.toString()),
      events.map((e) => e.program),
      events.map((e) => e.name),
      events.map((e) => json(e.data)),
      events.map((e) => e.blockTime?.toISOString() ?? null),
    ],
  );
  return {
    inserted: rows.length,
    duplicates: events.length - rows.length,
    newKeys: rows.map((r) => ({ signature: r.signature as string, index: Number(r.index) })),
  };
}

export async function getCursor(q: Queryable, name: string): Promise<Cursor | null> {
  const r = await q.query<Row>(`SELECT name, signature, slot::text AS slot FROM indexer_cursor WHERE name = $1`, [
    name,
  ]);
  return r[0] ? { name, signature: (r[0].signature as string | null) ?? null, slot: big(r[0].slot) } : null;
}

/** Moves the cursor forward (never back in slot). */
export async function setCursor(q: Queryable, c: Cursor): Promise<void> {
  await q.query(
    `INSERT INTO indexer_cursor (name, signature, slot, updated_at) VALUES ($1, $2, $3::int8, now())
    ON CONFLICT (name) DO UPDATE SET signature = excluded.signature, slot = excluded.slot, updated_at = now()
    WHERE indexer_cursor.slot <= excluded.slot`,
    [c.name, c.signature, c.slot.toString()],
  );
}

/** Every stake row, or only `agent`'s. */
export async function listStakes(q: Queryable, agent?: Uint8Array): Promise<StakeRow[]> {
  const r = await q.query<Row>(
    `SELECT agent_id, owner, amount::text AS amount, status, unlock_slot::text AS unlock_slot, ` +
      `slot::text AS slot, updated_at FROM stake ${agent ? 'WHERE agent_id = $1' : ''} ORDER BY agent_id`,
    agent ? [agent] : [],
  );
  return r.map((x) => ({
    agentId: u8(x.agent_id),
    owner: x.owner ? u8(x.owner) : null,
    amount: big(x.amount),
    status: x.status as string,
    unlockSlot: optBig(x.unlock_slot),
    slot: big(x.slot),
    updatedAt: x.updated_at as Date,
  }));
}

/** Every lease row, or only `agent`'s. */
export async function listLeases(q: Queryable, agent?: Uint8Array): Promise<LeaseRow[]> {
  const r = await q.query<Row>(
    `SELECT agent_id, paid_through_epoch::text AS p, last_paid_epoch::text AS l, missed_epochs, active, ` +
      `slot::text AS slot, updated_at FROM lease ${agent ? 'WHERE agent_id = $1' : ''} ORDER BY agent_id`,
    agent ? [agent] : [],
  );
  return r.map((x) => ({
    agentId: u8(x.agent_id),
    paidThroughEpoch: big(x.p),
    lastPaidEpoch: optBig(x.l),
    missedEpochs: Number(x.missed_epochs),
    active: Boolean(x.active),
    slot: big(x.slot),
    updatedAt: x.updated_at as Date,
  }));
}

export async function listBatches(
  q: Queryable,
  p: { agent?: Uint8Array; epoch?: bigint; status?: BatchStatus } = {},
): Promise<BatchRow[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  if (p.agent) {
    args.push(p.agent);
    where.push(`agent_id = $${args.length}`);
  }
  if (p.epoch !== undefined) {
    args.push(p.epoch.toString());
    where.push(`epoch = $${args.length}::int8`);
  }
  if (p.status) {
    args.push(p.status);
    where.push(`status = $${args.length}::"BatchStatus"`);
  }
  const r = await q.query<Row>(
    `SELECT agent_id, epoch::text AS epoch, batch_hash, root, slot::text AS slot, signature, status::text AS status,
      log_root, data, updated_at,
      (SELECT e.block_time FROM chain_event e WHERE e.signature = batch.signature ORDER BY e.index LIMIT 1) AS
        block_time
    FROM batch ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY batch.epoch, batch.agent_id`,
    args,
  );
  return r.map((x) => ({
    agentId: u8(x.agent_id),
    epoch: big(x.epoch),
    batchHash: u8(x.batch_hash),
    root: u8(x.root),
    slot: big(x.slot),
    signature: (x.signature as string | null) ?? null,
    status: x.status as BatchStatus,
    logRoot: x.log_root ? u8(x.log_root) : null,
    data: x.data ?? undefined,
    updatedAt: x.updated_at as Date,
    blockTime: x.block_time ? new Date(x.block_time as Date) : null,
  }));
}

export async function listChallenges(
  q: Queryable,
  p: { agent?: Uint8Array; status?: string } = {},
): Promise<ChallengeRow[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  if (p.agent) {
    args.push(p.agent);
    where.push(`agent_id = $${args.length}`);
  }
  if (p.status) {
    args.push(p.status);
    where.push(`status = $${args.length}`);
  }
  const r = await q.query<Row>(
    `SELECT address, agent_id, epoch::text AS epoch, challenger, status, slot::text AS slot, opened_slot::text AS
      opened, data, updated_at
    FROM challenge ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY opened_slot, address`,
    args,
  );
  const t = r.length
    ? await q.query<Row>(
        `SELECT challenge, status, slot::text AS slot, signature FROM challenge_transition WHERE ` +
          `challenge = ANY($1::text[]) ORDER BY challenge_transition.slot, challenge_transition.id`,
        [r.map((x) => x.address)],
      )
    : [];
  return r.map((x) => ({
    address: x.address as string,
    agentId: u8(x.agent_id),
    epoch: big(x.epoch),
    challenger: u8(x.challenger),
    status: x.status as string,
    slot: big(x.slot),
    openedSlot: big(x.opened),
    data: x.data ?? null,
    updatedAt: x.updated_at as Date,
    transitions: t
      .filter((y) => y.challenge === x.address)
      .map((y) => ({ status: y.status as string, slot: big(y.slot), signature: y.signature as string })),
  }));
}

export async function listChainEvents(
  q: Queryable,
  p: { name?: string; afterSlot?: bigint; limit?: number } = {},
): Promise<ChainEventRow[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  if (p.name) {
    args.push(p.name);
    where.push(`name = $${args.length}`);
  }
  if (p.afterSlot !== undefined) {
    args.push(p.afterSlot.toString());
    where.push(`slot > $${args.length}::int8`);
  }
  args.push(p.limit ?? 1000);
  const r = await q.query<Row>(
    `SELECT id::text AS id, signature, index, slot::text AS slot, program, name, data, block_time FROM chain_event
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY chain_event.slot, chain_event.signature,
      chain_event.index LIMIT $${args.length}`,
    args,
  );
  return r.map((x) => ({
    id: big(x.id),
    signature: x.signature as string,
    index: Number(x.index),
    slot: big(x.slot),
    program: x.program as string,
    name: x.name as string,
    data: x.data,
    blockTime: (x.block_time as Date | null) ?? null,
  }));
}

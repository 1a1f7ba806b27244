/**
 * The chain indexer's statements beyond lib/store/chain/chain.ts: set-based stake and lease upserts
 * for one indexer step, the last paid lease epoch and event counts (uploaded epoch logs for
 * batch verification: epoch-log.ts). lib/indexer reaches them only through the named Store
 * methods (store.ts) and {@link chainTxStore}; it holds no SQL of its own.
 */

import type { Queryable } from '../engine/db';
import { epochLogEntries } from '../logs/epoch-log';
import * as chain from './chain';
import { applyHaggleEvents, type HaggleEventInput } from './haggle';

/** One lease row of {@link upsertLeasesKeepPaid}: `lastPaidEpoch` null keeps the stored one. */
export interface LeaseKeepPaidInput {
  agentId: Uint8Array;
  paidThroughEpoch: bigint;
  lastPaidEpoch: bigint | null;
  missedEpochs: number;
  active: boolean;
  slot: bigint;
}

type Row = Record<string, unknown>;

/** Epoch of the agent's latest LeasePaid event (agent as base58, as the indexer stores it), or null. */
export async function lastLeasePaidEpoch(q: Queryable, agentBase58: string): Promise<bigint | null> {
  const r = await q.query<Row>(
    `SELECT max((data->>'epoch')::numeric)::text AS e FROM ` +
      `chain_event WHERE name = 'LeasePaid' AND data->>'agent' = $1`,
    [agentBase58],
  );
  return r[0]?.e ? BigInt(String(r[0].e)) : null;
}

/** Count of stored chain events per name. */
export async function chainEventCounts(q: Queryable): Promise<Record<string, number>> {
  const r = await q.query<Row>(`SELECT name, count(*)::text AS n FROM chain_event GROUP BY name ORDER BY name`);
  return Object.fromEntries(r.map((x) => [String(x.name), Number(x.n)]));
}

/** Every stored (signature, index) of chain events, ordered; for audits and tests. */
export async function chainEventKeys(q: Queryable): Promise<{ signature: string; index: number; name: string }[]> {
  const r = await q.query<Row>(`SELECT signature, index, name FROM chain_event ORDER BY slot, signature, index`);
  return r.map((x) => ({ signature: String(x.signature), index: Number(x.index), name: String(x.name) }));
}

/**
 * Upserts a lease row like lib/store/chain/chain.ts upsertLease, but keeps the stored
 * last_paid_epoch when `lastPaidEpoch` is null (the account does not hold it; only LeasePaid
 * events do), so the indexer need not look it up.
 */
export async function upsertLeaseKeepPaid(q: Queryable, l: LeaseKeepPaidInput): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO lease (agent_id, paid_through_epoch, last_paid_epoch, missed_epochs, active, slot, updated_at)
    VALUES ($1, $2::int8, $3::int8, $4, $5, $6::int8, now())
    ON CONFLICT (agent_id) DO UPDATE SET paid_through_epoch = excluded.paid_through_epoch,
      last_paid_epoch = COALESCE(excluded.last_paid_epoch, lease.last_paid_epoch),
      missed_epochs = excluded.missed_epochs, active = excluded.active, slot = excluded.slot, updated_at = now()
    WHERE lease.slot <= excluded.slot RETURNING 1`,
    [
      l.agentId,
      l.paidThroughEpoch.toString(),
      l.lastPaidEpoch?.toString() ?? null,
      l.missedEpochs,
      l.active,
      l.slot.toString(),
    ],
  );
  return r.length > 0;
}

/**
 * The chain-table writes and reads of one indexer step, bound to one connection or transaction
 * (lib/indexer IndexerStore shape). See Store.chainTransaction.
 */
export function chainTxStore(q: Queryable) {
  return {
    upsertStakes: (rows: readonly chain.StakeInput[]) => upsertStakes(q, rows),
    upsertLeasesKeepPaid: (rows: readonly LeaseKeepPaidInput[]) => upsertLeasesKeepPaid(q, rows),
    epochLog: (agent: Uint8Array, epoch: bigint) => epochLogEntries(q, agent, epoch),
    upsertStake: (s: chain.StakeInput) => chain.upsertStake(q, s),
    upsertLease: (l: chain.LeaseInput) => chain.upsertLease(q, l),
    upsertBatch: (b: chain.BatchInput) => chain.upsertBatch(q, b),
    setBatchStatus: (
      agentId: Uint8Array,
      epoch: bigint,
      status: chain.BatchStatus,
      logRoot?: Uint8Array,
      built?: Parameters<typeof chain.setBatchStatus>[5],
    ) => chain.setBatchStatus(q, agentId, epoch, status, logRoot, built),
    upsertChallenge: (c: chain.ChallengeInput) => chain.upsertChallenge(q, c),
    insertChainEvents: (e: readonly chain.ChainEventInput[]) => chain.insertChainEvents(q, e),
    getCursor: (name: string) => chain.getCursor(q, name),
    setCursor: (c: chain.Cursor) => chain.setCursor(q, c),
    listBatches: (p?: Parameters<typeof chain.listBatches>[1]) => chain.listBatches(q, p),
    applyHaggleEvents: (e: readonly HaggleEventInput[]) => applyHaggleEvents(q, e),
  };
}

/** What {@link chainTxStore} returns. */
export type ChainTxStore = ReturnType<typeof chainTxStore>;

/**
 * Upserts many stakes in one statement (lib/store/chain/chain.ts upsertStake semantics: a row moves
 * only forward in slot). One agent per call at most once (the last wins). Returns rows written.
 */
export async function upsertStakes(q: Queryable, rows: readonly chain.StakeInput[]): Promise<number> {
  if (rows.length === 0) return 0;
  const r = await q.query(
    `INSERT INTO stake (agent_id, owner, amount, status, unlock_slot, slot, updated_at)
    SELECT a, o, m::numeric, s, u::int8, sl::int8, now() FROM unnest($1::bytea[], $2::bytea[], $3::text[], $4::text[],
      $5::text[], $6::text[]) AS t(a, o, m, s, u, sl)
    ON CONFLICT (agent_id) DO UPDATE SET owner = excluded.owner, amount = excluded.amount, status = excluded.status,
      unlock_slot = excluded.unlock_slot, slot = excluded.slot, updated_at = now()
    WHERE stake.slot <= excluded.slot RETURNING 1`,
    [
      rows.map((s) => s.agentId),
      rows.map((s) => s.owner ?? null),
      rows.map((s) => s.amount.toString()),
      rows.map((s) => s.status),
      rows.map((s) => s.unlockSlot?.toString() ?? null),
      rows.map((s) => s.slot.toString()),
    ],
  );
  return r.length;
}

/** {@link upsertLeaseKeepPaid} for many agents in one statement (one row per agent). Returns rows written. */
export async function upsertLeasesKeepPaid(q: Queryable, rows: readonly LeaseKeepPaidInput[]): Promise<number> {
  if (rows.length === 0) return 0;
  const r = await q.query(
    `INSERT INTO lease (agent_id, paid_through_epoch, last_paid_epoch, missed_epochs, active, slot, updated_at)
    SELECT a, p::int8, l::int8, m, act, sl::int8, now() FROM unnest($1::bytea[], $2::text[], $3::text[], $4::int[],
      $5::bool[], $6::text[]) AS t(a, p, l, m, act, sl)
    ON CONFLICT (agent_id) DO UPDATE SET paid_through_epoch = excluded.paid_through_epoch,
      last_paid_epoch = COALESCE(excluded.last_paid_epoch, lease.last_paid_epoch),
      missed_epochs = excluded.missed_epochs, active = excluded.active, slot = excluded.slot, updated_at = now()
    WHERE lease.slot <= excluded.slot RETURNING 1`,
    [
      rows.map((l) => l.agentId),
      rows.map((l) => l.paidThroughEpoch.toString()),
      rows.map((l) => l.lastPaidEpoch?.toString() ?? null),
      rows.map((l) => l.missedEpochs),
      rows.map((l) => l.active),
      rows.map((l) => l.slot.toString()),
    ],
  );
  return r.length;
}

/** Totals the overview's chain section shows, in one round trip. */
export interface ChainTotals {
  batches: number;
  verifiedBatches: number;
  challenges: number;
  resolvedChallenges: number;
  lockedStakes: number;
  activeLeases: number;
}

/** Counts of batches (verified), challenges (resolved), locked stakes and active leases. */
export async function chainTotals(q: Queryable): Promise<ChainTotals> {
  const [r] = await q.query<Row>(`SELECT
    (SELECT count(*)::text FROM batch) AS batches, (SELECT count(*)::text FROM batch WHERE status = 'verified') AS
      verified,
    (SELECT count(*)::text FROM challenge) AS challenges, (SELECT count(*)::text FROM challenge WHERE status <>
      'pending') AS resolved,
    (SELECT count(*)::text FROM stake WHERE status = 'locked') AS stakes, (SELECT count(*)::text FROM lease WHERE
      active) AS leases`);
  return {
    batches: Number(r.batches),
    verifiedBatches: Number(r.verified),
    challenges: Number(r.challenges),
    resolvedChallenges: Number(r.resolved),
    lockedStakes: Number(r.stakes),
    activeLeases: Number(r.leases),
  };
}

/**
 * JSON-ready reads for the REST endpoints GET /api/batches, GET /api/challenges and
 * GET /api/reputation/[agent] (shapes: lib/wire/chain-views.ts). Bytes are lowercase hex, u64
 * decimal strings, agents both hex and base58. Routes parse their input with
 * {@link parseAgentParam} / {@link parseEpochParam} and call these.
 */

import type { z } from 'zod';
import { PublicKey } from '../chain';
import { buildBatchFromLog } from '../protocol/batch-build';
import { fromHex } from '../protocol/hex';
import { foldBatches, type ReputationState } from '../protocol/reputation';
import type { BatchPageFilter, ChallengePageFilter } from '../store/chain';
import type { BatchJson, BatchList, ChallengeJson, ChallengeList, ReputationJson } from '../wire/chain-views';
import { bytesToHex } from '../wire/codec';
import {
  type BatchesQuerySchema,
  batchCursorText,
  type ChallengesQuerySchema,
  challengeCursorText,
} from '../wire/params';
import type { ReputationView } from '../wire/views';
import type { BatchCheck, IndexerStore } from './types';
import { uploadedEpochLog } from './verify';

export type { BatchJson, ChallengeJson, ReputationJson };

const agentJson = (id: Uint8Array) => ({ agent: bytesToHex(id), agentAddress: new PublicKey(id).toBase58() });

/** An agent id from a path or query parameter: 64 hex chars or a base58 address; null when neither. */
export function parseAgentParam(s: unknown): Uint8Array | null {
  if (typeof s !== 'string') return null;
  const t = s.trim();
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(t)) return fromHex(t);
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(t)) return null;
  try {
    return new PublicKey(t).toBytes();
  } catch {
    return null;
  }
}

/** A non-negative epoch (u64) from a query parameter; null when absent or invalid. */
export function parseEpochParam(s: unknown): bigint | null {
  if (typeof s !== 'string' || !/^\d{1,20}$/.test(s)) return null;
  const v = BigInt(s);
  return v < 1n << 64n ? v : null;
}

/** GET /api/batches?agent=&epoch=&status=: historical batches per agent and epoch. */
export async function listBatchesJson(
  store: Pick<IndexerStore, 'listBatches'>,
  p: { agent?: Uint8Array; epoch?: bigint; status?: BatchCheck; limit?: number } = {},
): Promise<BatchJson[]> {
  const rows = await store.listBatches({ agent: p.agent, epoch: p.epoch, status: p.status });
  const limit = Math.max(1, Math.min(p.limit ?? 500, 5000));
  return rows.slice(-limit).reverse().map(batchJson);
}

type BatchRowIn = Awaited<ReturnType<IndexerStore['listBatches']>>[number];
const batchJson = (r: BatchRowIn): BatchJson => ({
  ...agentJson(r.agentId),
  epoch: r.epoch.toString(),
  batchHash: bytesToHex(r.batchHash),
  logMerkleRoot: bytesToHex(r.root),
  slot: r.slot.toString(),
  signature: r.signature ?? null,
  status: r.status,
  uploadedLogRoot: r.logRoot ? bytesToHex(r.logRoot) : null,
  data: r.data ?? null,
  ...(r.blockTime === undefined ? {} : { blockTime: r.blockTime ? r.blockTime.toISOString() : null }),
});

/** The paged list reads of lib/store (chain-list.ts). */
export interface ChainListStore {
  listBatchesPage(f: BatchPageFilter): Promise<{ rows: BatchRowIn[]; more: boolean }>;
  listChallengesPage(
    f: ChallengePageFilter,
  ): Promise<{ rows: Awaited<ReturnType<ChallengeStore['listChallenges']>>; more: boolean }>;
}

export type BatchesQuery = Omit<z.output<typeof BatchesQuerySchema>, 'agent'> & { agent?: Uint8Array };
export type ChallengesQuery = Omit<z.output<typeof ChallengesQuerySchema>, 'agent'> & { agent?: Uint8Array };

/** GET /api/batches: one page, newest first by `q.sort`; `next` continues after its last row. */
export async function batchesPageJson(store: ChainListStore, q: BatchesQuery): Promise<BatchList> {
  const c = q.before;
  const page = await store.listBatchesPage({
    agent: q.agent,
    epoch: q.epoch === undefined ? undefined : BigInt(q.epoch),
    status: q.status,
    sort: q.sort,
    limit: q.limit ?? 500,
    cursor: c ? { slot: c.slot, agent: fromHex(c.agentHex), epoch: c.epoch } : undefined,
  });
  const batches = page.rows.map(batchJson);
  const last = batches[batches.length - 1];
  return { batches, next: page.more && last ? batchCursorText(q.sort, last) : null };
}

/** GET /api/challenges: one page by `q.sort` and `q.order`; `next` continues after its last row. */
export async function challengesPageJson(store: ChainListStore, q: ChallengesQuery): Promise<ChallengeList> {
  const page = await store.listChallengesPage({
    agent: q.agent,
    epoch: q.epoch === undefined ? undefined : BigInt(q.epoch),
    status: q.status,
    sort: q.sort,
    order: q.order,
    limit: q.limit,
    cursor: q.before ? { key: q.before.key, address: q.before.address } : undefined,
  });
  const challenges = page.rows.map(challengeJson);
  const last = challenges[challenges.length - 1];
  return { challenges, next: page.more && last ? challengeCursorText(q.sort, q.order, last) : null };
}

/** The store's challenge listing (lib/store/chain/chain.ts listChallenges). */
export interface ChallengeStore {
  listChallenges(p?: { agent?: Uint8Array; status?: string }): Promise<
    {
      address: string;
      agentId: Uint8Array;
      epoch: bigint;
      challenger: Uint8Array;
      status: string;
      slot: bigint;
      openedSlot: bigint;
      data: unknown;
      transitions: { status: string; slot: bigint; signature: string }[];
    }[]
  >;
}

/** GET /api/challenges?agent=&status=: challenges with their transitions. */
export async function listChallengesJson(
  store: ChallengeStore,
  p: { agent?: Uint8Array; status?: string } = {},
): Promise<ChallengeJson[]> {
  return (await store.listChallenges(p)).map(challengeJson);
}

const challengeJson = (c: Awaited<ReturnType<ChallengeStore['listChallenges']>>[number]): ChallengeJson => ({
  address: c.address,
  ...agentJson(c.agentId),
  epoch: c.epoch.toString(),
  challenger: new PublicKey(c.challenger).toBase58(),
  status: c.status,
  slot: c.slot.toString(),
  openedSlot: c.openedSlot.toString(),
  data: c.data ?? null,
  transitions: c.transitions.map((t) => ({ status: t.status, slot: t.slot.toString(), signature: t.signature })),
});

const REP_FIELDS = [
  'reliabilityScore',
  'cooperationIndex',
  'notaryAccuracy',
  'totalTasks',
  'totalNotarized',
  'totalDisputes',
] as const;
const repJson = (s: ReputationState): ReputationView =>
  Object.fromEntries(REP_FIELDS.map((k) => [k, s[k].toString()])) as ReputationView;

/** Gossip-side reputation as the store keeps it (lib/store getReputation). */
export interface ReputationStore {
  getReputation(
    agentId: Uint8Array,
    kind?: 'gossip' | 'batch',
  ): Promise<{
    reliabilityScore: bigint;
    cooperationIndex: bigint;
    notaryAccuracy: bigint;
    totalTasks: bigint;
    totalNotarized: bigint;
    totalDisputes: bigint;
    lastEpoch: number | null;
    updatedAt: Date;
  } | null>;
}

/**
 * Authoritative reputation (docs/protocol.md, reputation): lib/protocol foldBatches over the agent's verified
 * batches, each rebuilt from the uploaded log it was checked against (verify.ts; the chain holds
 * only hashes and counts). Batches still unverified or mismatched are listed and left out of the
 * fold. `epochSeconds` is kept for callers; the uploaded logs need no epoch window.
 */
export async function authoritativeReputation(
  store: IndexerStore,
  agent: Uint8Array,
  p: { epochSeconds: bigint; toEpoch?: bigint },
) {
  const rows = await store.listBatches({ agent });
  const folded = [];
  for (const r of rows) {
    if (r.status !== 'verified') continue;
    const log = await uploadedEpochLog(store, agent, r.epoch);
    if (!log) continue;
    folded.push(
      buildBatchFromLog({ agentId: agent, epochNumber: r.epoch, slotStart: 0n, slotEnd: 0n, envelopes: log }),
    );
  }
  const fromEpoch = rows.length ? rows[0].epoch : 0n;
  const toEpoch = p.toEpoch ?? (rows.length ? rows[rows.length - 1].epoch : -1n);
  const state = foldBatches({
    batches: folded,
    fromEpoch,
    toEpoch: toEpoch < fromEpoch - 1n ? fromEpoch - 1n : toEpoch,
  });
  return {
    ...agentJson(agent),
    fromEpoch: fromEpoch.toString(),
    toEpoch: toEpoch.toString(),
    state,
    batches: rows.map((r) => ({ epoch: r.epoch.toString(), status: r.status, folded: r.status === 'verified' })),
  };
}

/** GET /api/reputation/[agent]: gossip-derived and batch-derived states side by side, JSON-ready. */
export async function reputationJson(
  store: IndexerStore & ReputationStore,
  agent: Uint8Array,
  p: { epochSeconds: bigint; toEpoch?: bigint },
): Promise<ReputationJson> {
  const [auth, gossip] = await Promise.all([
    authoritativeReputation(store, agent, p),
    store.getReputation(agent, 'gossip'),
  ]);
  return {
    ...agentJson(agent),
    gossip: gossip
      ? { ...repJson(gossip), lastEpoch: gossip.lastEpoch ?? null, updatedAt: gossip.updatedAt.toISOString() }
      : null,
    authoritative: { ...repJson(auth.state), fromEpoch: auth.fromEpoch, toEpoch: auth.toEpoch },
    batches: auth.batches,
  };
}

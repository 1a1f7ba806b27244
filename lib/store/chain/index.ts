/**
 * lib/store/chain: the tables the chain indexer writes and their reads (lib/store/chain/README.md).
 * ChainPort: stakes, leases, batches, challenges, chain events, cursors and Haggle negotiations.
 */
import 'server-only';
import type { PortContext } from '../engine/port';
import { agentStakeLease, authoritativeBasis, listAgentBatches } from './agent-chain';
import { agentAccounts, agentChainEvents } from './agent-events';
import * as chain from './chain';
import {
  type ChainTotals,
  type ChainTxStore,
  chainEventCounts,
  chainEventKeys,
  chainTotals,
  chainTxStore,
  type LeaseKeepPaidInput,
  upsertLeasesKeepPaid,
  upsertStakes,
} from './chain-index';
import { type BatchPageFilter, type ChallengePageFilter, listBatchesPage, listChallengesPage } from './chain-list';
import {
  applyHaggleEvents,
  type HaggleEventInput,
  type HaggleNegotiationRow,
  onChainNegotiations,
  recentOnChainNegotiations,
} from './haggle';

export type { AgentBatchRow } from './agent-chain';
export type { AgentChainEventRow } from './agent-events';
export type {
  BatchInput,
  BatchRow,
  BatchStatus,
  ChainEventInput,
  ChainEventRow,
  ChallengeInput,
  ChallengeRow,
  Cursor,
  LeaseInput,
  LeaseRow,
  StakeInput,
  StakeRow,
} from './chain';
export type { ChainTotals, ChainTxStore, LeaseKeepPaidInput } from './chain-index';
export type { BatchPageFilter, BatchSort, ChallengePageFilter, ChallengeSort } from './chain-list';
export type {
  HaggleColumns,
  HaggleCreated,
  HaggleEventInput,
  HaggleKind,
  HaggleNegotiationRow,
  HaggleTransitionRow,
} from './haggle';
export { foldHaggleEvents } from './haggle-fold';

export interface ChainPort {
  upsertStake(s: chain.StakeInput): Promise<boolean>;
  upsertLease(l: chain.LeaseInput): Promise<boolean>;
  upsertBatch(b: chain.BatchInput): Promise<boolean>;
  setBatchStatus(
    agentId: Uint8Array,
    epoch: bigint,
    status: chain.BatchStatus,
    logRoot?: Uint8Array,
    built?: Parameters<typeof chain.setBatchStatus>[5],
  ): Promise<boolean>;
  upsertChallenge(c: chain.ChallengeInput): Promise<{ transitioned: boolean }>;
  insertChainEvents(e: readonly chain.ChainEventInput[]): ReturnType<typeof chain.insertChainEvents>;
  /** Upserts many stakes in one statement (slot-monotonic); returns rows written. */
  upsertStakes(rows: readonly chain.StakeInput[]): Promise<number>;
  /** Upserts many leases in one statement, keeping the stored last paid epoch where the input has none. */
  upsertLeasesKeepPaid(rows: readonly LeaseKeepPaidInput[]): Promise<number>;
  /** Count of stored chain events per event name. */
  chainEventCounts(): Promise<Record<string, number>>;
  chainTotals(): Promise<ChainTotals>;
  /** Every stored chain event key (signature, index, name) in slot order. */
  chainEventKeys(): Promise<{ signature: string; index: number; name: string }[]>;
  /**
   * Runs one chain-indexer step in one transaction: every row and
   * event write of the step commits once. Postgres: `synchronous_commit = off` for this
   * transaction only; the indexer replays from its cursors, so a commit lost in a crash is
   * re-applied (writes are idempotent) and the cursors never pass what was lost (WAL order).
   */
  chainTransaction<T>(fn: (tx: ChainTxStore) => Promise<T>): Promise<T>;
  getCursor(name: string): Promise<chain.Cursor | null>;
  setCursor(c: chain.Cursor): Promise<void>;
  listStakes(): Promise<chain.StakeRow[]>;
  listLeases(): Promise<chain.LeaseRow[]>;
  listBatches(p?: Parameters<typeof chain.listBatches>[1]): Promise<chain.BatchRow[]>;
  listChallenges(p?: Parameters<typeof chain.listChallenges>[1]): Promise<chain.ChallengeRow[]>;
  /** Filtered, sorted, keyset-paged batches and challenges for the lists (chain-list.ts). */
  listBatchesPage(f: BatchPageFilter): Promise<{ rows: chain.BatchRow[]; more: boolean }>;
  listChallengesPage(f: ChallengePageFilter): Promise<{ rows: chain.ChallengeRow[]; more: boolean }>;
  listChainEvents(p?: Parameters<typeof chain.listChainEvents>[1]): Promise<chain.ChainEventRow[]>;
  /** One agent's stake and lease rows (agent-chain.ts). */
  agentStakeLease(agent: Uint8Array): ReturnType<typeof agentStakeLease>;
  /**
   * A page of one agent's batches with their reconciliation, authoritative point and challenge count (agent-chain.ts).
   */
  listAgentBatches(
    agent: Uint8Array,
    p: { limit: number; before?: bigint; epoch?: bigint },
  ): ReturnType<typeof listAgentBatches>;
  /** The agent's first, last and newest verified batch epochs and its newest batch point (agent-chain.ts). */
  authoritativeBasis(agent: Uint8Array): ReturnType<typeof authoritativeBasis>;
  /** Stores haggle events in chain order (idempotent); returns the transitions that were new. See haggle.ts. */
  applyHaggleEvents(e: readonly HaggleEventInput[]): Promise<number>;
  /** The on-chain (Haggle) negotiations of one 0x01 conversation with their transitions. */
  onChainNegotiations(conversationId: Uint8Array): Promise<HaggleNegotiationRow[]>;
  /** The latest on-chain negotiations, newest first, optionally of one status. */
  recentOnChainNegotiations(p?: { status?: string; limit?: number }): Promise<HaggleNegotiationRow[]>;
  /** One agent's chain events by name, in chain order; see agent-events.ts. */
  agentChainEvents(agentBase58: string, names: readonly string[], limit?: number): ReturnType<typeof agentChainEvents>;
  /** One agent's indexed stake and lease rows; see agent-events.ts. */
  agentAccounts(agentId: Uint8Array): ReturnType<typeof agentAccounts>;
}

export function chainPort({ db, live }: PortContext): ChainPort {
  return {
    upsertStake: (s) => live(() => chain.upsertStake(db, s)),
    upsertLease: (l) => live(() => chain.upsertLease(db, l)),
    upsertBatch: (b) => live(() => chain.upsertBatch(db, b)),
    setBatchStatus: (agentId, epoch, status, logRoot, built) =>
      live(() => chain.setBatchStatus(db, agentId, epoch, status, logRoot, built)),
    upsertChallenge: (c) => live(() => db.transaction((tx) => chain.upsertChallenge(tx, c))),
    insertChainEvents: (e) => live(() => chain.insertChainEvents(db, e)),
    upsertStakes: (rows) => live(() => upsertStakes(db, rows)),
    upsertLeasesKeepPaid: (rows) => live(() => upsertLeasesKeepPaid(db, rows)),
    chainEventCounts: () => live(() => chainEventCounts(db)),
    chainTotals: () => live(() => chainTotals(db)),
    chainEventKeys: () => live(() => chainEventKeys(db)),
    chainTransaction: (fn) =>
      live(() =>
        db.transaction(async (tx) => {
          if (db.kind === 'postgres') await tx.query('SET LOCAL synchronous_commit = off');
          return fn(chainTxStore(tx));
        }),
      ),
    getCursor: (name) => live(() => chain.getCursor(db, name)),
    setCursor: (c) => live(() => chain.setCursor(db, c)),
    listStakes: () => live(() => chain.listStakes(db)),
    listLeases: () => live(() => chain.listLeases(db)),
    listBatches: (p) => live(() => chain.listBatches(db, p)),
    listChallenges: (p) => live(() => chain.listChallenges(db, p)),
    listBatchesPage: (f) => live(() => listBatchesPage(db, f)),
    listChallengesPage: (f) => live(() => listChallengesPage(db, f)),
    listChainEvents: (p) => live(() => chain.listChainEvents(db, p)),
    agentStakeLease: (agent) => live(() => agentStakeLease(db, agent)),
    listAgentBatches: (agent, p) => live(() => listAgentBatches(db, agent, p)),
    authoritativeBasis: (agent) => live(() => authoritativeBasis(db, agent)),
    applyHaggleEvents: (e) => live(() => db.transaction((tx) => applyHaggleEvents(tx, e))),
    onChainNegotiations: (conversationId) => live(() => onChainNegotiations(db, conversationId)),
    recentOnChainNegotiations: (p) => live(() => recentOnChainNegotiations(db, p)),
    agentChainEvents: (agentBase58, names, limit) => live(() => agentChainEvents(db, agentBase58, names, limit)),
    agentAccounts: (agentId) => live(() => agentAccounts(db, agentId)),
  };
}

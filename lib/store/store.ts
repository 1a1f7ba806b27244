/**
 * `openStore`: the observatory's database (docs/architecture.md "Embedded defaults").
 * Embedded PGlite in `.data/pglite` by default, a Postgres server for `postgres://…`; migrations
 * applied at start with Prisma's schema engine; repositories over raw SQL (hot paths) and the
 * generated Prisma client (registry, reputation).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SignerRegistry } from '../protocol/types';
import { agentStakeLease, authoritativeBasis, listAgentBatches } from './chain/agent-chain';
import { agentAccounts, agentChainEvents } from './chain/agent-events';
import { type AgentFilter, listAgentsPage } from './envelopes/agent-list';
import { alertsStore } from './alerts/alerts-atomic';
import { onChainBatchUpload, saveBatchUpload } from './logs/batch-upload';
import * as chain from './chain/chain';
import {
  type ChainTxStore,
  chainEventCounts,
  chainEventKeys,
  chainTotals,
  chainTxStore,
  type LeaseKeepPaidInput,
  upsertLeasesKeepPaid,
  upsertStakes,
} from './chain/chain-index';
import { type BatchPageFilter, type ChallengePageFilter, listBatchesPage, listChallengesPage } from './chain/chain-list';
import { type CollusionParams, collusionSignals } from './collusion/collusion';
import { counterpartiesOf } from './envelopes/counterparties';
import { type Db, openPglite, openPostgres } from './engine/db';
import {
  conversationPayloads,
  disputeCounts,
  disputeOpinions,
  getDispute,
  type ListDisputesParams,
  listDisputes,
  type OpinionRow,
  saveDisputeOpinion,
  setDisputeReviewers,
} from './disputes/disputes';
import { epochLogEntries, saveEpochLog, unverifiedBatchesWithLog } from './logs/epoch-log';
import { StoreClosedError, StoreError } from './engine/errors';
import { type ExportReader, exportSource } from './export/export';
import { feedbackBacking, unbackedSenders } from './reputation/feedback-backing';
import type { PrismaClient } from './generated/client';
import { applyHaggleEvents, type HaggleEventInput, onChainNegotiations, recentOnChainNegotiations } from './chain/haggle';
import { epochLogsWith } from './logs/inclusion';
import { ingestBatch } from './envelopes/ingest';
import { dropImage, imageKey, loadImage, saveImage } from './engine/memory-image';
import {
  type MeshHealthRange,
  type MeshHealthRes,
  type MeshHealthRow,
  meshHealthObservers,
  pruneMeshHealth,
  readMeshHealth,
  writeMeshHealth,
} from './mesh-health/mesh-health';
import { applyMigrations, PRISMA_DIR } from './engine/migrate';
import { partitionKeeper } from './engine/partitions';
import * as q from './envelopes/queries';
import { listReconciliation, reconciliationDetail, reconciliationTotals } from './reconciliation/reconciliation';
import { type ReplayParams, replayEnvelopes } from './envelopes/replay';
import { gossipReputation } from './reputation/reputation';
import { backfillBatchPoints, type PointKind, readReputationPoints } from './reputation/reputation-points';
import * as find from './envelopes/search';
import { foldStats, type StatsSeriesParams, statsSeries } from './stats/stats';
import type { DropRecord, IngestItem, IngestResult, ReputationRow, StoreHealth } from './types';
import { usedSignatures } from './identity/used-signatures';

export interface StoreLogger {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface OpenStoreParams {
  /** `postgres://…` or `postgresql://…` for a server; unset or `pglite:<dir>` for embedded PGlite. */
  databaseUrl?: string;
  /** PGlite directory when no URL is given (default `.data/pglite`); `':memory:'` = in memory. */
  dataDir?: string;
  /** Epoch length for the envelope `epoch` column (default 86,400 s, EPOCH_SECONDS). */
  epochSeconds?: number;
  logger?: StoreLogger;
  /** pg pool size (default 8). */
  poolSize?: number;
  /**
   * Keep the stats rollups as envelopes are stored (default true). false exists to measure what
   * they cost (bench:query); the stats charts then miss what this store ingests.
   */
  statsRollups?: boolean;
  /**
   * Milliseconds after an ingest that stored envelopes before their stats are folded into the
   * rollups (default STATS_FOLD_MS; 0: only before a chart read, on close and when foldStats is called).
   */
  statsFoldMs?: number;
}

export type Store = Awaited<ReturnType<typeof openStore>>;

/**
 * How long ingested stats wait in stats_pending before the store folds them (stats.ts), ms. A
 * fold's cost grows with the intervals and services it touches, not with the envelopes, so
 * fewer folds cost ingest less; a chart this process serves folds first, so only a chart
 * served by another process can lag by this much.
 */
export const STATS_FOLD_MS = 2_000;

const GENERATED = fileURLToPath(new URL('./generated/client.ts', import.meta.url));

async function loadPrisma(): Promise<typeof import('./generated/client')> {
  if (!existsSync(GENERATED)) {
    // Fresh checkout without postinstall: generate once, offline (prisma/generate.mjs).
    const r = spawnSync(process.execPath, [join(PRISMA_DIR, 'generate.mjs')], { stdio: 'inherit' });
    if (r.status !== 0) throw new StoreError('generating the Prisma client failed (run `npm run db:generate`)');
  }
  return import('./generated/client');
}

function pickDatabase(p: OpenStoreParams): { kind: 'postgres'; url: string } | { kind: 'pglite'; dir?: string } {
  const url = p.databaseUrl?.trim();
  if (url) {
    if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
    if (url.startsWith('pglite:')) {
      const dir = url.slice('pglite:'.length);
      return { kind: 'pglite', dir: dir === ':memory:' || dir === '' ? undefined : resolve(dir) };
    }
    throw new TypeError('databaseUrl (DATABASE_URL) must start with postgres://, postgresql:// or pglite:');
  }
  const dir = p.dataDir ?? '.data/pglite';
  return { kind: 'pglite', dir: dir === ':memory:' ? undefined : resolve(dir) };
}

/** PGlite on disk, or in memory from the migrated empty image when one was taken (memory-image.ts). */
async function openMemoryOrFile(dir: string | undefined): Promise<Db> {
  if (dir) return openPglite(dir);
  const key = await imageKey();
  const image = await loadImage(key);
  if (!image) return openPglite(undefined);
  try {
    return await openPglite(undefined, { image });
  } catch {
    await dropImage(key);
    return openPglite(undefined);
  }
}

/**
 * Opens the store, applies pending migrations and returns its repositories.
 * Throws StoreError/MigrationError when the database is unreachable or migrations fail.
 */
export async function openStore(params: OpenStoreParams = {}) {
  const epochSeconds = params.epochSeconds ?? 86_400;
  if (!Number.isInteger(epochSeconds) || epochSeconds < 1)
    throw new RangeError('epochSeconds must be a positive integer');
  const target = pickDatabase(params);
  const log = params.logger;
  const db: Db =
    target.kind === 'postgres' ? await openPostgres(target.url, params.poolSize) : await openMemoryOrFile(target.dir);
  let prisma: PrismaClient;
  const partitions = partitionKeeper(db, epochSeconds, { warn: (m) => log?.warn(m) });
  try {
    const m = await applyMigrations({ db, factory: db.adapter, log: (l) => log?.info(`schema-engine: ${l}`) });
    if (m.applied.length) log?.info(`store: applied migrations ${m.applied.join(', ')}`);
    // A fresh in-memory database, migrated and still empty: the image later in-memory opens load.
    if (target.kind === 'pglite' && !target.dir && m.applied.length && db.dumpImage)
      await saveImage(await imageKey(), await db.dumpImage());
    const { PrismaClient } = await loadPrisma();
    prisma = new PrismaClient({ adapter: db.adapter });
    await partitions.start();
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
  let closed = false;
  const live = <T>(fn: () => Promise<T>) => (closed ? Promise.reject(new StoreClosedError()) : fn());

  // Ingest leaves its stats in stats_pending (stats.ts); they reach the rollups by one fold at a
  // time: on a timer after ingest, before a chart read (so a chart shows what this process
  // stored), on close, and at open for rows a crashed process left.
  const rollups = params.statsRollups !== false;
  const foldMs = params.statsFoldMs ?? STATS_FOLD_MS;
  let pendingStats = rollups;
  let folding: Promise<number> | null = null;
  let foldTimer: NodeJS.Timeout | undefined;
  let foldFailing = false;
  const fold = (): Promise<number> => {
    if (folding) return folding.then(() => (pendingStats ? fold() : 0));
    pendingStats = false;
    const run = foldStats(db)
      .then(
        (n) => {
          if (foldFailing) log?.info('store: stats folded again');
          foldFailing = false;
          return n;
        },
        (e) => {
          pendingStats = true;
          throw e;
        },
      )
      .finally(() => {
        folding = null;
      });
    folding = run;
    return run;
  };
  const scheduleFold = () => {
    if (!rollups || foldMs <= 0 || foldTimer || closed) return;
    foldTimer = setTimeout(() => {
      foldTimer = undefined;
      if (closed || !pendingStats) return;
      fold().catch((e) => {
        // The rows stay pending: the next timer, read or ingest tries again.
        if (!foldFailing)
          log?.warn(`store: folding the stats failed (${e instanceof Error ? e.message : String(e)}); retrying`);
        foldFailing = true;
        scheduleFold();
      });
    }, foldMs);
    foldTimer.unref?.();
  };
  scheduleFold();

  const store = {
    kind: db.kind,
    /** The generated Prisma client on the same connection (for ad-hoc reads). */
    prisma,
    /** Raw SQL on the store's connection (tests, benches, migrations checks). */
    query: <T = Record<string, unknown>>(sql: string, args?: unknown[]) => live(() => db.query<T>(sql, args)),

    /** Stores validated envelopes idempotently; see ingest.ts. */
    ingestEnvelopes: (items: readonly IngestItem[]): Promise<IngestResult> =>
      live(async () => {
        const due = partitions.beforeIngest();
        if (due) await due;
        const r = await ingestBatch(db, items, epochSeconds, { statsRollups: rollups });
        if (r.inserted > 0 && rollups) {
          pendingStats = true;
          scheduleFold();
        }
        return r;
      }),
    /** Adds the stats ingest left pending to the rollups now (stats.ts foldStats); the rows folded. */
    foldStats: () => live(() => (rollups ? fold() : Promise.resolve(0))),
    /** The envelope table's epoch-range partitions; see partitions.ts. */
    envelopePartitions: {
      span: partitions.span,
      /** Creates the partitions covering epochs from..to (before importing old envelopes). */
      cover: (from: number, to: number) => live(() => partitions.cover(from, to)),
      list: () => live(() => partitions.list()),
    },

    /** Records drops and bumps the per-reason counters in one transaction. */
    recordDrops: (drops: readonly DropRecord[]) =>
      live(async () => {
        if (drops.length === 0) return;
        const counts = new Map<string, number>();
        for (const d of drops) counts.set(d.reason, (counts.get(d.reason) ?? 0) + 1);
        const reasons = [...counts.keys()].sort();
        await db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO "drop" (reason, peer, source, detail, at) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])`,
            [
              drops.map((d) => d.reason),
              drops.map((d) => d.peer ?? null),
              drops.map((d) => d.source ?? null),
              drops.map((d) => d.detail ?? null),
              drops.map((d) => (d.at ?? new Date()).toISOString()),
            ],
          );
          await tx.query(
            `INSERT INTO drop_counter (reason, count) SELECT * FROM unnest($1::text[], $2::int8[])
          ON CONFLICT (reason) DO UPDATE SET count = drop_counter.count + excluded.count`,
            [reasons, reasons.map((r) => String(counts.get(r)))],
          );
        });
      }),
    dropCounts: () => live(() => q.dropCounts(db)),
    countsByType: () => live(() => q.countsByType(db)),
    /** One metric of the economy over time from the rollups (stats.ts). */
    statsSeries: (p: StatsSeriesParams) =>
      live(async () => {
        if (pendingStats || folding) await fold();
        return statsSeries(db, p);
      }),
    recentEnvelopes: (p?: Parameters<typeof q.recentEnvelopes>[1]) =>
      live(() => q.recentEnvelopes(db, p, epochSeconds)),
    getEnvelope: (id: Uint8Array) => live(() => q.getEnvelope(db, id)),
    /** A window's envelopes in (timestamp, id) order, keyset-paged; see replay.ts. */
    replayEnvelopes: (p: ReplayParams) => live(() => replayEnvelopes(db, p, epochSeconds)),
    listAgents: (p?: { limit?: number }) => live(() => q.listAgents(db, p)),
    getAgent: (id: Uint8Array) => live(() => q.getAgent(db, id)),
    /** Marks agents online/offline (the observer knows who is connected). */
    setAgentsOnline: (ids: readonly Uint8Array[], online: boolean) =>
      live(async () => {
        await prisma.agent.updateMany({ where: { id: { in: ids.map((i) => new Uint8Array(i)) } }, data: { online } });
      }),
    setAgentLabel: (id: Uint8Array, label: string | null) =>
      live(async () => {
        const now = new Date();
        await prisma.agent.upsert({
          where: { id: new Uint8Array(id) },
          create: { id: new Uint8Array(id), label, firstSeen: now, lastSeen: now },
          update: { label },
        });
      }),
    conversationGraph: (p?: { limit?: number }) => live(() => q.conversationGraph(db, p)),
    listConversations: (p?: q.ListConversationsParams) => live(() => q.listConversations(db, p)),
    getConversation: (id: Uint8Array) => live(() => q.getConversation(db, id)),
    /** The negotiators of each of these conversations, by id hex (queries.ts). */
    conversationNegotiators: (ids: readonly Uint8Array[]) => live(() => q.conversationNegotiators(db, ids)),
    /** Conversations of one agent counted up to `cap` (queries.ts). */
    countAgentConversations: (agent: Uint8Array, cap: number) => live(() => q.countAgentConversations(db, agent, cap)),
    feedbackFor: (agent: Uint8Array, limit?: number) => live(() => q.feedbackFor(db, agent, limit)),
    /** Per agent: FEEDBACK about it and how much comes from senders with no stake and no deal with it (feedback-backing.ts). */
    feedbackBacking: (agents: readonly Uint8Array[]) => live(() => feedbackBacking(db, agents)),
    unbackedSenders: (agent: Uint8Array) => live(() => unbackedSenders(db, agent)),
    /** Collusion signals per agent over a bounded window of recent rows; see collusion.ts. */
    collusionSignals: (p?: CollusionParams) => live(() => collusionSignals(db, p)),
    /** Id prefixes, labels, batches, challenges, signatures; see search.ts. */
    search: (t: find.SearchTerms) => live(() => find.search(db, t)),
    /** Filtered, keyset-paged conversations; see search.ts. */
    listConversationsPage: (f: find.ConversationFilter) => live(() => find.listConversationsPage(db, f)),
    /** Filtered, sorted, keyset-paged agents with reputation and stake; see agent-list.ts. */
    listAgentsPage: (f: AgentFilter) => live(() => listAgentsPage(db, f)),

    getReputation: (agentId: Uint8Array, kind: 'gossip' | 'batch' = 'gossip') =>
      live(async (): Promise<ReputationRow | null> => {
        if (kind === 'gossip') {
          // The stored fold brought up to date with the feedback stored since (reputation.ts).
          const g = await gossipReputation(db, agentId);
          return g ? { ...g, agentId: new Uint8Array(agentId), kind } : null;
        }
        const r = await prisma.reputationState.findUnique({
          where: { agentId_kind: { agentId: new Uint8Array(agentId), kind } },
        });
        return r
          ? {
              agentId: new Uint8Array(r.agentId),
              kind: r.kind as 'gossip' | 'batch',
              reliabilityScore: r.reliabilityScore,
              cooperationIndex: r.cooperationIndex,
              notaryAccuracy: r.notaryAccuracy,
              totalTasks: r.totalTasks,
              totalNotarized: r.totalNotarized,
              totalDisputes: r.totalDisputes,
              lastEpoch: r.lastEpoch,
              updatedAt: r.updatedAt,
            }
          : null;
      }),
    /** Writes a reputation row as given (a gossip row folds no feedback then: the next read refolds if there is any). */
    upsertReputation: (row: Omit<ReputationRow, 'updatedAt'> & { updatedAt?: Date }) =>
      live(async () => {
        const data = {
          ...row,
          agentId: new Uint8Array(row.agentId),
          updatedAt: row.updatedAt ?? new Date(),
          folded: 0,
          lastTs: null,
          lastFeedback: null,
        };
        await prisma.reputationState.upsert({
          where: { agentId_kind: { agentId: data.agentId, kind: row.kind } },
          create: data,
          update: data,
        });
      }),

    /** Adds a signer key for an agent (idempotent by agent + key). docs/protocol.md §2 "Signer". */
    registerSignerKey: (k: {
      agentId: Uint8Array;
      publicKey: Uint8Array;
      role?: 'owner' | 'delegate';
      source?: 'local' | 'chain';
    }) =>
      live(async () => {
        if (!(k.agentId instanceof Uint8Array) || k.agentId.length !== 32)
          throw new TypeError('agentId must be 32 bytes');
        if (!(k.publicKey instanceof Uint8Array) || k.publicKey.length !== 32)
          throw new TypeError('publicKey must be 32 bytes');
        await db.query(
          `INSERT INTO signer_key (agent_id, public_key, role, source) VALUES ($1, $2, $3::"SignerRole", $4::"KeySource")
        ON CONFLICT (agent_id, public_key) DO UPDATE SET role = excluded.role, source = excluded.source`,
          [k.agentId, k.publicKey, k.role ?? 'owner', k.source ?? 'local'],
        );
      }),
    removeSignerKey: (agentId: Uint8Array, publicKey: Uint8Array) =>
      live(async () => {
        await prisma.signerKey.deleteMany({
          where: { agentId: new Uint8Array(agentId), publicKey: new Uint8Array(publicKey) },
        });
      }),
    /** SignerRegistry.keysFor (lib/protocol/types.ts): keys in registration order; [] if unknown. */
    keysFor: (agentId: Uint8Array): Promise<readonly Uint8Array[]> =>
      live(async () => {
        const rows = await prisma.signerKey.findMany({
          where: { agentId: new Uint8Array(agentId) },
          orderBy: { id: 'asc' },
        });
        return rows.map((r) => new Uint8Array(r.publicKey));
      }),

    // Chain tables.
    upsertStake: (s: chain.StakeInput) => live(() => chain.upsertStake(db, s)),
    upsertLease: (l: chain.LeaseInput) => live(() => chain.upsertLease(db, l)),
    upsertBatch: (b: chain.BatchInput) => live(() => chain.upsertBatch(db, b)),
    setBatchStatus: (
      agentId: Uint8Array,
      epoch: bigint,
      status: chain.BatchStatus,
      logRoot?: Uint8Array,
      built?: Parameters<typeof chain.setBatchStatus>[5],
    ) => live(() => chain.setBatchStatus(db, agentId, epoch, status, logRoot, built)),
    upsertChallenge: (c: chain.ChallengeInput) => live(() => db.transaction((tx) => chain.upsertChallenge(tx, c))),
    insertChainEvents: (e: readonly chain.ChainEventInput[]) => live(() => chain.insertChainEvents(db, e)),
    /** Upserts many stakes in one statement (slot-monotonic); returns rows written. */
    upsertStakes: (rows: readonly chain.StakeInput[]) => live(() => upsertStakes(db, rows)),
    /** Upserts many leases in one statement, keeping the stored last paid epoch where the input has none. */
    upsertLeasesKeepPaid: (rows: readonly LeaseKeepPaidInput[]) => live(() => upsertLeasesKeepPaid(db, rows)),
    /** Count of stored chain events per event name. */
    chainEventCounts: () => live(() => chainEventCounts(db)),
    chainTotals: () => live(() => chainTotals(db)),
    /** Every stored chain event key (signature, index, name) in slot order. */
    chainEventKeys: () => live(() => chainEventKeys(db)),
    /**
     * Runs one chain-indexer step in one transaction: every row and
     * event write of the step commits once. Postgres: `synchronous_commit = off` for this
     * transaction only; the indexer replays from its cursors, so a commit lost in a crash is
     * re-applied (writes are idempotent) and the cursors never pass what was lost (WAL order).
     */
    chainTransaction: <T>(fn: (tx: ChainTxStore) => Promise<T>) =>
      live(() =>
        db.transaction(async (tx) => {
          if (db.kind === 'postgres') await tx.query('SET LOCAL synchronous_commit = off');
          return fn(chainTxStore(tx));
        }),
      ),
    getCursor: (name: string) => live(() => chain.getCursor(db, name)),
    setCursor: (c: chain.Cursor) => live(() => chain.setCursor(db, c)),
    listStakes: () => live(() => chain.listStakes(db)),
    listLeases: () => live(() => chain.listLeases(db)),
    listBatches: (p?: Parameters<typeof chain.listBatches>[1]) => live(() => chain.listBatches(db, p)),
    listChallenges: (p?: Parameters<typeof chain.listChallenges>[1]) => live(() => chain.listChallenges(db, p)),
    /** Filtered, sorted, keyset-paged batches and challenges for the lists (chain-list.ts). */
    listBatchesPage: (f: BatchPageFilter) => live(() => listBatchesPage(db, f)),
    listChallengesPage: (f: ChallengePageFilter) => live(() => listChallengesPage(db, f)),
    listChainEvents: (p?: Parameters<typeof chain.listChainEvents>[1]) => live(() => chain.listChainEvents(db, p)),
    /** The newest `limit` stored reputation points of one kind, oldest first (reputation-points.ts). */
    reputationPoints: (agent: Uint8Array, kind: PointKind, limit: number) =>
      live(() => readReputationPoints(db, agent, kind, limit)),
    /** One agent's stake and lease rows (agent-chain.ts). */
    agentStakeLease: (agent: Uint8Array) => live(() => agentStakeLease(db, agent)),
    /** A page of one agent's batches with their reconciliation, authoritative point and challenge count (agent-chain.ts). */
    listAgentBatches: (agent: Uint8Array, p: { limit: number; before?: bigint; epoch?: bigint }) =>
      live(() => listAgentBatches(db, agent, p)),
    /** The agent's first, last and newest verified batch epochs and its newest batch point (agent-chain.ts). */
    authoritativeBasis: (agent: Uint8Array) => live(() => authoritativeBasis(db, agent)),
    /** Folds verified batches that have no authoritative point yet, at most `limit` (reputation-points.ts). */
    backfillBatchPoints: (limit?: number) => live(() => backfillBatchPoints(db, limit)),
    /** Stores an agent's uploaded epoch log (ordered envelope ids); see epoch-log.ts for the replace rule. */
    saveEpochLog: (agent: Uint8Array, epoch: bigint, ids: readonly Uint8Array[], opts?: { replace: boolean }) =>
      live(() => saveEpochLog(db, agent, epoch, ids, opts)),
    /** The uploaded epoch log of (agent, epoch) with envelope bytes, in order; [] when none. */
    epochLog: (agent: Uint8Array, epoch: bigint) => live(() => epochLogEntries(db, agent, epoch)),
    /** Unverified batches whose log is stored now (late uploads); see epoch-log.ts. */
    unverifiedBatchesWithLog: (limit?: number) => live(() => unverifiedBatchesWithLog(db, limit)),
    /** Stores a batch uploaded with its log (batch-upload.ts); read back only when its hash is the on-chain one. */
    saveBatchUpload: (agent: Uint8Array, epoch: bigint, hash: Uint8Array, cbor: Uint8Array) =>
      live(() => saveBatchUpload(db, agent, epoch, hash, cbor)),
    /** The uploaded batch CBOR matching the on-chain batch_hash of (agent, epoch), or null. */
    onChainBatchUpload: (agent: Uint8Array, epoch: bigint) => live(() => onChainBatchUpload(db, agent, epoch)),

    /** Stores haggle events in chain order (idempotent); returns the transitions that were new. See haggle.ts. */
    applyHaggleEvents: (e: readonly HaggleEventInput[]) => live(() => db.transaction((tx) => applyHaggleEvents(tx, e))),
    /** The on-chain (Haggle) negotiations of one 0x01 conversation with their transitions. */
    onChainNegotiations: (conversationId: Uint8Array) => live(() => onChainNegotiations(db, conversationId)),
    /** The latest on-chain negotiations, newest first, optionally of one status. */
    recentOnChainNegotiations: (p?: { status?: string; limit?: number }) =>
      live(() => recentOnChainNegotiations(db, p)),
    /** The uploaded logs among `agents` that hold `envelopeId` (inclusion proofs); see inclusion.ts. */
    epochLogsWith: (envelopeId: Uint8Array, agents: readonly Uint8Array[]) =>
      live(() => epochLogsWith(db, envelopeId, agents)),
    /** One agent's chain events by name, in chain order; see agent-events.ts. */
    agentChainEvents: (agentBase58: string, names: readonly string[], limit?: number) =>
      live(() => agentChainEvents(db, agentBase58, names, limit)),
    /** One agent's indexed stake and lease rows; see agent-events.ts. */
    agentAccounts: (agentId: Uint8Array) => live(() => agentAccounts(db, agentId)),
    /** An agent's negotiating counterparties with conversation and deal counts; see counterparties.ts. */
    counterpartiesOf: (agent: Uint8Array, limit?: number) => live(() => counterpartiesOf(db, agent, limit)),
    /** Gossip ↔ chain reconciliation (reconciliation.ts): totals and rows as stored at each verdict, one agent-epoch live. */
    reconciliationTotals: () => live(() => reconciliationTotals(db)),
    listReconciliation: (p?: { agent?: Uint8Array; limit?: number }) => live(() => listReconciliation(db, p)),
    reconciliationDetail: (agent: Uint8Array, epoch: bigint) => live(() => reconciliationDetail(db, agent, epoch)),
    /** The dispute desk (disputes.ts): DISPUTE envelopes newest first, one with its opinions, and a checked opinion stored. */
    listDisputes: (p?: ListDisputesParams) => live(() => listDisputes(db, p)),
    disputeCounts: () => live(() => disputeCounts(db)),
    getDispute: (id: Uint8Array) => live(() => getDispute(db, id)),
    disputeOpinions: (id: Uint8Array) => live(() => disputeOpinions(db, id)),
    saveDisputeOpinion: (o: Omit<OpinionRow, 'receivedAt'> & { receivedAt?: Date }) =>
      live(() => saveDisputeOpinion(db, o)),
    /** Marks the opinions of exactly these reviewers as counted (the deployment's list, at start); how many rows changed. */
    setDisputeReviewers: (reviewers: readonly Uint8Array[]) => live(() => setDisputeReviewers(db, reviewers)),
    conversationPayloads: (conversationId: Uint8Array, types: readonly number[]) =>
      live(() => conversationPayloads(db, conversationId, types)),
    /** Mesh health rows (mesh-health.ts): written by the observer per interval, read by the mesh page. */
    writeMeshHealth: (rows: readonly MeshHealthRow[]) => live(() => writeMeshHealth(db, rows)),
    readMeshHealth: (p: MeshHealthRange & { topic?: string; observer?: string }) => live(() => readMeshHealth(db, p)),
    meshHealthObservers: (p: MeshHealthRange) => live(() => meshHealthObservers(db, p)),
    pruneMeshHealth: (res: MeshHealthRes, before: number) => live(() => pruneMeshHealth(db, res, before)),
    /** Dataset export reads (lib/store/export.ts, docs/datasets.md). */
    exportSource: (reader?: ExportReader) => exportSource(db, epochSeconds, reader),
    /** Watchlists, alerts and the webhook outbox (alerts.ts, driven by lib/alerts). */
    alerts: alertsStore(db),
    /** Wallet signatures accepted once, by their decoded bytes, across restarts (used-signatures.ts). */
    usedSignatures: usedSignatures(db),

    /** Cross-process live updates: Postgres NOTIFY (payload ≤ 8,000 bytes); PGlite in-process. */
    notify: (channel: string, payload: string) => live(() => db.notify(channel, payload)),
    /** Many NOTIFYs on `channel` in one query, in order; each payload is a JSON object's text. */
    notifyMany: (channel: string, payloads: readonly string[]) => live(() => db.notifyMany(channel, payloads)),
    listen: (channel: string, fn: (payload: string) => void) => live(() => db.listen(channel, fn)),

    health: async (): Promise<StoreHealth> => {
      const base = { database: db.kind, envelopes: 0, agents: 0, conversations: 0, drops: 0 };
      if (closed) return { ...base, ok: false, error: 'store is closed' };
      try {
        const [r] = await db.query<Record<string, string>>(`SELECT
          (SELECT COALESCE(sum(count), 0)::text FROM msg_type_counter) AS envelopes,
          (SELECT count(*)::text FROM agent) AS agents,
          (SELECT count(*)::text FROM conversation) AS conversations,
          (SELECT COALESCE(sum(count), 0)::text FROM drop_counter) AS drops`);
        return {
          ok: true,
          database: db.kind,
          envelopes: Number(r.envelopes),
          agents: Number(r.agents),
          conversations: Number(r.conversations),
          drops: Number(r.drops),
        };
      } catch (e) {
        return { ...base, ok: false, error: e instanceof Error ? e.message : String(e) };
      }
    },
    close: async () => {
      if (closed) return;
      if (foldTimer) clearTimeout(foldTimer);
      if (rollups && (pendingStats || folding))
        await fold().catch((e) =>
          log?.warn(
            `store: folding the stats on close failed (${e instanceof Error ? e.message : String(e)}); the next open folds them`,
          ),
        );
      closed = true;
      await prisma.$disconnect().catch(() => undefined);
      await db.close();
    },
  };
  store satisfies SignerRegistry;
  return store;
}

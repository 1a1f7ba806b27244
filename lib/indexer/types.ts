/**
 * Shapes of the chain indexer. The store is structural: the Store of lib/store satisfies it
 * (its named chain-table methods; the indexer runs no SQL of its own), so tests and other stores
 * can stand in without lib/chain depending on Prisma.
 */
import type { Connection, PublicKey } from '../chain';
import type { ProgramName } from '../chain/events';
import type { BehaviorBatch } from '../protocol/batch';
import type { HaggleEventInput } from '../store/chain';
import type { BatchCheck } from '../wire/chain-events';
import type { ChainLiveEvent, HaggleLiveEvent } from '../wire/events';

export type { BatchCheck };

/** The lib/store methods the indexer uses (lib/store/chain/chain.ts and chain-index.ts signatures); no raw SQL. */
export interface IndexerStore {
  upsertStakes(
    rows: readonly {
      agentId: Uint8Array;
      owner?: Uint8Array | null;
      amount: bigint;
      status: string;
      unlockSlot?: bigint | null;
      slot: bigint;
    }[],
  ): Promise<number>;
  upsertLeasesKeepPaid(
    rows: readonly {
      agentId: Uint8Array;
      paidThroughEpoch: bigint;
      lastPaidEpoch: bigint | null;
      missedEpochs: number;
      active: boolean;
      slot: bigint;
    }[],
  ): Promise<number>;
  /**
   * The agent's uploaded log of `epoch` in order with each envelope's bytes (raw null when not stored); [] when none.
   */
  epochLog(agent: Uint8Array, epoch: bigint): Promise<{ position: number; id: Uint8Array; raw: Uint8Array | null }[]>;
  /** Optional: batches still unverified whose log is stored now (lib/store epoch-log.ts), checked on every poll. */
  unverifiedBatchesWithLog?(
    limit?: number,
  ): Promise<{ agentId: Uint8Array; epoch: bigint; root: Uint8Array; data?: unknown }[]>;
  upsertStake(s: {
    agentId: Uint8Array;
    owner?: Uint8Array | null;
    amount: bigint;
    status: string;
    unlockSlot?: bigint | null;
    slot: bigint;
  }): Promise<boolean>;
  upsertLease(l: {
    agentId: Uint8Array;
    paidThroughEpoch: bigint;
    lastPaidEpoch?: bigint | null;
    missedEpochs?: number;
    active: boolean;
    slot: bigint;
  }): Promise<boolean>;
  upsertBatch(b: {
    agentId: Uint8Array;
    epoch: bigint;
    batchHash: Uint8Array;
    root: Uint8Array;
    slot: bigint;
    signature?: string | null;
    data?: unknown;
  }): Promise<boolean>;
  /**
   * `built`: the batch the check built from the log, for the authoritative fold kept per batch (lib/store
   * reputation-points.ts).
   */
  setBatchStatus(
    agentId: Uint8Array,
    epoch: bigint,
    status: BatchCheck,
    logRoot?: Uint8Array,
    built?: Pick<BehaviorBatch, 'feedbackEvents' | 'disputes'>,
  ): Promise<boolean>;
  /** Optional: folds verified batches that have no authoritative point yet (lib/store reputation-points.ts). */
  backfillBatchPoints?(limit?: number): Promise<{ looked: number; folded: number }>;
  upsertChallenge(c: {
    address: string;
    agentId: Uint8Array;
    epoch: bigint;
    challenger: Uint8Array;
    status: string;
    slot: bigint;
    signature: string;
    data?: unknown;
  }): Promise<{ transitioned: boolean }>;
  insertChainEvents(
    e: readonly {
      signature: string;
      index: number;
      slot: bigint;
      program: string;
      name: string;
      data: unknown;
      blockTime?: Date | null;
    }[],
  ): Promise<{ inserted: number; duplicates: number; newKeys: { signature: string; index: number }[] }>;
  getCursor(name: string): Promise<{ name: string; signature: string | null; slot: bigint } | null>;
  setCursor(c: { name: string; signature: string | null; slot: bigint }): Promise<void>;
  /** Haggle events in chain order (lib/store/chain/haggle.ts); returns the transitions that were new. */
  applyHaggleEvents(e: readonly HaggleEventInput[]): Promise<number>;
  listBatches(p?: { agent?: Uint8Array; epoch?: bigint; status?: BatchCheck }): Promise<
    {
      agentId: Uint8Array;
      epoch: bigint;
      batchHash: Uint8Array;
      root: Uint8Array;
      slot: bigint;
      signature?: string | null;
      status: BatchCheck;
      logRoot: Uint8Array | null;
      data?: unknown;
      /** The block time of the batch's transaction where an indexed event carries it. */
      blockTime?: Date | null;
    }[]
  >;
  /**
   * Optional: runs `fn` in one store transaction with the same methods bound to it (lib/store
   * Store.chainTransaction). The indexer applies each step through it, so a step of up to 64
   * transactions commits once; without it every write commits on its own.
   */
  chainTransaction?<T>(fn: (tx: IndexerTxStore) => Promise<T>): Promise<T>;
}

/** The store methods available inside {@link IndexerStore.chainTransaction}. */
export type IndexerTxStore = Omit<IndexerStore, 'chainTransaction'>;

/** A live event of the indexer (lib/wire ChainLiveEvent, HaggleLiveEvent). */
export type IndexerLiveEvent = ChainLiveEvent | HaggleLiveEvent;

/** The publish side of the observer's live bus. */
export interface IndexerBus {
  publish(event: IndexerLiveEvent): void;
}

export interface IndexerLogger {
  info(msg: string, meta?: Record<string, unknown>): void;
  warn(msg: string, meta?: Record<string, unknown>): void;
  error(msg: string, meta?: Record<string, unknown>): void;
}

/** What the indexer did with one transaction (bench and tests hook). */
export interface ProcessedTx {
  signature: string;
  slot: number;
  /** Events decoded / newly stored (the rest were already there). */
  events: number;
  inserted: number;
  via: 'live' | 'catchup';
  /** performance.now() when the rows were stored. */
  storedAt: number;
}

/** Options of startChainIndexer. */
export interface StartChainIndexerParams {
  connection: Connection;
  store: IndexerStore;
  bus?: IndexerBus;
  /** Program ids to follow (default lib/chain/gen/ids.ts). */
  programIds?: Partial<Record<ProgramName, PublicKey>>;
  logger?: IndexerLogger;
  /** Prefix of the stored cursors (one per program: `<name>:<program>`). Default 'chain-indexer'. */
  cursorName?: string;
  /**
   * Epoch length (default: behavior_log Config's epoch_seconds); verification needs none since it checks uploaded logs.
   */
  epochSeconds?: bigint;
  /** Catch-up by signatures every pollMs (covers missed notifications; default 2,000). */
  pollMs?: number;
  /** Re-check unverified/mismatched batches of the last N epochs on every poll (default 3). */
  reverifyEpochs?: number;
  /** Use logsSubscribe (default true); false = polling only. */
  subscribe?: boolean;
  onProcessed?: (tx: ProcessedTx) => void;
}

/** A running indexer. */
export interface ChainIndexer {
  /** Runs one catch-up pass now (from the stored cursors); resolves to transactions processed. */
  catchUp(): Promise<number>;
  /** Resolves once every notification received so far is processed. */
  idle(): Promise<void>;
  /** Re-checks a batch (or all unverified/mismatched recent ones) against the uploaded logs. */
  verifyBatches(p?: {
    agent?: PublicKey;
    epoch?: bigint;
  }): Promise<{ verified: number; mismatch: number; unverified: number }>;
  stats(): { processed: number; live: number; catchup: number; events: number; errors: number };
  stop(): Promise<void>;
}

/**
 * The observer through a database outage (lib/observer/README.md "Database outage"). The mesh
 * keeps gossiping whatever the database does, so the observer keeps validating and accepting;
 * what it accepted waits in the ingest queue while every write that failed because the database
 * is unreachable is retried with backoff until it commits. The queue is bounded by envelopes and
 * by raw bytes: at the bound a newly accepted envelope is not queued (drop-newest) and is counted
 * as a drop, `store_unavailable` during an outage and `store_backlog` when the database is up but
 * behind. Drop-newest keeps every envelope already queued: once buffered, an envelope is stored
 * (exactly once: the envelope id is the primary key, so a retried batch whose first COMMIT did
 * land inserts nothing twice). Only stopping the process during an outage loses the buffer.
 */

import type { IngestItem, IngestResult } from '../store';
import { type IngestTarget, isStoreUnavailable } from '../store';

import { DEFAULT_INGEST_BUFFER, type IngestBufferLimits } from './config';

// The buffer's bounds are configuration defaults (INGEST_BUFFER_ENVELOPES, INGEST_BUFFER_MB), kept
// with the others in ./config; re-exported for the observer's callers.
export { DEFAULT_INGEST_BUFFER, type IngestBufferLimits };
/** Retry delays of a failed write: doubling from the first to the last, ±20% jitter. */
export const RETRY_FIRST_MS = 100;
export const RETRY_LAST_MS = 2_000;

/** Why an accepted envelope was not queued. */
export type ShedReason = 'store_unavailable' | 'store_backlog';

/** `store` of /api/health (HealthReport): the ingest side of the database. */
export interface StoreStatus {
  /** False from the first failed write or probe of an outage until the next success. */
  ok: boolean;
  /** Start of the current outage (ISO 8601); absent while ok. */
  since?: string;
  /** The last error that said the database is unreachable (kept after recovery). */
  lastError?: string;
  /** Outages since start. */
  outages: number;
  /** Envelopes accepted and not yet stored (waiting or in flight), and their raw bytes. */
  buffered: number;
  bufferedBytes: number;
  /** The most envelopes buffered at once since start. */
  bufferedPeak: number;
  /** Accepted envelopes not queued because the buffer was full, since start. */
  shed: number;
  /** Writes retried since start. */
  retries: number;
}

/** What the guard reads of the ingest queue. */
export interface QueueLevel {
  readonly pending: number;
  readonly pendingBytes: number;
}

export interface StoreGuard {
  /** `store`'s ingest with writes retried while the database is unreachable. */
  wrap(store: IngestTarget & { kind: 'pglite' | 'postgres' }): IngestTarget & { kind: 'pglite' | 'postgres' };
  readonly ok: boolean;
  /** A failure seen outside the ingest (the health probe); true when it means unreachable. */
  failed(err: unknown): boolean;
  /** A success seen outside the ingest: ends an outage and wakes the waiting retries. */
  succeeded(): void;
  /** Undefined when one more envelope of `bytes` fits in the buffer, else why it is shed (and counted). */
  admit(queue: QueueLevel, bytes: number): ShedReason | undefined;
  status(queue: QueueLevel): StoreStatus;
  /** Stops retrying: writes waiting for a retry fail with their last error (process stop). */
  halt(): void;
}

export interface StoreGuardParams {
  clock: () => number;
  limits?: Partial<IngestBufferLimits>;
  onDown?: (err: unknown) => void;
  onUp?: (downMs: number) => void;
  retry?: { firstMs: number; lastMs: number };
}

const message = (e: unknown) => String((e as Error)?.message ?? e).slice(0, 300);

export function createStoreGuard(params: StoreGuardParams): StoreGuard {
  const { clock } = params;
  const limits: IngestBufferLimits = { ...DEFAULT_INGEST_BUFFER, ...params.limits };
  const firstMs = params.retry?.firstMs ?? RETRY_FIRST_MS;
  const lastMs = params.retry?.lastMs ?? RETRY_LAST_MS;
  let downSince: number | undefined;
  let lastError: string | undefined;
  let outages = 0;
  let peak = 0;
  let shed = 0;
  let retries = 0;
  let halted = false;
  const sleepers = new Set<() => void>();

  const wake = () => {
    for (const f of [...sleepers]) f();
  };
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        sleepers.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      sleepers.add(done);
    });

  function failed(err: unknown): boolean {
    if (!isStoreUnavailable(err)) return false;
    lastError = message(err);
    if (downSince === undefined) {
      downSince = clock();
      outages++;
      params.onDown?.(err);
    }
    return true;
  }

  function succeeded(): void {
    if (downSince !== undefined) {
      const ms = clock() - downSince;
      downSince = undefined;
      params.onUp?.(ms);
    }
    wake();
  }

  async function ingestWithRetry(store: IngestTarget, items: readonly IngestItem[]): Promise<IngestResult> {
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await store.ingestEnvelopes(items);
        succeeded();
        return r;
      } catch (e) {
        if (halted || !failed(e)) throw e;
        retries++;
        const base = Math.min(lastMs, firstMs * 2 ** Math.min(attempt, 20));
        await nap(base * (0.8 + Math.random() * 0.4));
        if (halted) throw e;
      }
    }
  }

  return {
    wrap: (store) => ({ kind: store.kind, ingestEnvelopes: (items) => ingestWithRetry(store, items) }),
    get ok() {
      return downSince === undefined;
    },
    failed,
    succeeded,
    admit(queue, bytes) {
      if (queue.pending + 1 > limits.maxEnvelopes || queue.pendingBytes + bytes > limits.maxBytes) {
        shed++;
        return downSince === undefined ? 'store_backlog' : 'store_unavailable';
      }
      if (queue.pending + 1 > peak) peak = queue.pending + 1;
      return undefined;
    },
    status(queue) {
      const s: StoreStatus = {
        ok: downSince === undefined,
        outages,
        buffered: queue.pending,
        bufferedBytes: queue.pendingBytes,
        bufferedPeak: Math.max(peak, queue.pending),
        shed,
        retries,
      };
      if (downSince !== undefined) s.since = new Date(downSince).toISOString();
      if (lastError !== undefined) s.lastError = lastError;
      return s;
    },
    halt() {
      halted = true;
      wake();
    },
  };
}

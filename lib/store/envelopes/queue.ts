/**
 * Write-behind ingest queue: many `push` calls coalesce into one
 * multi-row transaction of at most `maxBatch` envelopes, sent when full or `maxDelayMs` after
 * the first item waits. Each push resolves once its batch is committed, telling whether this
 * item was new (only new ones go to the live feed).
 */
import type { IngestItem, IngestResult } from '../types';

export interface IngestQueueOptions {
  /** Largest batch per transaction (default 500). */
  maxBatch?: number;
  /** Longest wait before a partial batch is written (default 10 ms). */
  maxDelayMs?: number;
  /** Batches in flight at once (default 2 on Postgres, 1 on PGlite). */
  concurrency?: number;
  /**
   * Called after each committed batch with the items it stored (each new envelope once, in
   * batch order) and its result (e.g. to publish live events).
   */
  onCommit?: (stored: readonly IngestItem[], result: IngestResult) => void;
}

export interface PushResult {
  /** True when this call stored the envelope; false for a duplicate. */
  inserted: boolean;
}

export interface IngestQueue {
  push(item: IngestItem): Promise<PushResult>;
  pushMany(items: readonly IngestItem[]): Promise<PushResult[]>;
  /** Writes everything queued so far and waits for it. */
  flush(): Promise<void>;
  /** Items waiting or in flight (for backpressure). */
  readonly pending: number;
  /** Raw envelope bytes of the items waiting or in flight (for a byte bound on the backlog). */
  readonly pendingBytes: number;
  /** Flushes and rejects further pushes. */
  close(): Promise<void>;
}

interface Waiter {
  item: IngestItem;
  resolve: (r: PushResult) => void;
  reject: (e: unknown) => void;
}

/** Anything with the store's batch ingest. */
export interface IngestTarget {
  ingestEnvelopes(items: readonly IngestItem[]): Promise<IngestResult>;
  /** When 'postgres', two batches may be in flight by default. */
  readonly kind?: 'pglite' | 'postgres';
}

/** Creates a write-behind queue in front of `store.ingestEnvelopes`. */
export function createIngestQueue(store: IngestTarget, options: IngestQueueOptions = {}): IngestQueue {
  const maxBatch = options.maxBatch ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 10;
  const concurrency = options.concurrency ?? (store.kind === 'postgres' ? 2 : 1);
  if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError('maxBatch must be a positive integer');
  if (!(maxDelayMs >= 0)) throw new RangeError('maxDelayMs must be >= 0');
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer');

  let buf: Waiter[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = 0;
  let inFlightItems = 0;
  let bytes = 0;
  let closed = false;
  const idle: Array<() => void> = [];

  function schedule(): void {
    if (buf.length >= maxBatch) pump(false);
    else if (!timer && buf.length > 0)
      timer = setTimeout(() => {
        timer = undefined;
        pump(true);
      }, maxDelayMs);
  }

  /** Sends what may go now; a full batch waits only for a free slot (write() pumps again). */
  function pump(due: boolean): void {
    while (inFlight < concurrency && buf.length > 0 && (buf.length >= maxBatch || due || closed || flushing > 0)) {
      const batch = buf.slice(0, maxBatch);
      buf = buf.slice(batch.length);
      void write(batch);
    }
    if (buf.length > 0 && buf.length < maxBatch && !timer && inFlight < concurrency) {
      timer = setTimeout(() => {
        timer = undefined;
        pump(true);
      }, maxDelayMs);
    }
  }

  async function write(batch: Waiter[]): Promise<void> {
    inFlight++;
    inFlightItems += batch.length;
    try {
      const items = batch.map((w) => w.item);
      const res = await store.ingestEnvelopes(items);
      if (res.newIds.length === batch.length) {
        // Every item new and none repeated: the common case needs no id matching.
        for (const w of batch) w.resolve({ inserted: true });
        options.onCommit?.(items, res);
        return;
      }
      const fresh = new Set(
        res.newIds.map((id) => Buffer.from(id.buffer, id.byteOffset, id.byteLength).toString('hex')),
      );
      const stored: IngestItem[] = [];
      for (const w of batch) {
        const k = Buffer.from(w.item.id.buffer, w.item.id.byteOffset, w.item.id.byteLength).toString('hex');
        // The first waiter of an id gets `inserted`; repeats within the batch are duplicates.
        const inserted = fresh.delete(k);
        if (inserted) stored.push(w.item);
        w.resolve({ inserted });
      }
      if (stored.length > 0) options.onCommit?.(stored, res);
    } catch (e) {
      for (const w of batch) w.reject(e);
    } finally {
      inFlight--;
      inFlightItems -= batch.length;
      for (const w of batch) bytes -= w.item.raw.byteLength;
      if (buf.length > 0) pump(true);
      if (inFlight === 0 && buf.length === 0) for (const f of idle.splice(0)) f();
    }
  }

  let flushing = 0;
  const queue: IngestQueue = {
    push(item) {
      if (closed) return Promise.reject(new Error('ingest queue is closed'));
      return new Promise<PushResult>((resolve, reject) => {
        buf.push({ item, resolve, reject });
        bytes += item.raw.byteLength;
        schedule();
      });
    },
    pushMany(items) {
      return Promise.all(items.map((it) => queue.push(it)));
    },
    async flush() {
      if (inFlight === 0 && buf.length === 0) return;
      flushing++;
      try {
        const done = new Promise<void>((r) => idle.push(r));
        if (timer) {
          clearTimeout(timer);
          timer = undefined;
        }
        pump(true);
        await done;
      } finally {
        flushing--;
      }
    },
    get pending() {
      return buf.length + inFlightItems;
    },
    get pendingBytes() {
      return bytes;
    },
    async close() {
      await queue.flush();
      closed = true;
    },
  };
  return queue;
}

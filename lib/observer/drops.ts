/**
 * The drop recorder: every refused envelope is counted per reason at once (for `dropCounts()`),
 * kept (up to 10,000 between flushes) and, every 250 ms, written to the store and published as
 * one `drop` event per reason and interval, so a flood costs a few events, not one per envelope.
 */
import type { DropRecord, Store } from '../store';
import { dropEvents } from './events';
import type { LiveEvent } from './types';

/** How often buffered drops go to the store and the bus. */
export const DROP_FLUSH_MS = 250;
const DROP_BUFFER_MAX = 10_000;

/** See {@link createDropRecorder}. */
export interface DropRecorder {
  /** Counts one drop; `source` is how the envelope came (gossip, stream, upload). */
  count(reason: string, peer: string | undefined, source: string, detail?: string): void;
  /** Drops counted since start, per reason. */
  counts(): Record<string, number>;
  /** Writes and publishes what is buffered now. */
  flush(): Promise<void>;
  /** Stops the timer and flushes. */
  stop(): Promise<void>;
}

export interface DropRecorderParams {
  store: Pick<Store, 'recordDrops'>;
  /** Receives the `drop` events of one flush (`data`: reason, count this interval, total). */
  publish: (events: LiveEvent[]) => void;
  clock: () => number;
  onError: (err: unknown) => void;
  /** Flush interval, ms (default {@link DROP_FLUSH_MS}). */
  flushMs?: number;
}

/** Starts a recorder with its flush timer (unref'd: it never keeps the process alive). */
export function createDropRecorder(params: DropRecorderParams): DropRecorder {
  const { store, publish, clock, onError } = params;
  const totals: Record<string, number> = {};
  let buf: DropRecord[] = [];

  // Flushes run one after another: a flush called while the timer's write is in flight waits for
  // it, so "flushed" means those drops are in the store (not merely taken off the buffer).
  let chain: Promise<void> = Promise.resolve();
  function flush(): Promise<void> {
    const run = chain.then(write);
    chain = run.catch(() => undefined);
    return run;
  }

  async function write(): Promise<void> {
    if (buf.length === 0) return;
    const batch = buf;
    buf = [];
    const per: Record<string, number> = {};
    for (const d of batch) per[d.reason] = (per[d.reason] ?? 0) + 1;
    publish(dropEvents(per, totals, clock()));
    try {
      await store.recordDrops(batch);
    } catch (e) {
      // Kept for the next flush (the database may be down for a while), within the same cap.
      buf = batch.concat(buf).slice(0, DROP_BUFFER_MAX);
      onError(e);
    }
  }

  const timer = setInterval(() => void flush(), params.flushMs ?? DROP_FLUSH_MS);
  timer.unref?.();

  return {
    count(reason, peer, source, detail) {
      totals[reason] = (totals[reason] ?? 0) + 1;
      if (buf.length < DROP_BUFFER_MAX) buf.push({ reason, peer, source, detail, at: new Date(clock()) });
    },
    counts: () => ({ ...totals }),
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}

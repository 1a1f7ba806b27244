/**
 * Live events between processes on one Postgres (docs/architecture.md "Scale"): each
 * process NOTIFYs its events on {@link LIVE_CHANNEL}, chunked under Postgres's 8,000-byte payload
 * cap and tagged with its origin, and republishes what the others send. The SQL is lib/store's
 * (`notifyMany`, `listen`); this module decides what is sent and when.
 */
import type { Store } from '../store';
import { eventJson } from './events';
import type { LiveEvent } from './types';

/** LISTEN/NOTIFY channel carrying live events between processes on one Postgres. */
export const LIVE_CHANNEL = 'zerox1_live';
/** Postgres caps a NOTIFY payload at 8,000 bytes; an event longer than this is not sent. */
export const NOTIFY_MAX = 7_000;
const NOTIFY_PER_QUERY = 64; // payloads per NOTIFY query (~450 kB)
const NOTIFY_BACKLOG = 4_096; // payloads kept while the database is slow

/** The cross-process half of the live bus; see {@link createNotifyPump}. */
export interface NotifyPump {
  /** Queues `events` for the other processes (nothing on PGlite: no other process can LISTEN). */
  send(events: readonly LiveEvent[]): void;
  /** Resolves when every queued payload has been sent (or failed). */
  idle(): Promise<void>;
  /** LISTENs for the other processes' events; resolves to the unsubscribe function. */
  listen(onEvents: (events: LiveEvent[]) => void): Promise<() => Promise<void>>;
  /** Failures after this are not logged (the store is closing). */
  halt(): void;
}

export interface NotifyPumpParams {
  store: Pick<Store, 'kind' | 'notifyMany' | 'listen'>;
  /** Identifies this process: its own payloads, echoed back, are skipped unparsed. */
  origin: string;
  onError: (err: unknown) => void;
  channel?: string;
}

/**
 * Creates the pump. Payloads wait in a queue; one query at a time sends all that wait (one
 * transaction, one round trip), so a commit of 500 envelopes costs one NOTIFY query, not one per
 * 7 kB chunk. While the database stalls, only the newest {@link NOTIFY_BACKLOG} payloads are kept.
 */
export function createNotifyPump(params: NotifyPumpParams): NotifyPump {
  const { store, origin, onError } = params;
  const channel = params.channel ?? LIVE_CHANNEL;
  const originTag = `{"origin":"${origin}",`;
  let waiting: string[] = [];
  let pumping: Promise<void> | undefined;
  let halted = false;

  const pump = async () => {
    while (waiting.length > 0) {
      const payloads = waiting.splice(0, NOTIFY_PER_QUERY);
      try {
        await store.notifyMany(channel, payloads);
      } catch (e) {
        if (!halted) onError(e);
      }
    }
    pumping = undefined;
  };

  function send(events: readonly LiveEvent[]): void {
    if (events.length === 0 || store.kind !== 'postgres') return;
    let chunk: string[] = [];
    let size = 0;
    const flushChunk = () => {
      if (chunk.length === 0) return;
      waiting.push(`${originTag}"events":[${chunk.join(',')}]}`);
      chunk = [];
      size = 0;
    };
    for (const e of events) {
      const j = eventJson(e);
      if (j.length > NOTIFY_MAX) continue;
      if (size + j.length > NOTIFY_MAX) flushChunk();
      chunk.push(j);
      size += j.length + 1;
    }
    flushChunk();
    // a stalled database: keep the newest
    if (waiting.length > NOTIFY_BACKLOG) waiting = waiting.slice(-NOTIFY_BACKLOG);
    pumping ??= pump();
  }

  return {
    send,
    idle: async () => {
      await pumping;
    },
    listen: (onEvents) =>
      store.listen(channel, (payload) => {
        if (payload.startsWith(originTag)) return; // our own NOTIFY, echoed back: not parsed
        try {
          const m = JSON.parse(payload) as { origin: string; events: LiveEvent[] };
          if (m.origin !== origin && Array.isArray(m.events)) onEvents(m.events);
        } catch {
          /* a foreign payload on our channel: ignore */
        }
      }),
    halt() {
      halted = true;
    },
  };
}

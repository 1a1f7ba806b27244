/**
 * lib/store/engine: the database underneath every feature (lib/store/engine/README.md).
 * EnginePort: which database, the envelope table's partitions, NOTIFY/LISTEN between processes
 * and the health probe.
 */
import 'server-only';
import type { StoreHealth } from '../types';
import type { Db } from './db';
import type { EnvelopePartition, PartitionKeeper } from './partitions';
import type { PortContext } from './port';

export { isStoreUnavailable, MigrationError, StoreClosedError, StoreError } from './errors';
export { inBackgroundLane } from './lanes';
export { archiveWindowSeconds, type EnvelopePartition, maxWindowPartitions } from './partitions';

export interface EnginePort {
  /** Which database the store runs on. */
  readonly kind: Db['kind'];
  /** The envelope table's epoch-range partitions; see partitions.ts. */
  readonly envelopePartitions: {
    readonly span: number;
    /** Creates the partitions covering epochs from..to (before importing old envelopes). */
    cover(from: number, to: number): Promise<void>;
    list(): Promise<EnvelopePartition[]>;
  };
  /** Cross-process live updates: Postgres NOTIFY (payload ≤ 8,000 bytes); PGlite in-process. */
  notify(channel: string, payload: string): Promise<void>;
  /** Many NOTIFYs on `channel` in one query, in order; each payload is a JSON object's text. */
  notifyMany(channel: string, payloads: readonly string[]): Promise<void>;
  /** LISTEN on `channel`; resolves to an unsubscribe function. */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  health(): Promise<StoreHealth>;
}

export function enginePort(
  { db, live }: PortContext,
  partitions: PartitionKeeper,
  isClosed: () => boolean,
): EnginePort {
  return {
    kind: db.kind,
    envelopePartitions: {
      span: partitions.span,
      cover: (from, to) => live(() => partitions.cover(from, to)),
      list: () => live(() => partitions.list()),
    },
    notify: (channel, payload) => live(() => db.notify(channel, payload)),
    notifyMany: (channel, payloads) => live(() => db.notifyMany(channel, payloads)),
    listen: (channel, fn) => live(() => db.listen(channel, fn)),
    health: async () => {
      const base = { database: db.kind, envelopes: 0, agents: 0, conversations: 0, drops: 0 };
      if (isClosed()) return { ...base, ok: false, error: 'store is closed' };
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
  };
}

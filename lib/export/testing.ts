/**
 * Helpers for the export tests: a store with fixture deals on PGlite (in memory) or a fresh
 * Postgres database (TEST_DATABASE_URL), and independent readers of the three formats
 * (csv-parse, JSON.parse, hyparquet), so no test reads a file back with the writer's own code.
 */
import { parse } from 'csv-parse/sync';
import { parquetMetadata } from 'hyparquet';
import { openStore, type Store } from '../store';
import { createTestDatabase, testPostgresUrl } from '../store/testing';
import { type Fixture, loadFixture, makeDeals } from './deals-testing';
import { readParquetExact } from './parquet-read';

export const EPOCH_SECONDS = 3_600;

export interface FixtureStore {
  store: Store;
  fx: Fixture;
  /** The database's URL (Postgres only): for other processes on the same data. */
  url?: string;
  close(): Promise<void>;
}

/** `startUs`: the first deal's time (default 2026-01-01T00:00:00Z, an epoch boundary). */
export async function fixtureStore(kind: 'pglite' | 'postgres', deals = 40, startUs?: bigint): Promise<FixtureStore> {
  const fx = makeDeals({ deals, seed: 11, startUs });
  if (kind === 'pglite') {
    const store = await openStore({ dataDir: ':memory:', epochSeconds: EPOCH_SECONDS });
    await loadFixture(store, fx, EPOCH_SECONDS);
    return { store, fx, close: () => store.close() };
  }
  const db = await createTestDatabase(testPostgresUrl()!, 'zx_export');
  const store = await openStore({ databaseUrl: db.url, epochSeconds: EPOCH_SECONDS, poolSize: 4 });
  await loadFixture(store, fx, EPOCH_SECONDS);
  return {
    store,
    fx,
    url: db.url,
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
}

/** Backends to run on: PGlite always, Postgres when TEST_DATABASE_URL is set. */
export const BACKENDS: ('pglite' | 'postgres')[] = testPostgresUrl() ? ['pglite', 'postgres'] : ['pglite'];

export async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

export type ReadRow = Record<string, unknown>;

/** Reads a whole file with an independent reader; values as that reader gives them. */
export async function readBack(format: 'csv' | 'jsonl' | 'parquet', bytes: Buffer): Promise<ReadRow[]> {
  if (format === 'csv')
    return parse(bytes, { columns: true, record_delimiter: '\r\n', relax_quotes: false }) as ReadRow[];
  if (format === 'jsonl')
    return bytes
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ReadRow);
  return readParquetExact(bytes) as Promise<ReadRow[]>;
}

/** Parquet key-value metadata of a file. */
export function parquetKv(bytes: Buffer): Record<string, string> {
  const md = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  return Object.fromEntries((md.key_value_metadata ?? []).map((k) => [k.key, k.value ?? '']));
}

/**
 * Runs one test story on both store backends: an in-memory PGlite (always) and a throwaway
 * database on the Postgres server of TEST_DATABASE_URL (skipped, and said so, when it is unset).
 * Both backends answer the same SQL through the same Store, so a story that holds on one and not
 * the other is a bug; these helpers keep every such test running the identical story twice.
 */
import { after, before, describe, test } from 'node:test';
import { type OpenStoreParams, openStore, type Store } from './index';
import { createTestDatabase, skipWithoutPostgres, testPostgresUrl } from './testing';

type Backend = 'PGlite' | 'Postgres';
type StoreOptions = Omit<OpenStoreParams, 'dataDir' | 'databaseUrl'>;

export interface BackendOptions extends StoreOptions {
  /** Prefix of the throwaway Postgres database's name (find leftovers by it). */
  dbPrefix: string;
  timeout?: number;
}

/**
 * Two tests, `PGlite: <title>` and `Postgres: <title>`, each running `story` on a fresh store that
 * is closed, and its database dropped, afterwards whatever the story did.
 */
export function testOnEachStore(
  title: string,
  story: (store: Store, backend: Backend) => Promise<void>,
  opts: BackendOptions,
): void {
  const { dbPrefix, timeout, ...storeOpts } = opts;
  test(`PGlite: ${title}`, { timeout }, async () => {
    const store = await openStore({ ...storeOpts, dataDir: ':memory:' });
    try {
      await story(store, 'PGlite');
    } finally {
      await store.close();
    }
  });
  test(`Postgres: ${title}`, { timeout, skip: skipWithoutPostgres() }, async () => {
    const db = await createTestDatabase(testPostgresUrl()!, dbPrefix, { migrated: true });
    try {
      const store = await openStore({ ...storeOpts, databaseUrl: db.url });
      try {
        await story(store, 'Postgres');
      } finally {
        await store.close();
      }
    } finally {
      await db.drop();
    }
  });
}

/**
 * Two describe blocks, `<name> on PGlite` and `<name> on Postgres`; `body` declares the tests and
 * gets `open`, which opens a store on that block's backend (Postgres: one throwaway database per
 * block, created before its tests and dropped after them).
 */
export function describeOnEachStore(
  name: string,
  body: (open: () => Promise<Store>, backend: Backend) => void,
  opts: BackendOptions,
): void {
  const { dbPrefix, timeout, ...storeOpts } = opts;
  describe(`${name} on PGlite`, { timeout }, () =>
    body(() => openStore({ ...storeOpts, dataDir: ':memory:' }), 'PGlite'),
  );
  describe(`${name} on Postgres`, { timeout, skip: skipWithoutPostgres() }, () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
    before(async () => {
      db = await createTestDatabase(testPostgresUrl()!, dbPrefix, { migrated: true });
    });
    after(async () => {
      await db?.drop();
    });
    body(() => openStore({ ...storeOpts, databaseUrl: db!.url }), 'Postgres');
  });
}

/**
 * lib/store as the observer uses it: opening it from the config, and its signer-key table as
 * the {@link SignerSource} behind the cached registry (docs/protocol.md §2 "Signer"). The chain-backed
 * registry replaces {@link storeSignerSource} without touching the observer.
 */
import { join } from 'node:path';
import { openStore, type Store, type StoreLogger } from '../store';
import type { ObservatoryConfig } from './config';
import type { SignerSource } from './registry';

/** Opens the store the config names: `DATABASE_URL` (Postgres) or PGlite in `<dataDir>/pglite`. */
export function openObserverStore(
  config: Pick<ObservatoryConfig, 'databaseUrl' | 'dataDir' | 'epochSeconds'>,
  logger?: StoreLogger,
): Promise<Store> {
  return openStore({
    databaseUrl: config.databaseUrl,
    dataDir: join(config.dataDir, 'pglite'),
    epochSeconds: config.epochSeconds,
    logger,
  });
}

/** The store's local signer-key table as a signer source (demo agents register into it). */
export function storeSignerSource(store: Pick<Store, 'keysFor' | 'registerSignerKey'>): SignerSource {
  return {
    keysFor: (agentId) => store.keysFor(agentId),
    registerSigner: (agentId, publicKey, role = 'owner') =>
      store.registerSignerKey({ agentId, publicKey, role, source: 'local' }),
  };
}

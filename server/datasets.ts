/**
 * Dataset releases of the running observatory (docs/datasets.md "Releases"): the release
 * scheduler on the server's store, writing into `<DATA_DIR>/datasets` every finished epoch (one
 * whole epoch after it ends, so its batches and uploaded logs are in; with the demo's 20 s epochs
 * a release appears about 40 s after its epoch began). On chain the manifest's signer keys come
 * from the chain registry the observer validates with, so `npm run verify-dataset` checks
 * chain-identity agents' signatures too.
 */
import { join } from 'node:path';
import type { SignerRegistry } from '../lib/protocol/types';
import { startReleaseScheduler, type ReleaseScheduler, type ReleaseStore } from '../lib/export/release';
import type { Logger } from './logger';

export function datasetsDir(dataDir: string): string {
  return join(dataDir, 'datasets');
}

export function startDatasets(p: { dataDir: string; store: ReleaseStore; registry?: SignerRegistry; log: Logger }): ReleaseScheduler {
  const dir = datasetsDir(p.dataDir);
  return startReleaseScheduler({
    store: p.store, dir, registry: p.registry,
    onRelease: (m) => p.log.info(`released epoch ${m.epoch} (${Object.values(m.tables).reduce((n, t) => n + t.rows, 0)} rows, ${m.batches.length} batches) in ${dir}`),
    onError: (e) => p.log.warn('dataset release failed', e),
  });
}

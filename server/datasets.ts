/**
 * Dataset releases of the running observatory (docs/datasets.md "Releases"): the release
 * scheduler on the server's store, writing into `<DATA_DIR>/datasets` every finished epoch (one
 * whole epoch after it ends, so its batches and uploaded logs are in; with the demo's 20 s epochs
 * a release appears about 40 s after its epoch began). On chain the manifest carries each
 * sender's signer evidence read from SATI (owner, DelegateV1 attestations with their windows) and
 * names the epoch's on-chain accounts it does not hold, so `npm run verify-dataset --rpc` checks
 * signatures at each envelope's time and the release's completeness against the chain, and each
 * release is anchored on chain in a memo signed by the release-signing key (docs/datasets.md
 * "Anchored releases"), so a verifier knows the latest revision without trusting this server. A failed release is
 * logged with its attempt and retried with backoff; the scheduler's `status()` is what /api/health reports under
 * `datasets`, with the public key every manifest is signed with (lib/export/signing.ts).
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ReleaseChain } from '../lib/export/chain-evidence';
import type { ReleaseStore } from '../lib/export/release';
import type { AnchorStatement } from '../lib/export/release-manifest';
import { type ReleaseScheduler, startReleaseScheduler } from '../lib/export/release-scheduler';
import { loadOrCreateSigningKey } from '../lib/export/signing';
import type { SignerRegistry } from '../lib/protocol/types';
import { inBackgroundLane } from '../lib/store';
import type { Logger } from './logger';

export function datasetsDir(dataDir: string): string {
  return join(dataDir, 'datasets');
}

/**
 * The observer's release-signing key: `<DATA_DIR>/datasets-signing-key` (created on first start,
 * owner-only), beside the release folder rather than in it, so no download route can reach it.
 */
export function signingKeyPath(dataDir: string): string {
  return join(dataDir, 'datasets-signing-key');
}

export function startDatasets(p: {
  dataDir: string;
  store: ReleaseStore;
  registry?: SignerRegistry;
  chain?: ReleaseChain;
  log: Logger;
  /**
   * Posts a release anchor signed by the release-signing key's seed (server/runtime.ts,
   * lib/chain/node/release-anchor.ts).
   */
  anchorWith?: (seed: Uint8Array, a: AnchorStatement) => Promise<{ signature: string; slot: string }>;
}): ReleaseScheduler {
  const dir = datasetsDir(p.dataDir);
  const signingKey = loadOrCreateSigningKey(signingKeyPath(p.dataDir), `Zerox1 Observatory observer on ${hostname()}`);
  p.log.info(`dataset releases are signed with Ed25519 key ${signingKey.publicKey}`);
  // Releases are never urgent: on the embedded database their statements yield to the pages'
  // and the ingest's (lib/store/engine/lanes.ts), and every timer the scheduler sets keeps that lane.
  return inBackgroundLane(() =>
    startReleaseScheduler({
      store: p.store,
      dir,
      registry: p.registry,
      chain: p.chain,
      signingKey,
      anchor: p.anchorWith ? (a) => p.anchorWith!(signingKey.seed, a) : undefined,
      onRelease: (m) =>
        p.log.info(
          `released epoch ${m.epoch}${m.revision ? ` revision ${m.revision}${m.final ? ' (final)' : ''}` : ''}` +
            ` (${Object.values(m.tables).reduce((n, t) => n + t.rows, 0)}` +
            ` rows, ${m.batches.length} batches) in ${dir}`,
        ),
      onError: (e, epoch, attempts) =>
        p.log.warn(
          epoch < 0
            ? 'dataset release check failed'
            : `dataset release of epoch ${epoch} failed (attempt ${attempts}, retried with backoff)`,
          e,
        ),
    }),
  );
}

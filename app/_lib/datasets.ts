/**
 * The one place the datasets routes and page reach the running store and release folder
 * (docs/datasets.md): the `datasets` entry of the services registry (./services), which the
 * server registers. In app/_lib because pages reach server parts only through here
 * (docs/architecture.md).
 */

import { listReleases, type ReleaseSummary } from '../../lib/export/release';
import type { ExportSource } from '../../lib/store/export';
import { HttpError, runtime } from './http';
import type { DatasetServices } from './services';

/** The dataset card's fixed parts (lib/export/card.ts) for the datasets page. */
export { COLLECTION_TEXT, DATA_LICENSE } from '../../lib/export/card';

/** The running datasets services, or a 503 HttpError when this process offers none. */
function datasets(): DatasetServices {
  const d = runtime().datasets;
  if (!d) throw new HttpError(503, 'the running observatory offers no dataset export');
  return d;
}

export function exportSource(): ExportSource {
  return datasets().exportSource();
}

/** The release folder, `<DATA_DIR>/datasets` (server/datasets.ts writes it). */
export function datasetsDir(): string {
  return datasets().dir;
}

/** The releases in `dir` (default: the running release folder), newest epoch first. */
export function releases(dir = datasetsDir()): ReleaseSummary[] {
  return listReleases(dir);
}

/** The key release manifests are signed with (null when this process signs none). */
export function signingKey(): { publicKey: string; signer: string } | null {
  return datasets().releaseStatus?.()?.signingKey ?? null;
}

/** A base58 agent address parser when the process runs a chain, else null. */
export function agentParser(): ((s: string) => Uint8Array | null) | null {
  return runtime().chain?.parseAgent ?? null;
}

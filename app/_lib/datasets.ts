/**
 * The one place the datasets routes and page reach the running store and data folder
 * (docs/datasets.md): today through the read store the server registers (./runtime), which is
 * the full lib/store Store. Switching to the services registry changes only this file. In
 * app/_lib because pages reach server parts only through here (docs/architecture.md).
 */
import { join } from 'node:path';
import { HttpError, runtime } from './http';
import type { ExportSource } from '../../lib/store/export';
import { listReleases, type ReleaseSummary } from '../../lib/export/release';

export function exportSource(): ExportSource {
  const reads = runtime().reads as unknown as { exportSource?: () => ExportSource };
  if (typeof reads.exportSource !== 'function') throw new HttpError(503, 'the running store offers no dataset export');
  return reads.exportSource();
}

/** `<DATA_DIR>` of the running observatory (releases live in `<DATA_DIR>/datasets`). */
export function dataDir(): string {
  return runtime().observatory.config.dataDir;
}

/** The release folder, `<DATA_DIR>/datasets` (server/datasets.ts writes it). */
export function datasetsDir(dataDirPath = dataDir()): string {
  return join(dataDirPath, 'datasets');
}

/** The releases in the release folder, newest epoch first. */
export function releases(dataDirPath?: string): ReleaseSummary[] {
  return listReleases(datasetsDir(dataDirPath));
}

/** A base58 agent address parser when the process runs a chain, else null. */
export function agentParser(): ((s: string) => Uint8Array | null) | null {
  return runtime().chain?.parseAgent ?? null;
}

/**
 * The one place the datasets routes reach the running store and data folder (docs/datasets.md):
 * today through the read store the server registers (app/_lib/runtime.ts), which is the full
 * lib/store Store. Switching to the services registry changes only this file.
 */
import { HttpError, runtime } from '../../_lib/http';
import type { ExportSource } from '../../../lib/store/export';

export function exportSource(): ExportSource {
  const reads = runtime().reads as unknown as { exportSource?: () => ExportSource };
  if (typeof reads.exportSource !== 'function') throw new HttpError(503, 'the running store offers no dataset export');
  return reads.exportSource();
}

/** `<DATA_DIR>` of the running observatory (releases live in `<DATA_DIR>/datasets`). */
export function dataDir(): string {
  return runtime().observatory.config.dataDir;
}

/** A base58 agent address parser when the process runs a chain, else null. */
export function agentParser(): ((s: string) => Uint8Array | null) | null {
  return runtime().chain?.parseAgent ?? null;
}

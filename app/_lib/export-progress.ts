/**
 * Rows written per running export, keyed by the client's `job` id, so the page can show exact
 * progress for Parquet too (its bytes do not reveal row counts). On globalThis under a
 * Symbol.for key: the export and progress routes are separate bundles in one process.
 */
import type { ExportProgress } from '../../lib/wire/datasets';

const KEY = Symbol.for('zerox1.export.progress');
type Entry = ExportProgress & { at: number };
type Holder = { [KEY]?: Map<string, Entry> };

function jobs(): Map<string, Entry> {
  const h = globalThis as Holder;
  return (h[KEY] ??= new Map());
}

export function setProgress(job: string, e: Omit<Entry, 'at'>): void {
  const m = jobs();
  m.set(job, { ...e, at: Date.now() });
  // Forget finished jobs after a minute; the map never grows past what is running.
  for (const [k, v] of m) if (v.done && Date.now() - v.at > 60_000) m.delete(k);
}

export function getProgress(job: string): ExportProgress | undefined {
  const e = jobs().get(job);
  return e && { rows: e.rows, total: e.total, done: e.done };
}

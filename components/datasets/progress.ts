/**
 * Pure helpers of the /datasets page: the export URL from the form, and progress figures
 * (rows written of total, rate, ETA) from samples taken while the download runs.
 */
export interface ExportForm {
  table: string;
  format: 'csv' | 'jsonl' | 'parquet';
  /** datetime-local values (UTC) or ''. */
  from: string;
  to: string;
  agent: string;
  types: string[];
}

/** `/api/export/{table}?…`; empty fields are left out; `type` only for envelopes. */
export function exportUrl(f: ExportForm, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ format: f.format });
  if (f.from) q.set('from', `${f.from}${f.from.length === 16 ? ':00' : ''}Z`);
  if (f.to) q.set('to', `${f.to}${f.to.length === 16 ? ':00' : ''}Z`);
  if (f.agent.trim()) q.set('agent', f.agent.trim());
  if (f.table === 'envelopes' && f.types.length) q.set('type', f.types.join(','));
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return `/api/export/${encodeURIComponent(f.table)}?${q}`;
}

export interface Progress {
  rows: number;
  total: number;
  bytes: number;
  startedAt: number;
  now: number;
}

/** Percent 0..100, rows/s and seconds left (null while unknown). */
export function progressFigures(p: Progress): { percent: number; rate: number; etaSeconds: number | null } {
  const secs = Math.max(0.001, (p.now - p.startedAt) / 1000);
  const rate = p.rows / secs;
  const percent = p.total > 0 ? Math.min(100, (100 * p.rows) / p.total) : p.rows > 0 ? 100 : 0;
  const etaSeconds =
    rate > 0 && p.total > p.rows ? Math.ceil((p.total - p.rows) / rate) : p.total > 0 && p.rows >= p.total ? 0 : null;
  return { percent, rate, etaSeconds };
}

/** Rows in CSV/JSONL bytes seen so far: line ends (CSV minus its header line). */
export function countLines(chunk: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) n++;
  return n;
}

/** The file name of a Content-Disposition header, or `fallback`. */
export function dispositionName(h: string | null, fallback: string): string {
  return /filename="([^"]+)"/.exec(h ?? '')?.[1] ?? fallback;
}

/**
 * One export: a table under a filter, read from the store (lib/store/export.ts) and turned into
 * dataset rows (rows.ts, negotiation.ts), then written as CSV, JSONL or Parquet (writers.ts).
 * Used by the API route, the CLI and releases.
 */
import type { ExportFilter, ExportSource } from '../store/export';
import { byConversation, negotiationRow, offerRows } from './negotiation';
import { batchRow, challengeRow, envelopeRow, feedbackRow } from './rows';
import { TABLES } from './tables';
import type { Row, TableName, TableSchema } from './schema';
import { writeFormat, type Format } from './writers';
import { envelopeCopyOptions, envelopeCsv } from './envelope-csv';
import { envelopeParquet } from './envelope-parquet';

export type { ExportFilter, ExportSource };

export interface ExportParams {
  source: ExportSource;
  table: TableName;
  filter?: ExportFilter;
  signal?: AbortSignal;
  /** Rows per database page (default 5,000). */
  pageSize?: number;
  /** "Now" for negotiation expiry, unix µs (default: the clock). */
  nowUs?: bigint;
  /** Stop after this many rows (previews). */
  limit?: number;
  /** Called after each page with the rows produced so far. */
  onRows?: (rows: number) => void;
}

/** Rows the export will produce (what the API announces before the first byte). */
export function countRows(source: ExportSource, table: TableName, filter: ExportFilter = {}): Promise<number> {
  return source.count(table === 'negotiations' ? 'conversations' : table, filter);
}

/** The dataset rows of `table` in pages. */
export async function* tableRows(p: ExportParams): AsyncIterable<Row[]> {
  const f = p.filter ?? {};
  const o = { pageSize: p.pageSize, signal: p.signal };
  let n = 0;
  const emit = (rows: Row[]) => { n += rows.length; p.onRows?.(n); return rows; };
  if (p.table === 'offers' || p.table === 'negotiations') {
    const nowUs = p.nowUs ?? BigInt(Date.now()) * 1000n;
    // offers: the negotiation messages; negotiations: every envelope of the conversation.
    const pages = p.source.scan(p.table === 'offers' ? 'offers' : 'conversations', f, o);
    let page: Row[] = [];
    for await (const conv of byConversation(pages)) {
      if (p.table === 'offers') {
        page.push(...offerRows(conv));
      } else {
        const r = negotiationRow(conv, nowUs);
        if (r) page.push(r);
      }
      if (page.length >= (p.pageSize ?? 5_000)) { yield emit(page); page = []; }
    }
    if (page.length) yield emit(page);
    return;
  }
  const map = { envelopes: envelopeRow, feedback: feedbackRow, batches: batchRow, challenges: challengeRow }[p.table];
  for await (const page of p.source.scan(p.table, f, o)) yield emit(page.map(map));
}

/** At most `limit` rows of `pages`; stopping early returns the source (its database read ends). */
async function* limited(pages: AsyncIterable<Row[]>, limit: number): AsyncIterable<Row[]> {
  let left = limit;
  for await (const page of pages) {
    if (page.length >= left) { yield page.slice(0, left); return; }
    left -= page.length;
    yield page;
  }
}

export interface ExportStream {
  schema: TableSchema;
  /** Rows this export writes (the limit applied). */
  total: number;
  /** Rows matching the filter, without the limit. */
  matching: number;
  bytes: AsyncIterable<Uint8Array>;
}

/** Counts, then streams `table` as `format`. */
export async function exportTable(p: ExportParams & { format: Format }): Promise<ExportStream> {
  const schema = TABLES[p.table];
  const count = await countRows(p.source, p.table, p.filter);
  const total = p.limit === undefined ? count : Math.min(count, p.limit);
  // Envelopes as CSV on Postgres: Postgres formats most cells itself (envelope-csv.ts).
  const copy = p.format === 'csv' && p.table === 'envelopes' ? p.source.envelopeCsvCopy(p.filter ?? {}, envelopeCopyOptions(p.limit), p.signal) : null;
  if (copy) return { schema, total, matching: count, bytes: envelopeCsv(schema, copy, p.onRows) };
  // Envelopes as Parquet on Postgres: binary columns straight into the row groups (envelope-parquet.ts).
  const pcopy = p.format === 'parquet' && p.table === 'envelopes' ? p.source.envelopeParquetCopy(p.filter ?? {}, p.limit, p.signal) : null;
  if (pcopy) return { schema, total, matching: count, bytes: envelopeParquet(schema, pcopy, p.onRows) };
  const rows = p.limit === undefined ? tableRows(p) : limited(tableRows(p), p.limit);
  return { schema, total, matching: count, bytes: writeFormat(p.format, schema, rows) };
}

/** Suggested file name, e.g. `zerox1-negotiations-v1.parquet`. */
export function fileName(table: TableName, format: Format): string {
  return `zerox1-${table}-v${TABLES[table].version}.${format}`;
}

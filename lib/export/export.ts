/**
 * One export: a table under a filter, read from the store (lib/store/export/export.ts) and turned into
 * dataset rows (rows.ts, negotiation.ts), then written as CSV, JSONL or Parquet (writers.ts).
 * Used by the API route, the CLI and releases.
 */

import { toHex } from '../protocol/hex';
import { MsgType } from '../protocol/types';
import type { HaggleNegotiationRow } from '../store';
import type { ExportFilter, ExportSource } from '../store/export';
import { envelopeCopyOptions, envelopeCsv } from './envelope-csv';
import { envelopeParquet } from './envelope-parquet';
import { negmasRows } from './negmas';
import { byConversation, negotiationRecord, offerRows } from './negotiation';
import { byConversationId, onChainColumns } from './negotiation-onchain';
import {
  batchRow,
  challengeRow,
  disputeRow,
  envelopeRecord,
  envelopeRow,
  feedbackRow,
  reconciliationRow,
} from './rows';
import type { Row, TableName, TableSchema } from './schema';
import { TABLES } from './tables';
import { type Format, writeFormat } from './writers';

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
  /** Called with each dataset row before it is written (negotiations, offers, feedback, batches, challenges). */
  onRow?: (row: Row) => void;
  /** Called for each row a Parquet file leaves out, with the reason (writers.ts parquetMisfit). */
  onSetAside?: (reason: string) => void;
}

/**
 * Rows the export will produce (what the API announces before the first byte). The offers table
 * adds one final-action row per negotiation that has an ACCEPT or REJECT: the store counts NEG1
 * offers only, so those are counted by reading the negotiation messages once more.
 */
export async function countRows(source: ExportSource, table: TableName, filter: ExportFilter = {}): Promise<number> {
  // negmas: one row per NEG1 offer, as the store counts offers.
  const n = await source.count(
    table === 'negotiations' ? 'conversations' : table === 'negmas' ? 'offers' : table,
    filter,
  );
  return table === 'offers' ? n + (await countFinalActions(source, filter)) : n;
}

/** Negotiations (by the offers selection) with an ACCEPT or a REJECT. */
async function countFinalActions(source: ExportSource, filter: ExportFilter): Promise<number> {
  let n = 0;
  let conv = '';
  let ended = false;
  for await (const page of source.scan('offers', filter)) {
    for (const r of page) {
      const e = envelopeRecord(r);
      const k = toHex(e.conversationId);
      if (k !== conv) {
        if (ended) n++;
        conv = k;
        ended = false;
      }
      if (e.msgType === MsgType.ACCEPT || e.msgType === MsgType.REJECT) ended = true;
    }
  }
  return ended ? n + 1 : n;
}

/** The dataset rows of `table` in pages. */
/**
 * Lets timers and I/O run between pages: awaiting a settled promise only queues a microtask, so a
 * long export would otherwise hold the event loop from its first page to its last.
 */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function* tableRows(p: ExportParams): AsyncIterable<Row[]> {
  const f = p.filter ?? {};
  const o = { pageSize: p.pageSize, signal: p.signal };
  let n = 0;
  const emit = (rows: Row[]) => {
    n += rows.length;
    if (p.onRow) rows.forEach(p.onRow);
    p.onRows?.(n);
    return rows;
  };
  const size = p.pageSize ?? 5_000;
  if (p.table === 'offers') {
    // The negotiation messages, grouped by conversation.
    let page: Row[] = [];
    for await (const conv of byConversation(p.source.scan('offers', f, o))) {
      page.push(...offerRows(conv));
      if (page.length >= size) {
        yield emit(page);
        page = [];
        await breathe();
      }
    }
    if (page.length) yield emit(page);
    return;
  }
  if (p.table === 'negotiations' || p.table === 'negmas') {
    const nowUs = p.nowUs ?? BigInt(Date.now()) * 1000n;
    // Every envelope of each conversation, each page with its conversations' Haggle negotiations;
    // a conversation's are kept until its row is built (its envelopes may span pages), then dropped.
    const chain = new Map<string, HaggleNegotiationRow[]>();
    async function* envelopePages(): AsyncIterable<Record<string, unknown>[]> {
      for await (const pg of p.source.scanNegotiations(f, o)) {
        for (const [k, v] of byConversationId(pg.onChain)) chain.set(k, v);
        yield pg.rows;
      }
    }
    let page: Row[] = [];
    for await (const conv of byConversation(envelopePages())) {
      const k = toHex(conv[0].conversationId);
      if (p.table === 'negmas') page.push(...negmasRows(conv, nowUs, chain.get(k) ?? []));
      else {
        const r = negotiationRecord(conv, nowUs, chain.get(k) ?? []);
        if (r) page.push({ ...r.row, ...onChainColumns(chain.get(k) ?? [], r.gossip) });
      }
      chain.delete(k);
      if (page.length >= size) {
        yield emit(page);
        page = [];
        await breathe();
      }
    }
    if (page.length) yield emit(page);
    return;
  }
  const table = p.table;
  const map = {
    envelopes: envelopeRow,
    feedback: feedbackRow,
    batches: batchRow,
    challenges: challengeRow,
    reconciliation: reconciliationRow,
    disputes: disputeRow,
  }[table];
  for await (const page of p.source.scan(table, f, o)) {
    yield emit(page.map(map));
    await breathe();
  }
}

/** At most `limit` rows of `pages`; stopping early returns the source (its database read ends). */
async function* limited(pages: AsyncIterable<Row[]>, limit: number): AsyncIterable<Row[]> {
  let left = limit;
  for await (const page of pages) {
    if (page.length >= left) {
      yield page.slice(0, left);
      return;
    }
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
  const copy =
    p.format === 'csv' && p.table === 'envelopes'
      ? p.source.envelopeCsvCopy(p.filter ?? {}, envelopeCopyOptions(p.limit), p.signal)
      : null;
  if (copy) return { schema, total, matching: count, bytes: envelopeCsv(schema, copy, p.onRows) };
  // Envelopes as Parquet on Postgres: binary columns straight into the row groups (envelope-parquet.ts).
  const pcopy =
    p.format === 'parquet' && p.table === 'envelopes'
      ? p.source.envelopeParquetCopy(p.filter ?? {}, p.limit, p.signal)
      : null;
  if (pcopy)
    return { schema, total, matching: count, bytes: envelopeParquet(schema, pcopy, p.onRows, undefined, p.onSetAside) };
  const rows = p.limit === undefined ? tableRows(p) : limited(tableRows(p), p.limit);
  return { schema, total, matching: count, bytes: writeFormat(p.format, schema, rows, { onSetAside: p.onSetAside }) };
}

/** Suggested file name, e.g. `zerox1-offers-v1.parquet`. */
export function fileName(table: TableName, format: Format): string {
  return `zerox1-${table}-v${TABLES[table].version}.${format}`;
}

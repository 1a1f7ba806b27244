/**
 * Column types of the dataset tables and how each is written (docs/datasets.md "Types"). One
 * column list per table (tables.ts) is the single source for the CSV header, the JSONL keys, the
 * Parquet schema and the column-by-column docs.
 *
 * In-memory row values: string, number (int32/double), bigint (int64/u64/i128/timestamp in
 * unix microseconds), Uint8Array (bytes), boolean, or null.
 */
import { EXPORT_TABLES, type ExportTable } from '../wire/datasets';

/**
 * - `int64`: signed 64-bit → Parquet INT64.
 * - `u64`, `i128`: wider than int64 (nonces, slots as u64 on the wire; NEG1 prices are int128):
 *   Parquet STRING with the exact decimal, because DECIMAL(38) cannot hold every int128 and
 *   common readers turn DECIMAL into doubles.
 * - `timestamp`: unix µs → Parquet TIMESTAMP(MICROS, UTC); CSV/JSONL ISO-8601 UTC with µs.
 */
export type ColumnType = 'string' | 'int32' | 'int64' | 'u64' | 'i128' | 'double' | 'bool' | 'bytes' | 'timestamp';

export interface Column {
  name: string;
  type: ColumnType;
  doc: string;
  /** Defaults to true. */
  nullable?: boolean;
}

/** The table names are the API's (lib/wire), so the document lists exactly these. */
export const TABLE_NAMES = EXPORT_TABLES;
export type TableName = ExportTable;

export interface TableSchema {
  name: TableName;
  /** Bumped on any column change; written into Parquet key-value metadata and manifests. */
  version: number;
  doc: string;
  columns: Column[];
}

export type Row = Record<string, unknown>;

/** Lowercase hex of bytes. */
export function hex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

/** ISO-8601 UTC with microseconds, from unix µs (negative and far-future values included). */
export function isoMicros(us: bigint): string {
  const ms = us / 1000n - (us % 1000n < 0n ? 1n : 0n);
  const frac = ((us % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const d = new Date(Number(ms));
  if (Number.isNaN(d.getTime())) return us.toString();
  return `${d.toISOString().slice(0, 19)}.${frac.toString().padStart(6, '0')}Z`;
}

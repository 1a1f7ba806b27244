/**
 * Column types of the dataset tables and how each is written (docs/datasets.md "Types"). One
 * column list per table (tables.ts) is the single source for the CSV header, the JSONL keys, the
 * Parquet schema and the column-by-column docs.
 *
 * In-memory row values: string, number (int32/double), bigint (int64/u64/i128/timestamp in
 * unix microseconds), Uint8Array (bytes), boolean, or null.
 */
import { EXPORT_TABLES, type ExportTable, RELEASE_TABLES, type ReleaseTable } from '../wire/datasets';

/**
 * - `int64`: signed 64-bit → Parquet INT64.
 * - `u64`: nonces, slots, on-chain amounts → Parquet DECIMAL(20,0) (every u64 fits), a decimal
 *   string in CSV/JSONL.
 * - `i128`: NEG1 prices → Parquet DECIMAL(38,0) (FIXED_LEN_BYTE_ARRAY(16)), read as an exact
 *   decimal by DuckDB, Arrow and pandas; an int128 beyond ±(10^38 − 1) does not fit and its row is
 *   set aside in Parquet (writers.ts parquetMisfit), kept in CSV/JSONL as a decimal string.
 * - `bytes`: raw bytes (envelope, payload, signature) → Parquet BYTE_ARRAY, hex in CSV/JSONL.
 * - `hex`: ids, keys, hashes → lowercase hex text in every format (Parquet STRING), so joins
 *   across formats need no conversion.
 * - `timestamp`: unix µs the observer or the chain wrote (int64) → Parquet TIMESTAMP(MICROS, UTC);
 *   CSV/JSONL ISO-8601 UTC with µs.
 * - `u64_timestamp`: unix µs a sender wrote (envelope item 4, any u64), an integer in every
 *   format: Parquet INT64 with the unsigned UINT_64 annotation (a Parquet TIMESTAMP is a signed
 *   int64 and cannot hold 2^63 … 2^64-1, which the protocol allows), a decimal in CSV and a
 *   decimal string in JSONL (as `u64`), so the three formats give the same number.
 * - `decimal1`, `decimal6`: an exact decimal with 1 or 6 places (half-unit Nash figures, the
 *   Rubinstein price rounded to 6 places) → Parquet DECIMAL(38,1) / DECIMAL(38,6) from its
 *   unscaled integer, decimal text in CSV and a decimal string in JSONL. Rows hold the text.
 * - `list`: a Parquet LIST of `item` (a scalar type) or of structs of `fields`; a JSON array in
 *   JSONL (integers as JSON numbers, text as strings) and the same JSON array as text in CSV.
 *   Rows hold a JS array (of objects for structs).
 *
 * In CSV/JSONL an observer time outside the years 0000–9999 (ISO-8601's four-digit years) is
 * written as its unix microseconds in decimal (`isoMicros`), never as a made-up date.
 */
export type ScalarType =
  | 'string'
  | 'int32'
  | 'int64'
  | 'u64'
  | 'i128'
  | 'double'
  | 'bool'
  | 'bytes'
  | 'hex'
  | 'timestamp'
  | 'u64_timestamp'
  | 'decimal1'
  | 'decimal6';
export type ColumnType = ScalarType | 'list';

/** A field of a list's struct items. */
export interface Field {
  name: string;
  type: ScalarType;
}

export interface Column {
  name: string;
  type: ColumnType;
  doc: string;
  /** Defaults to true. */
  nullable?: boolean;
  /** A `list` column's item type (scalar items). */
  item?: ScalarType;
  /** A `list` column's struct fields (struct items). */
  fields?: Field[];
}

/** Places of a decimal type (0 for the others). */
export const decimalScale = (t: ColumnType): number => (t === 'decimal1' ? 1 : t === 'decimal6' ? 6 : 0);

/**
 * The unscaled integer of decimal text with at most `scale` places (`12.5` at scale 1 → 125n), or null when it is not
 * one.
 */
export function unscaledDecimal(text: string, scale: number): bigint | null {
  const m = /^(-?)(\d{1,40})(?:\.(\d+))?$/.exec(text);
  if (!m || (m[3] ?? '').length > scale) return null;
  const v = BigInt(m[2] + (m[3] ?? '').padEnd(scale, '0'));
  return m[1] ? -v : v;
}

/** Decimal text of an unscaled integer (`125n` at scale 1 → `12.5`), without trailing zeros. */
export function scaledText(v: bigint, scale: number): string {
  if (scale === 0) return v.toString();
  const neg = v < 0n;
  const d = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const frac = d.slice(d.length - scale).replace(/0+$/, '');
  return `${neg ? '-' : ''}${d.slice(0, d.length - scale)}${frac ? `.${frac}` : ''}`;
}

/** The table names are the API's (lib/wire), so the document lists exactly these. */
export const TABLE_NAMES = EXPORT_TABLES;
export type TableName = ExportTable;
/** The tables of a release (negmas is an export-only view of offers). */
export const RELEASE_TABLE_NAMES = RELEASE_TABLES;
export type ReleaseTableName = ReleaseTable;

export interface TableSchema {
  name: TableName;
  /** Bumped on any column change; written into Parquet key-value metadata and manifests. */
  version: number;
  doc: string;
  columns: Column[];
}

export type Row = Record<string, unknown>;

/** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z in unix µs: the times a four-digit ISO year can write. */
export const CALENDAR_MIN_US = -62_167_219_200_000_000n;
export const CALENDAR_END_US = 253_402_300_800_000_000n;

/** Whether unix µs `us` has a calendar date ISO-8601 writes with a four-digit year. */
export function isCalendarMicros(us: bigint): boolean {
  return us >= CALENDAR_MIN_US && us < CALENDAR_END_US;
}

/**
 * ISO-8601 UTC with microseconds, from unix µs (before 1970 too). A time outside the years
 * 0000–9999 (a sender may write any u64) is returned as its decimal µs: plainly a number, not
 * a date a reader could take at face value.
 */
export function isoMicros(us: bigint): string {
  if (!isCalendarMicros(us)) return us.toString();
  const ms = us / 1000n - (us % 1000n < 0n ? 1n : 0n);
  const frac = ((us % 1_000_000n) + 1_000_000n) % 1_000_000n;
  return `${new Date(Number(ms)).toISOString().slice(0, 19)}.${frac.toString().padStart(6, '0')}Z`;
}

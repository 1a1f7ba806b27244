/**
 * Streaming writers: pages of rows in, byte chunks out, memory bounded by one page (CSV, JSONL)
 * or one Parquet row group. The consumer pulls; nothing is read ahead of what it took, so a
 * slow HTTP client slows the database read instead of filling memory.
 *
 * Parquet goes through hyparquet-writer (docs/decisions/parquet-writer.md): its ParquetWriter
 * encodes one row group per call into a ByteWriter whose bytes go to the consumer before the
 * next group is read.
 */

import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { compressSync as snappyCompress } from 'snappy';
import { toHex } from '../protocol/hex';
import { EXPORT_CONTENT_TYPES, EXPORT_FORMATS, type ExportFormat } from '../wire/datasets';
import { tableSchemaJson } from './card';
import {
  type Column,
  type ColumnType,
  decimalScale,
  isCalendarMicros,
  isoMicros,
  type Row,
  type ScalarType,
  type TableSchema,
  unscaledDecimal,
} from './schema';

/** Format names and media types are the API's (lib/wire), so the document lists exactly these. */
export const FORMATS = EXPORT_FORMATS;
export type Format = ExportFormat;
export const CONTENT_TYPES = EXPORT_CONTENT_TYPES;

const enc = new TextEncoder();

/** RFC 4180 field: quoted when it holds a comma, quote, CR or LF; quotes doubled. */
export function csvField(s: string | null): string {
  if (s === null) return '';
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * One formatter per column, chosen once per export: hex, decimal and ISO text never need CSV
 * quoting, so only string columns are checked; timestamps reuse the ISO prefix of the last
 * second seen (rows mostly arrive in time order).
 */
export function cellFormatter(type: ColumnType, forCsv: boolean): (v: unknown) => string {
  switch (type) {
    case 'bytes':
    case 'hex':
      return (v) => (typeof v === 'string' ? v : toHex(v as Uint8Array));
    // A sender's time is the integer it wrote, in every format (schema.ts).
    case 'u64_timestamp':
      return (v) => String(v);
    case 'list':
      return forCsv ? (v) => csvField(listJson(v)) : listJson;
    case 'timestamp': {
      let lastSec = NaN;
      let prefix = '';
      return (v) => {
        const us = v as bigint;
        if (!isCalendarMicros(us)) return us.toString(); // no four-digit year: the raw µs (isoMicros)
        const sec = Number(us / 1_000_000n) - (us % 1_000_000n < 0n ? 1 : 0);
        if (sec !== lastSec || !prefix) {
          const iso = isoMicros(BigInt(sec) * 1_000_000n);
          prefix = iso.slice(0, iso.length - 8);
          lastSec = sec;
        }
        const frac = Number(us - BigInt(sec) * 1_000_000n);
        return `${prefix}.${String(frac).padStart(6, '0')}Z`;
      };
    }
    case 'bool':
      return (v) => (v ? 'true' : 'false');
    case 'string':
      return forCsv ? (v) => csvField(String(v)) : (v) => String(v);
    default:
      return (v) => String(v);
  }
}

/**
 * A list cell as JSON: integers (bigint or number) as JSON numbers with their exact digits, bytes
 * as hex, text as strings; struct items as objects.
 */
export function listJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Uint8Array) return JSON.stringify(toHex(v));
  if (Array.isArray(v)) return `[${v.map(listJson).join(',')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${listJson(x)}`)
      .join(',')}}`;
  return JSON.stringify(String(v));
}

async function* csv(schema: TableSchema, pages: AsyncIterable<Row[]>): AsyncIterable<Uint8Array> {
  const cols = schema.columns;
  const names = cols.map((c) => c.name);
  const fmt = cols.map((c) => cellFormatter(c.type, true));
  yield enc.encode(`${names.map(csvField).join(',')}\r\n`);
  for await (const page of pages) {
    let out = '';
    for (const r of page) {
      let line = '';
      for (let i = 0; i < names.length; i++) {
        const v = r[names[i]];
        if (i) line += ',';
        if (v !== null && v !== undefined) line += fmt[i](v);
      }
      out += `${line}\r\n`;
    }
    if (out) yield Buffer.from(out, 'utf8');
  }
}

async function* jsonl(schema: TableSchema, pages: AsyncIterable<Row[]>): AsyncIterable<Uint8Array> {
  const cols = schema.columns;
  const names = cols.map((c) => c.name);
  const keys = names.map((n) => `${JSON.stringify(n)}:`);
  // Numbers and booleans stay JSON numbers/booleans; everything else is a JSON string.
  const fmt = cols.map((c) => {
    if (c.type === 'int32' || c.type === 'double')
      return (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : 'null');
    if (c.type === 'bool') return (v: unknown) => (v ? 'true' : 'false');
    if (c.type === 'list') return listJson;
    const f = cellFormatter(c.type, false);
    return c.type === 'string' ? (v: unknown) => JSON.stringify(f(v)) : (v: unknown) => `"${f(v)}"`;
  });
  for await (const page of pages) {
    let out = '';
    for (const r of page) {
      let line = '{';
      for (let i = 0; i < names.length; i++) {
        const v = r[names[i]];
        line += (i ? ',' : '') + keys[i] + (v === null || v === undefined ? 'null' : fmt[i](v));
      }
      out += `${line}}\n`;
    }
    if (out) yield Buffer.from(out, 'utf8');
  }
}

function parquetElement(name: string, type: ScalarType, nullable: boolean): SchemaElement {
  const repetition_type = nullable ? 'OPTIONAL' : 'REQUIRED';
  switch (type) {
    case 'string':
    case 'hex':
      return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type };
    case 'u64':
      return {
        name,
        type: 'FIXED_LEN_BYTE_ARRAY',
        type_length: U64_BYTES,
        converted_type: 'DECIMAL',
        precision: 20,
        scale: 0,
        logical_type: { type: 'DECIMAL', precision: 20, scale: 0 },
        repetition_type,
      };
    case 'i128':
    case 'decimal1':
    case 'decimal6': {
      const scale = decimalScale(type);
      return {
        name,
        type: 'FIXED_LEN_BYTE_ARRAY',
        type_length: 16,
        converted_type: 'DECIMAL',
        precision: 38,
        scale,
        logical_type: { type: 'DECIMAL', precision: 38, scale },
        repetition_type,
      };
    }
    case 'int32':
      return { name, type: 'INT32', repetition_type };
    case 'int64':
      return { name, type: 'INT64', repetition_type };
    case 'double':
      return { name, type: 'DOUBLE', repetition_type };
    case 'bool':
      return { name, type: 'BOOLEAN', repetition_type };
    case 'bytes':
      return { name, type: 'BYTE_ARRAY', repetition_type };
    case 'timestamp':
      return {
        name,
        type: 'INT64',
        converted_type: 'TIMESTAMP_MICROS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
        repetition_type,
      };
    // UINT_64 as a converted type only: hyparquet-writer writes the INTEGER logical type's
    // bitWidth as a thrift i32 where the format says i8, and DuckDB then refuses the whole
    // footer ("TProtocolException: Invalid data"); readers map UINT_64 to an unsigned 64-bit column.
    case 'u64_timestamp':
      return { name, type: 'INT64', converted_type: 'UINT_64', repetition_type };
  }
}

/**
 * A column's schema elements: one leaf, or for a list the standard three-level LIST group
 * (`<name>` LIST → repeated `list` → `element`), its element a leaf or a struct of leaves.
 */
function columnElements(c: Column): SchemaElement[] {
  const nullable = c.nullable !== false;
  if (c.type !== 'list') return [parquetElement(c.name, c.type, nullable)];
  const element: SchemaElement[] = c.fields
    ? [
        { name: 'element', repetition_type: 'REQUIRED', num_children: c.fields.length },
        ...c.fields.map((f) => parquetElement(f.name, f.type, true)),
      ]
    : [parquetElement('element', c.item ?? 'string', false)];
  return [
    {
      name: c.name,
      repetition_type: nullable ? 'OPTIONAL' : 'REQUIRED',
      converted_type: 'LIST',
      logical_type: { type: 'LIST' },
      num_children: 1,
    },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    ...element,
  ];
}

/** Bytes of a DECIMAL(20,0): two's complement of every u64 needs 65 bits. */
const U64_BYTES = 9;
/** DECIMAL(38,0)'s bound: |v| ≤ 10^38 − 1. */
export const DECIMAL38_MAX = 10n ** 38n - 1n;
const I64_MIN = -(1n << 63n);
const I64_END = 1n << 63n;
const U64_END = 1n << 64n;

/**
 * Why a value (as parquetValue gives it) cannot be written into column `c`, or null when it can.
 * Checked before a row joins its row group, so a value the column's type cannot hold sets its
 * row aside instead of failing the whole file (the writer would throw for the group).
 */
export function parquetMisfit(c: Column, v: unknown): string | null {
  if (v === null || v === undefined) return c.nullable === false ? `${c.name}: null in a required column` : null;
  switch (c.type) {
    case 'int32':
      return typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647
        ? null
        : `${c.name}: ${String(v)} is not an int32`;
    case 'int64':
      return typeof v === 'bigint' && v >= I64_MIN && v < I64_END ? null : `${c.name}: ${String(v)} is beyond int64`;
    case 'timestamp': // a Date too (rows read back from a Parquet file)
      if (v instanceof Date) return Number.isFinite(v.getTime()) ? null : `${c.name}: invalid date`;
      return typeof v === 'bigint' && v >= I64_MIN && v < I64_END ? null : `${c.name}: ${String(v)} µs is beyond int64`;
    case 'u64_timestamp':
      return typeof v === 'bigint' && v >= 0n && v < U64_END ? null : `${c.name}: ${String(v)} is beyond u64`;
    case 'double':
      return typeof v === 'number' ? null : `${c.name}: not a number`;
    case 'bool':
      return typeof v === 'boolean' ? null : `${c.name}: not a boolean`;
    case 'bytes':
      return v instanceof Uint8Array ? null : `${c.name}: not bytes`;
    case 'u64':
      return typeof v === 'bigint' && v >= 0n && v < U64_END ? null : `${c.name}: ${String(v)} is not a u64`;
    case 'i128':
    case 'decimal1':
    case 'decimal6':
      return typeof v === 'bigint' && v >= -DECIMAL38_MAX && v <= DECIMAL38_MAX
        ? null
        : `${c.name}: ${String(v)} is beyond DECIMAL(38,${decimalScale(c.type)})`;
    case 'list': {
      if (!Array.isArray(v)) return `${c.name}: not a list`;
      for (const x of v) {
        const why = c.fields
          ? typeof x === 'object' && x !== null
            ? (c.fields
                .map((f) => parquetMisfit({ name: `${c.name}.${f.name}`, type: f.type, doc: '' }, (x as Row)[f.name]))
                .find((m) => m !== null) ?? null)
            : `${c.name}: an item is not a struct`
          : parquetMisfit({ name: `${c.name} item`, type: c.item ?? 'string', doc: '', nullable: false }, x);
        if (why) return why;
      }
      return null;
    }
    default:
      return typeof v === 'string' || v instanceof Uint8Array ? null : `${c.name}: not text`;
  }
}

/** The Parquet schema of a table (root + one leaf per column). */
export function parquetSchema(schema: TableSchema): SchemaElement[] {
  return [{ name: 'root', num_children: schema.columns.length }, ...schema.columns.flatMap(columnElements)];
}

/**
 * A row's values as the Parquet writer takes them: wide integers as bigints (DECIMAL; a decimal
 * type's unscaled integer), ids as hex text, lists as arrays of such values. `c` carries a list's
 * item type or fields.
 */
export function parquetValue(type: ColumnType, v: unknown, c?: Pick<Column, 'item' | 'fields'>): unknown {
  if (v === null || v === undefined) return null;
  if (type === 'u64' || type === 'i128') return typeof v === 'bigint' ? v : decimalBigint(v);
  if (type === 'decimal1' || type === 'decimal6')
    return typeof v === 'bigint' ? v : typeof v === 'string' ? (unscaledDecimal(v, decimalScale(type)) ?? v) : v;
  if (type === 'hex') return v instanceof Uint8Array ? toHex(v) : v;
  if (type === 'double' && typeof v === 'number' && !Number.isFinite(v)) return null;
  if (type === 'list') {
    const items = typeof v === 'string' ? safeJson(v) : v;
    if (!Array.isArray(items)) return v;
    const f = c?.fields;
    return f
      ? items.map((x) =>
          typeof x === 'object' && x !== null
            ? Object.fromEntries(f.map((k) => [k.name, parquetValue(k.type, (x as Row)[k.name])]))
            : x,
        )
      : items.map((x) => parquetValue(c?.item ?? 'string', x));
  }
  return v;
}

const safeJson = (s: string): unknown => {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return s;
  }
};

/**
 * A decimal integer as a bigint (text or Parquet bytes of a decimal); anything else is kept, and parquetMisfit names
 * it.
 */
function decimalBigint(v: unknown): unknown {
  const t =
    typeof v === 'string'
      ? v
      : v instanceof Uint8Array
        ? Buffer.from(v).toString('latin1')
        : typeof v === 'number' && Number.isSafeInteger(v)
          ? String(v)
          : null;
  return t !== null && /^-?\d{1,40}$/.test(t) ? BigInt(t) : v;
}

/** Rows per Parquet row group: bounds the writer's memory (about 12 MB of envelope rows plus their columnar copy). */
export const PARQUET_ROW_GROUP = 10_000;

/**
 * Hashes, signatures and ids are random bytes: no dictionary, no snappy (neither shrinks them)
 * and no min/max statistics (useless for pruning). Skipping the three was a third of the
 * Parquet profile on the envelopes table (docs/datasets.md "Bench").
 */
const RANDOM_BYTES = new Set([
  'id',
  'payload_hash',
  'signature',
  'envelope_id',
  'batch_hash',
  'negr_salt',
  'negc_commitment',
]);

function columnOptions(c: Column) {
  const random = (c.type === 'bytes' || c.type === 'hex') && RANDOM_BYTES.has(c.name);
  return {
    name: c.name,
    nullable: c.nullable !== false,
    // Hex and bytes have no order worth pruning on, and the Parquet fast path's values are views
    // whose statistics would keep every row group's arena alive until the footer; the writer
    // compares DECIMAL statistics as their stored bytes, which misorders negative prices.
    ...(['bytes', 'hex', 'u64', 'i128', 'decimal1', 'decimal6', 'list'].includes(c.type) ? { statistics: false } : {}),
    ...(random ? { encoding: 'PLAIN' as const, codec: 'UNCOMPRESSED' as const } : {}),
  };
}

/**
 * Snappy (Parquet's usual codec) through the native `snappy` package instead of hyparquet-writer's
 * JavaScript one: the same raw snappy format, a fifth of the Parquet export's time otherwise.
 */
const SNAPPY = {
  SNAPPY: (b: Uint8Array): Uint8Array => snappyCompress(Buffer.from(b.buffer, b.byteOffset, b.byteLength)),
};

/**
 * A Parquet file written one row group at a time: `group` encodes per-column arrays (table
 * order, values as parquetValue gives them) with hyparquet-writer's ParquetWriter and returns
 * the group's bytes, so memory holds one row group whatever the export's size. `start` is the
 * PAR1 magic, `finish` the footer.
 */
export function parquetEncoder(schema: TableSchema): {
  start(): Uint8Array;
  group(data: unknown[][], rows: number): Uint8Array;
  finish(): Uint8Array;
} {
  const writer = new ByteWriter(1 << 20);
  const take = () => {
    const b = new Uint8Array(writer.buffer.slice(0, writer.index));
    writer.index = 0; // `offset` keeps counting: the footer's file offsets stay right
    return b;
  };
  const pq = new ParquetWriter({
    writer,
    schema: parquetSchema(schema),
    statistics: true,
    createdBy: 'zerox1-observatory export',
    compressors: SNAPPY,
    kvMetadata: [
      { key: 'zerox1.table', value: schema.name },
      { key: 'zerox1.schema_version', value: String(schema.version) },
      // The table's Frictionless Table Schema (types, units, descriptions): the file describes itself (card.ts).
      { key: 'zerox1.table_schema', value: JSON.stringify(tableSchemaJson(schema)) },
    ],
  });
  const options = schema.columns.map(columnOptions);
  return {
    start: take,
    group(data, rows) {
      void pq.write({ columnData: options.map((o, i) => ({ ...o, data: data[i] as never })), rowGroupSize: rows });
      return take();
    },
    finish() {
      void pq.finish();
      return take();
    },
  };
}

export interface WriteOptions {
  /**
   * Called for each row left out of a Parquet file because a value does not fit its column's
   * type (parquetMisfit), with the reason. CSV and JSONL write every value as text and set
   * nothing aside.
   */
  onSetAside?: (reason: string) => void;
}

/**
 * Parquet from pages of rows: each row's values go straight into the per-column arrays, once
 * every one of them fits its column; a row with a value that does not is set aside (counted
 * through `onSetAside`) and the file goes on.
 */
async function* parquet(
  schema: TableSchema,
  pages: AsyncIterable<Row[]>,
  o: WriteOptions = {},
  rowGroupSize = PARQUET_ROW_GROUP,
): AsyncIterable<Uint8Array> {
  const enc = parquetEncoder(schema);
  const cols = schema.columns;
  let data: unknown[][] = cols.map(() => []);
  const vals: unknown[] = new Array(cols.length);
  let n = 0;
  const group = () => {
    const bytes = enc.group(data, n);
    data = cols.map(() => []);
    n = 0;
    return bytes;
  };
  yield enc.start();
  for await (const page of pages) {
    for (const r of page) {
      let misfit: string | null = null;
      for (let i = 0; i < cols.length && !misfit; i++)
        misfit = parquetMisfit(cols[i], (vals[i] = parquetValue(cols[i].type, r[cols[i].name], cols[i])));
      if (misfit) {
        o.onSetAside?.(misfit);
        continue;
      }
      for (let i = 0; i < cols.length; i++) data[i].push(vals[i]);
      if (++n === rowGroupSize) yield group();
    }
  }
  if (n) yield group();
  yield enc.finish();
}

/** `pages` written as `format`, as byte chunks. */
export function writeFormat(
  format: Format,
  schema: TableSchema,
  pages: AsyncIterable<Row[]>,
  o: WriteOptions = {},
): AsyncIterable<Uint8Array> {
  if (format === 'csv') return csv(schema, pages);
  if (format === 'jsonl') return jsonl(schema, pages);
  return parquet(schema, pages, o);
}

/**
 * Streaming writers: pages of rows in, byte chunks out, memory bounded by one page (CSV, JSONL)
 * or one Parquet row group. The consumer pulls; nothing is read ahead of what it took, so a
 * slow HTTP client slows the database read instead of filling memory.
 *
 * Parquet goes through hyparquet-writer (docs/decisions/parquet-writer.md): its row API takes an
 * async iterable and calls our sink's flush() after each row group, which hands the bytes to the
 * consumer and waits until it asks for more.
 */
import { ByteWriter, parquetWriteRows } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { hex, isoMicros, type ColumnType, type Row, type TableSchema } from './schema';

export const FORMATS = ['csv', 'jsonl', 'parquet'] as const;
export type Format = (typeof FORMATS)[number];

export const CONTENT_TYPES: Record<Format, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  jsonl: 'application/x-ndjson; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
};

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
    case 'bytes': return (v) => hex(v as Uint8Array);
    case 'timestamp': {
      let lastSec = NaN;
      let prefix = '';
      return (v) => {
        const us = v as bigint;
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
    case 'bool': return (v) => (v ? 'true' : 'false');
    case 'string': return forCsv ? (v) => csvField(String(v)) : (v) => String(v);
    default: return (v) => String(v);
  }
}

async function* csv(schema: TableSchema, pages: AsyncIterable<Row[]>): AsyncIterable<Uint8Array> {
  const cols = schema.columns;
  const names = cols.map((c) => c.name);
  const fmt = cols.map((c) => cellFormatter(c.type, true));
  yield enc.encode(names.map(csvField).join(',') + '\r\n');
  for await (const page of pages) {
    let out = '';
    for (const r of page) {
      let line = '';
      for (let i = 0; i < names.length; i++) {
        const v = r[names[i]];
        if (i) line += ',';
        if (v !== null && v !== undefined) line += fmt[i](v);
      }
      out += line + '\r\n';
    }
    if (out) yield Buffer.from(out, 'utf8');
  }
}

async function* jsonl(schema: TableSchema, pages: AsyncIterable<Row[]>): AsyncIterable<Uint8Array> {
  const cols = schema.columns;
  const names = cols.map((c) => c.name);
  const keys = names.map((n) => JSON.stringify(n) + ':');
  // Numbers and booleans stay JSON numbers/booleans; everything else is a JSON string.
  const fmt = cols.map((c) => {
    if (c.type === 'int32' || c.type === 'double') return (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : 'null');
    if (c.type === 'bool') return (v: unknown) => (v ? 'true' : 'false');
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
      out += line + '}\n';
    }
    if (out) yield Buffer.from(out, 'utf8');
  }
}

function parquetElement(name: string, type: ColumnType, nullable: boolean): SchemaElement {
  const repetition_type = nullable ? 'OPTIONAL' : 'REQUIRED';
  switch (type) {
    case 'string': case 'u64': case 'i128': return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type };
    case 'int32': return { name, type: 'INT32', repetition_type };
    case 'int64': return { name, type: 'INT64', repetition_type };
    case 'double': return { name, type: 'DOUBLE', repetition_type };
    case 'bool': return { name, type: 'BOOLEAN', repetition_type };
    case 'bytes': return { name, type: 'BYTE_ARRAY', repetition_type };
    case 'timestamp': return { name, type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' }, repetition_type };
  }
}

/** The Parquet schema of a table (root + one leaf per column). */
export function parquetSchema(schema: TableSchema): SchemaElement[] {
  return [{ name: 'root', num_children: schema.columns.length }, ...schema.columns.map((c) => parquetElement(c.name, c.type, c.nullable !== false))];
}

/** A row's values as the Parquet writer takes them: wide integers as decimal text. */
function parquetValue(type: ColumnType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (type === 'u64' || type === 'i128') return String(v);
  if (type === 'double' && typeof v === 'number' && !Number.isFinite(v)) return null;
  return v;
}

/** Rows per Parquet row group: bounds the writer's memory (about 12 MB of envelope rows plus their columnar copy). */
export const PARQUET_ROW_GROUP = 10_000;

function parquet(schema: TableSchema, pages: AsyncIterable<Row[]>, rowGroupSize = PARQUET_ROW_GROUP): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const ready: Uint8Array[] = [];
      let wake: (() => void) | null = null;
      let resume: (() => void) | null = null;
      let done = false;
      let failed: unknown;
      let cancelled = false;
      const writer = new ByteWriter(1 << 20);
      const take = () => {
        if (writer.index === 0) return;
        ready.push(new Uint8Array(writer.buffer.slice(0, writer.index)));
        writer.index = 0; // `offset` keeps counting: the footer's file offsets stay right
        const w = wake; wake = null; w?.();
      };
      (writer as unknown as { flush(): Promise<void> }).flush = () => {
        take();
        return new Promise<void>((res, rej) => { resume = () => (cancelled ? rej(new Error('cancelled')) : res()); });
      };
      const finishSink = writer.finish.bind(writer);
      writer.finish = () => { finishSink(); take(); };
      async function* rows(): AsyncIterable<Row> {
        for await (const page of pages) {
          for (const r of page) {
            const o: Row = {};
            for (const c of schema.columns) o[c.name] = parquetValue(c.type, r[c.name]);
            yield o;
          }
        }
      }
      let started = false;
      const start = () => {
        started = true;
        Promise.resolve(parquetWriteRows({
          writer, rows: rows(), columns: schema.columns.map((c) => ({ name: c.name, nullable: c.nullable !== false })),
          schema: parquetSchema(schema), rowGroupSize, statistics: true,
          kvMetadata: [{ key: 'zerox1.table', value: schema.name }, { key: 'zerox1.schema_version', value: String(schema.version) }],
          createdBy: 'zerox1-observatory export',
        })).then(() => { done = true; }, (e) => { failed = e; done = true; }).finally(() => { const w = wake; wake = null; w?.(); });
      };
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          if (!started) start();
          else if (ready.length === 0) { const r = resume; resume = null; r?.(); }
          while (ready.length === 0 && !done) await new Promise<void>((res) => { wake = res; });
          if (ready.length) return { value: ready.shift()!, done: false };
          if (failed && !cancelled) throw failed;
          return { value: undefined, done: true };
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          cancelled = true;
          // The parked flush rejects, parquetWriteRows stops pulling and the row generator's
          // for-await returns the page iterator (the database read stops; so does the signal).
          const r = resume; resume = null; r?.();
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/** `pages` written as `format`, as byte chunks. */
export function writeFormat(format: Format, schema: TableSchema, pages: AsyncIterable<Row[]>): AsyncIterable<Uint8Array> {
  if (format === 'csv') return csv(schema, pages);
  if (format === 'jsonl') return jsonl(schema, pages);
  return parquet(schema, pages);
}

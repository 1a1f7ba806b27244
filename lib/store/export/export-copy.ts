/**
 * The envelopes export's fast paths on Postgres (docs/datasets.md "Bench"): one
 * `COPY (SELECT …) TO STDOUT (FORMAT binary)` of the stored columns as they are, so Postgres
 * converts almost nothing (a bytea goes out as its bytes, an integer as its 4 or 8 bytes) and
 * JavaScript writes every cell (lib/export/envelope-csv.ts, envelope-parquet.ts). Rows arrive as
 * binary COPY tuples (lib/export/copy-binary.ts parses them without building row objects).
 *
 * Why JavaScript writes the hex: encode() and the text concatenation made the CSV statement
 * cost Postgres twice the CPU of its own text COPY of the table (1M rows, the backend's CPU
 * time around `COPY … TO '/dev/null'`: 6.4 s against 3.2 s), and Postgres runs the statement on
 * one core while the export runs on the other. Passing the bytes through costs it 2.5 s; the
 * hex then costs JavaScript ≈ 1.2 ns a byte (envelope-csv.ts). block_ref and nonce stay `::text`:
 * their binary numeric would save Postgres another 0.2 s per 1M rows for a base-10000 decoder here.
 *
 * COPY takes no bind parameters, so the filter's values are inlined as typed literals built
 * from bigints, bytes and integers only (`literal`), never from caller text.
 */
import type { Db } from '../engine/db';
import { type ExportFilter, epochBounds } from './export-filter';

function literal(v: unknown): string {
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v))) return `${v}`;
  if (v instanceof Uint8Array)
    return `'\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}'::bytea`;
  throw new TypeError(`cannot inline ${typeof v} into COPY`);
}

export interface EnvelopeCsvCopy {
  limit?: number;
}

/**
 * The COPY statement of the envelopes CSV fast path under `f`. Each tuple:
 *
 *   0 id bytea, 1 seq int8, 2 version int4, 3 msg_type int4, 4 sender, 5 recipient, 6 timestamp int8
 *   (saturated at 2^63-1), 7 block_ref text, 8 nonce text, 9 conversation_id, 10 payload_hash,
 *   11 payload_len int4, 12 signature, 13 raw, 14 epoch int4, 15 source (its label),
 *   16 topic text (NULL when none), 17 received_at timestamptz (µs since 2000-01-01)
 *
 * The payload is not sent: it is the part of `raw` before the 66-byte signature item.
 */
export function envelopeCsvCopySql(f: ExportFilter, o: EnvelopeCsvCopy, epochSeconds?: number): string {
  return envelopeCopySql(null, f, o.limit, epochSeconds);
}

/**
 * Both fast paths' COPY: the stored columns in table order, the u64 decimals as text, and
 * `payload` (the payload's own bytes) after payload_len when given.
 */
function envelopeCopySql(payload: string | null, f: ExportFilter, limit?: number, epochSeconds?: number): string {
  return `COPY (SELECT e.id, e.seq, e.version, e.msg_type, e.sender, e.recipient, e.timestamp, e.block_ref::text,
    e.nonce::text,
    e.conversation_id, e.payload_hash, e.payload_len, ${payload === null ? '' : `${payload}, `}e.signature, e.raw,
      e.epoch, e.source::text, e.topic, e.received_at
  ${fromWhere(f, limit, epochSeconds)}) TO STDOUT (FORMAT binary)`;
}

/** The payload (item 10) cut out of `raw`: it ends where the 66-byte signature item begins. */
const PAYLOAD = `substring(e.raw from length(e.raw) - 65 - e.payload_len for e.payload_len)`;

/** FROM, WHERE, ORDER BY and LIMIT of both COPY statements: the filter's values inlined (`literal`). */
function fromWhere(f: ExportFilter, limit?: number, epochSeconds?: number): string {
  const where: string[] = [];
  if (f.fromUs !== undefined) where.push(`e.timestamp >= ${literal(f.fromUs)}`);
  if (f.toUs !== undefined) where.push(`e.timestamp < ${literal(f.toUs)}`);
  if (epochSeconds) {
    // the partition key too, so only the window's partitions are read
    const b = epochBounds(f, epochSeconds);
    if (b.from !== undefined) where.push(`e.epoch >= ${literal(b.from)}`);
    if (b.to !== undefined) where.push(`e.epoch <= ${literal(b.to)}`);
  }
  if (f.agent) where.push(`(e.sender = ${literal(f.agent)} OR e.recipient = ${literal(f.agent)})`);
  if (f.types?.length) where.push(`e.msg_type IN (${f.types.map(literal).join(', ')})`);
  if (f.maxSeq !== undefined) where.push(`e.seq <= ${literal(f.maxSeq)}`);
  return (
    `FROM envelope e ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ` +
    `ORDER BY e.seq${limit === undefined ? '' : ` LIMIT ${literal(limit)}`}`
  );
}

/**
 * The envelopes Parquet fast path's COPY: every stored column binary, in table order, the
 * u64 decimals as text and the payload cut out of `raw` (lib/export/envelope-parquet.ts):
 *
 *   0 id, 1 seq int8, 2 version int4, 3 msg_type int4, 4 sender, 5 recipient, 6 timestamp int8
 *   (saturated at 2^63-1), 7 block_ref text, 8 nonce text, 9 conversation_id, 10 payload_hash,
 *   11 payload_len int4, 12 payload, 13 signature, 14 raw, 15 epoch int4, 16 source text,
 *   17 topic text (NULL when none), 18 received_at timestamptz
 */
export function envelopeParquetCopySql(f: ExportFilter, limit?: number, epochSeconds?: number): string {
  return envelopeCopySql(PAYLOAD, f, limit, epochSeconds);
}

/** The binary COPY data of the envelopes Parquet fast path; null when the database is not Postgres. */
export function envelopeParquetCopy(
  db: Db,
  f: ExportFilter,
  limit?: number,
  signal?: AbortSignal,
  epochSeconds?: number,
  reader = 'export',
): AsyncIterable<Uint8Array> | null {
  if (db.kind !== 'postgres' || !db.copyOut) return null;
  return db.copyOut(named(reader, envelopeParquetCopySql(f, limit, epochSeconds)), signal);
}

/** The binary COPY data of the envelopes CSV fast path; null when the database is not Postgres. */
export function envelopeCsvCopy(
  db: Db,
  f: ExportFilter,
  o: EnvelopeCsvCopy,
  signal?: AbortSignal,
  epochSeconds?: number,
  reader = 'export',
): AsyncIterable<Uint8Array> | null {
  if (db.kind !== 'postgres' || !db.copyOut) return null;
  return db.copyOut(named(reader, envelopeCsvCopySql(f, o, epochSeconds)), signal);
}

/** The statement led by a comment naming its reader, which pg_stat_activity shows (export.ts ScanOptions). */
function named(reader: string, sql: string): string {
  return `/* zx_${reader} */ ${sql}`;
}

/**
 * The envelopes export's fast path on Postgres (docs/datasets.md "Bench"): one
 * `COPY (SELECT …) TO STDOUT (FORMAT binary)` in which Postgres itself writes every CSV cell it
 * can (hex of the byte columns, decimals, the quoted topic), so JavaScript only
 * formats the decoded payload columns. Rows arrive as binary COPY tuples (lib/export/copy-binary.ts
 * parses them without building row objects); each tuple is
 *
 *   0 `head`  text         CSV of id … recipient, with the trailing comma
 *   1 `ts`    int8         the timestamp column (µs; saturated at 2^63-1)
 *   2 `mid`   text         CSV of block_ref … payload_len, with a comma on both ends
 *   3 `tail`  text         CSV of signature … gossip_topic, with a comma on both ends
 *   4 `recv`  timestamptz  received_at (binary: µs since 2000-01-01)
 *   5 `t`     int4         msg_type
 *   6 `p`     bytea        the payload (JavaScript writes its hex and decodes it)
 *   7 `raw`   bytea        the envelope, only when `ts` is saturated (its exact u64 timestamp)
 *
 * The two times and the payload travel binary and are formatted in JavaScript: to_char and a
 * second encode() of the payload cost Postgres more than a cached ISO prefix and a hex loop cost
 * JavaScript (psql, best of 7 on 100,000 rows: the payload's encode() alone took this statement
 * from 0.30–0.32 s to 0.38–0.6 s, against 0.31 s for the bench's plain COPY of the table).
 *
 * COPY takes no bind parameters, so the filter's values are inlined as typed literals built
 * from bigints, bytes and integers only (`literal`), never from caller text.
 */
import type { Db } from './db';
import { epochBounds, type ExportFilter } from './export-filter';


function literal(v: unknown): string {
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v))) return `${v}`;
  if (v instanceof Uint8Array) return `'\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}'::bytea`;
  throw new TypeError(`cannot inline ${typeof v} into COPY`);
}

const hex = (col: string) => `encode(${col}, 'hex')`;

export interface EnvelopeCsvCopy {
  /** msg_type code → name for the msg_type_name cell; other codes print as 0x<hex>. */
  typeNames: Record<number, string>;
  limit?: number;
}

/** The COPY statement of the envelopes CSV fast path under `f` (module comment for the tuple). */
export function envelopeCsvCopySql(f: ExportFilter, o: EnvelopeCsvCopy, epochSeconds?: number): string {
  for (const [code, name] of Object.entries(o.typeNames)) {
    if (!/^\d+$/.test(code) || !/^[A-Z0-9_]+$/.test(name)) throw new TypeError(`bad message type name ${code}=${name}`);
  }
  const names = `CASE e.msg_type ${Object.entries(o.typeNames).map(([c, n]) => `WHEN ${Number(c)} THEN '${n}'`).join(' ')} ELSE '0x' || to_hex(e.msg_type) END`;
  return `COPY (SELECT
    ${hex('e.id')} || ',' || e.seq::text || ',' || e.version::text || ',' || e.msg_type::text || ',' || ${names} || ','
      || ${hex('e.sender')} || ',' || ${hex('e.recipient')} || ',' AS head,
    e.timestamp AS ts,
    ',' || e.block_ref::text || ',' || e.nonce::text || ',' || ${hex('e.conversation_id')} || ',' || ${hex('e.payload_hash')}
      || ',' || e.payload_len::text || ',' AS mid,
    ',' || ${hex('e.signature')} || ',' || ${hex('e.raw')} || ',' || e.epoch::text || ',' || e.source::text || ','
      || COALESCE(CASE WHEN e.topic ~ '[",\\r\\n]' THEN '"' || replace(e.topic, '"', '""') || '"' ELSE e.topic END, '') || ',' AS tail,
    e.received_at AS recv,
    e.msg_type AS t,
    ${PAYLOAD} AS p,
    CASE WHEN e.timestamp = 9223372036854775807 THEN e.raw END AS raw
  ${fromWhere(f, o.limit, epochSeconds)}) TO STDOUT (FORMAT binary)`;
}

/** The payload (item 10) cut out of `raw`: it ends where the 66-byte signature item begins. */
const PAYLOAD = `substring(e.raw from length(e.raw) - 65 - e.payload_len for e.payload_len)`;

/** FROM, WHERE, ORDER BY and LIMIT of both COPY statements: the filter's values inlined (`literal`). */
function fromWhere(f: ExportFilter, limit?: number, epochSeconds?: number): string {
  const where: string[] = [];
  if (f.fromUs !== undefined) where.push(`e.timestamp >= ${literal(f.fromUs)}`);
  if (f.toUs !== undefined) where.push(`e.timestamp < ${literal(f.toUs)}`);
  if (epochSeconds) { // the partition key too, so only the window's partitions are read
    const b = epochBounds(f, epochSeconds);
    if (b.from !== undefined) where.push(`e.epoch >= ${literal(b.from)}`);
    if (b.to !== undefined) where.push(`e.epoch <= ${literal(b.to)}`);
  }
  if (f.agent) where.push(`(e.sender = ${literal(f.agent)} OR e.recipient = ${literal(f.agent)})`);
  if (f.types?.length) where.push(`e.msg_type IN (${f.types.map(literal).join(', ')})`);
  return `FROM envelope e ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY e.seq${limit === undefined ? '' : ` LIMIT ${literal(limit)}`}`;
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
  return `COPY (SELECT e.id, e.seq, e.version, e.msg_type, e.sender, e.recipient, e.timestamp, e.block_ref::text, e.nonce::text,
    e.conversation_id, e.payload_hash, e.payload_len, ${PAYLOAD}, e.signature, e.raw, e.epoch, e.source::text, e.topic, e.received_at
  ${fromWhere(f, limit, epochSeconds)}) TO STDOUT (FORMAT binary)`;
}

/** The binary COPY data of the envelopes Parquet fast path; null when the database is not Postgres. */
export function envelopeParquetCopy(
  db: Db, f: ExportFilter, limit?: number, signal?: AbortSignal, epochSeconds?: number,
): AsyncIterable<Uint8Array> | null {
  if (db.kind !== 'postgres' || !db.copyOut) return null;
  return db.copyOut(envelopeParquetCopySql(f, limit, epochSeconds), signal);
}

/** The binary COPY data of the envelopes CSV fast path; null when the database is not Postgres. */
export function envelopeCsvCopy(
  db: Db, f: ExportFilter, o: EnvelopeCsvCopy, signal?: AbortSignal, epochSeconds?: number,
): AsyncIterable<Uint8Array> | null {
  if (db.kind !== 'postgres' || !db.copyOut) return null;
  return db.copyOut(envelopeCsvCopySql(f, o, epochSeconds), signal);
}

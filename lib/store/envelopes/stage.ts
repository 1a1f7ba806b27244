/**
 * The binary form of an ingest batch. One column list, two
 * encodings of the same values, both binary (bytea as it is: no hex, no array literals; integers
 * big-endian):
 * - `encodeStage`: a PostgreSQL "COPY … (FORMAT binary)" stream for the session's staging table
 *   (PGlite: `COPY FROM '/dev/blob'` inside a transaction);
 * - `encodeColumns`: one binary array per column, bound as parameters of a single statement that
 *   unnests them (Postgres: the whole batch in one round trip, no transaction block).
 */
import { decodeNeg1 } from '../../protocol/neg1';
import { decodeFeedback, decodeNotarizeBid } from '../../protocol/payloads';
import { MsgType } from '../../protocol/types';
import type { IngestItem } from '../types';
import { conversationBit } from './derive';

type ColType = 'bytea' | 'int4' | 'int8' | 'text' | 'timestamptz' | 'bool';
type Value = Uint8Array | number | bigint | string | boolean | null;

/** Staged columns in order: name and binary type. */
export const STAGE_COLUMNS: ReadonlyArray<readonly [string, ColType]> = [
  ['id', 'bytea'],
  ['version', 'int4'],
  ['msg_type', 'int4'],
  ['sender', 'bytea'],
  ['recipient', 'bytea'],
  ['ts', 'int8'],
  ['block_ref', 'int8'],
  ['nonce', 'int8'],
  ['conversation_id', 'bytea'],
  ['payload_hash', 'bytea'],
  ['payload_len', 'int4'],
  ['signature', 'bytea'],
  ['raw', 'bytea'],
  ['source', 'text'],
  ['topic', 'text'],
  ['received_at', 'timestamptz'],
  ['epoch', 'int4'],
  ['direct', 'bool'],
  ['tbit', 'int4'],
  ['fb_conv', 'bytea'],
  ['fb_target', 'bytea'],
  ['fb_score', 'int4'],
  ['fb_outcome', 'int4'],
  ['fb_dispute', 'bool'],
  ['fb_role', 'int4'],
  ['bid_conv', 'bytea'],
  ['bid_type', 'int4'],
  ['bid_terms', 'bytea'],
  ['deal_price', 'text'],
  ['deal_service', 'bytea'],
  ['deal_token', 'bytea'],
];
const FIELDS = STAGE_COLUMNS.length;
const OID: Record<ColType, number> = { bytea: 17, int4: 23, int8: 20, text: 25, timestamptz: 1184, bool: 16 };
const WIDTH: Partial<Record<ColType, number>> = { int4: 4, int8: 8, timestamptz: 8, bool: 1 };

/** Session-local staging table for the COPY form; rows vanish at commit. */
export const STAGE_DDL = `CREATE TEMP TABLE IF NOT EXISTS zx_stage (
  ${STAGE_COLUMNS.map(([n, t]) => `${n} ${t}`).join(', ')}
) ON COMMIT DELETE ROWS`;

/** A FROM item yielding the staged rows from `encodeColumns`' parameters $1..$31. */
export const UNNEST_COLUMNS =
  `unnest(${STAGE_COLUMNS.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ')}` +
  `) AS u(${STAGE_COLUMNS.map(([n]) => n).join(', ')})`;

const INT8_MAX = (1n << 63n) - 1n;
const U64 = 1n << 64n;
const PG_EPOCH_MS = 946_684_800_000; // 2000-01-01T00:00:00Z, the zero of binary timestamptz
const HEADER = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const TEXT = new TextEncoder();

function isBroadcast(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return false;
  return b.length === 32;
}

/**
 * The staged values of one envelope, in STAGE_COLUMNS order. u64 nonce/block_ref travel as
 * their int8 two's-complement reinterpretation (SQL adds 2^64 back); timestamp saturates at
 * 2^63-1 (the exact value stays in `raw`); received_at is µs since 2000-01-01.
 */
function rowValues(it: IngestItem, epochOf: (ts: bigint) => number): Value[] {
  const e = it.envelope;
  const tbit = conversationBit(e.msgType);
  const fb = e.msgType === MsgType.FEEDBACK ? decodeFeedback(e.payload) : undefined;
  const bid = e.msgType === MsgType.NOTARIZE_BID ? decodeNotarizeBid(e.payload) : undefined;
  // An ACCEPT's NEG1 bid_value is the agreed price (the stats rollups' volume and median).
  const deal = e.msgType === MsgType.ACCEPT ? decodeNeg1(e.payload) : undefined;
  return [
    it.id,
    e.version,
    e.msgType,
    e.sender,
    e.recipient,
    e.timestamp > INT8_MAX ? INT8_MAX : e.timestamp,
    e.blockRef > INT8_MAX ? e.blockRef - U64 : e.blockRef,
    e.nonce > INT8_MAX ? e.nonce - U64 : e.nonce,
    e.conversationId,
    e.payloadHash,
    e.payloadLen,
    e.signature,
    it.raw,
    it.source,
    it.topic ?? null,
    BigInt(Math.round((it.receivedAt.getTime() - PG_EPOCH_MS) * 1000)),
    epochOf(e.timestamp),
    !isBroadcast(e.recipient),
    tbit,
    ...(fb?.ok
      ? [
          fb.value.conversationId,
          fb.value.targetAgent,
          fb.value.score,
          fb.value.outcome,
          fb.value.isDispute,
          fb.value.role,
        ]
      : [null, null, null, null, null, null]),
    ...(bid?.ok ? [bid.value.conversationId, bid.value.bidType, bid.value.terms] : [null, null, null]),
    ...(deal?.ok ? [deal.value.bidValue.toString(), deal.value.serviceHash, deal.value.tokenMint] : [null, null, null]),
  ];
}

/** Text values become UTF-8 bytes once, so sizes are known before writing. */
function rows(items: readonly IngestItem[], epochOf: (ts: bigint) => number): Value[][] {
  return items.map((it) => {
    const r = rowValues(it, epochOf);
    for (let c = 0; c < FIELDS; c++) if (typeof r[c] === 'string') r[c] = TEXT.encode(r[c] as string);
    return r;
  });
}

const valueSize = (t: ColType, v: Value) => (v === null ? 0 : (WIDTH[t] ?? (v as Uint8Array).length));

/** Writes `v` (length word + bytes, or -1 for NULL) at `o`; returns the new offset. */
function writeValue(buf: Buffer, o: number, t: ColType, v: Value): number {
  if (v === null) return buf.writeInt32BE(-1, o);
  switch (t) {
    case 'int4':
      o = buf.writeInt32BE(4, o);
      return buf.writeInt32BE((v as number) | 0, o);
    case 'int8':
    case 'timestamptz':
      o = buf.writeInt32BE(8, o);
      return buf.writeBigInt64BE(v as bigint, o);
    case 'bool':
      o = buf.writeInt32BE(1, o);
      buf[o] = v ? 1 : 0;
      return o + 1;
    default: {
      const b = v as Uint8Array;
      o = buf.writeInt32BE(b.length, o);
      buf.set(b, o);
      return o + b.length;
    }
  }
}

/** The batch as a complete binary COPY stream for zx_stage. */
export function encodeStage(items: readonly IngestItem[], epochOf: (ts: bigint) => number): Buffer {
  const rs = rows(items, epochOf);
  let size = HEADER.length + 8 + 2;
  for (const r of rs) {
    size += 2 + FIELDS * 4;
    for (let c = 0; c < FIELDS; c++) size += valueSize(STAGE_COLUMNS[c][1], r[c]);
  }
  const buf = Buffer.allocUnsafe(size);
  let o = HEADER.copy(buf, 0);
  o = buf.writeInt32BE(0, o); // flags
  o = buf.writeInt32BE(0, o); // header extension length
  for (const r of rs) {
    o = buf.writeInt16BE(FIELDS, o);
    for (let c = 0; c < FIELDS; c++) o = writeValue(buf, o, STAGE_COLUMNS[c][1], r[c]);
  }
  o = buf.writeInt16BE(-1, o); // trailer
  return buf.subarray(0, o);
}

/**
 * The batch as one binary one-dimensional array per column (array_recv layout: ndim, has-null
 * flag, element type oid, length, lower bound, then length-prefixed elements), in
 * STAGE_COLUMNS order: the parameters of a statement that uses UNNEST_COLUMNS.
 */
export function encodeColumns(items: readonly IngestItem[], epochOf: (ts: bigint) => number): Buffer[] {
  const rs = rows(items, epochOf);
  return STAGE_COLUMNS.map(([, t], c) => {
    let size = 20 + 4 * rs.length;
    let nulls = 0;
    for (const r of rs) {
      size += valueSize(t, r[c]);
      if (r[c] === null) nulls = 1;
    }
    const buf = Buffer.allocUnsafe(size);
    let o = buf.writeInt32BE(1, 0);
    o = buf.writeInt32BE(nulls, o);
    o = buf.writeInt32BE(OID[t], o);
    o = buf.writeInt32BE(rs.length, o);
    o = buf.writeInt32BE(1, o);
    for (const r of rs) o = writeValue(buf, o, t, r[c]);
    return buf;
  });
}

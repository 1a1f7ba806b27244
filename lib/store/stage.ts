/**
 * Binary COPY encoding of an ingest batch into the session's staging table (issue 3 "Ingest is
 * batched"; PostgreSQL "COPY … (FORMAT binary)" file layout). One preallocated buffer per batch:
 * bytea columns are copied as they are (no hex, no array literals), integers are big-endian.
 * The same bytes feed `COPY FROM STDIN` on Postgres and `COPY FROM '/dev/blob'` on PGlite.
 */
import { decodeFeedback, decodeNotarizeBid } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { conversationStage } from './derive';
import type { IngestItem } from './types';

/** Session-local staging table; rows vanish at commit. Column order = `encodeStage` field order. */
export const STAGE_DDL = `CREATE TEMP TABLE IF NOT EXISTS zx_stage (
  id bytea, version int4, msg_type int4, sender bytea, recipient bytea, ts int8, block_ref int8, nonce int8,
  conversation_id bytea, payload_hash bytea, payload_len int4, signature bytea, raw bytea, source text, topic text,
  received_at timestamptz, epoch int4, direct bool, rank int4,
  fb_conv bytea, fb_target bytea, fb_score int4, fb_outcome int4, fb_dispute bool, fb_role int4,
  bid_conv bytea, bid_type int4, bid_terms bytea
) ON COMMIT DELETE ROWS`;

const FIELDS = 28;
const INT8_MAX = (1n << 63n) - 1n;
const U64 = 1n << 64n;
const PG_EPOCH_MS = 946_684_800_000; // 2000-01-01T00:00:00Z, the zero of binary timestamptz
const HEADER = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

function isBroadcast(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return false;
  return b.length === 32;
}

/**
 * Encodes items as a complete binary COPY stream. u64 nonce/block_ref travel as their int8
 * two's-complement reinterpretation (SQL adds 2^64 back); timestamp saturates at 2^63-1 (the
 * exact value stays in `raw`).
 */
export function encodeStage(items: readonly IngestItem[], epochOf: (ts: bigint) => number): Buffer {
  // Per row: 2 (field count) + 4 per field + fixed-width values + variable bytes (upper bound).
  let size = HEADER.length + 8 + 2;
  const extra: Array<{ fb?: ReturnType<typeof decodeFeedback>; bid?: ReturnType<typeof decodeNotarizeBid> }> = [];
  for (const it of items) {
    const e = it.envelope;
    size += 2 + FIELDS * 4 + 4 * 13 + 8 * 4 + 2 + it.id.length + e.sender.length + e.recipient.length
      + e.conversationId.length + e.payloadHash.length + e.signature.length + it.raw.length
      + Buffer.byteLength(it.source) + (it.topic ? Buffer.byteLength(it.topic) : 0);
    const x: (typeof extra)[number] = {};
    if (e.msgType === MsgType.FEEDBACK) {
      x.fb = decodeFeedback(e.payload);
      if (x.fb.ok) size += x.fb.value.conversationId.length + x.fb.value.targetAgent.length;
    } else if (e.msgType === MsgType.NOTARIZE_BID) {
      x.bid = decodeNotarizeBid(e.payload);
      if (x.bid.ok) size += x.bid.value.conversationId.length + x.bid.value.terms.length;
    }
    extra.push(x);
  }
  const buf = Buffer.allocUnsafe(size);
  let o = HEADER.copy(buf, 0);
  o = buf.writeInt32BE(0, o); // flags
  o = buf.writeInt32BE(0, o); // header extension length
  const bytes = (b: Uint8Array) => { o = buf.writeInt32BE(b.length, o); buf.set(b, o); o += b.length; };
  const text = (s: string) => { const n = buf.write(s, o + 4, 'utf8'); buf.writeInt32BE(n, o); o += 4 + n; };
  const i4 = (v: number) => { o = buf.writeInt32BE(4, o); o = buf.writeInt32BE(v | 0, o); };
  const i8 = (v: bigint) => { o = buf.writeInt32BE(8, o); o = buf.writeBigInt64BE(v, o); };
  const bool = (v: boolean) => { o = buf.writeInt32BE(1, o); buf[o++] = v ? 1 : 0; };
  const nil = (n = 1) => { for (let k = 0; k < n; k++) o = buf.writeInt32BE(-1, o); };
  for (let r = 0; r < items.length; r++) {
    const it = items[r];
    const e = it.envelope;
    o = buf.writeInt16BE(FIELDS, o);
    bytes(it.id); i4(e.version); i4(e.msgType); bytes(e.sender); bytes(e.recipient);
    i8(e.timestamp > INT8_MAX ? INT8_MAX : e.timestamp);
    i8(e.blockRef > INT8_MAX ? e.blockRef - U64 : e.blockRef);
    i8(e.nonce > INT8_MAX ? e.nonce - U64 : e.nonce);
    bytes(e.conversationId); bytes(e.payloadHash); i4(e.payloadLen); bytes(e.signature); bytes(it.raw);
    text(it.source);
    if (it.topic == null) nil(); else text(it.topic);
    i8(BigInt(Math.round((it.receivedAt.getTime() - PG_EPOCH_MS) * 1000)));
    i4(epochOf(e.timestamp));
    bool(!isBroadcast(e.recipient));
    const st = conversationStage(e.msgType);
    if (st) i4(st.rank); else nil();
    const { fb, bid } = extra[r];
    if (fb?.ok) {
      bytes(fb.value.conversationId); bytes(fb.value.targetAgent); i4(fb.value.score); i4(fb.value.outcome);
      bool(fb.value.isDispute); i4(fb.value.role);
    } else nil(6);
    if (bid?.ok) { bytes(bid.value.conversationId); i4(bid.value.bidType); bytes(bid.value.terms); } else nil(3);
  }
  o = buf.writeInt16BE(-1, o); // trailer
  return buf.subarray(0, o);
}

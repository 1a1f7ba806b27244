/**
 * The envelopes CSV fast path on Postgres (docs/datasets.md "Bench"). Postgres sends the stored
 * columns as binary COPY tuples with no conversion (lib/store/export/export-copy.ts), and every cell is
 * written here straight into a large output Buffer: hex through a 64K-entry table (two input
 * bytes, four output bytes per step), integers and the two times (cached ISO prefix) digit by
 * digit, text cells copied, and the decoded payload columns (lib/protocol, docs/protocol.md §4,
 * §8) from the in-place scanner. No string or object is built per row for a scanned payload,
 * and output goes out in large chunks, so the garbage per row is nearly nothing.
 * The bytes are identical to the generic writer's (export-fast.test.ts checks).
 */
import { decodeEnvelope } from '../protocol/envelope';
import { MsgType } from '../protocol/types';
import type { EnvelopeCsvCopy } from '../store/export';
import { CopyTupleReader } from './copy-binary';
import { BYTE_FIELDS, KIND_FIELDS, KIND_NAMES, KIND_OPAQUE, KIND_UNSURE, P, PayloadScan } from './payload-scan';
import { decodePayloadInto, MSG_TYPE_NAMES, PAYLOAD_FIELDS } from './rows';
import type { TableSchema } from './schema';
import { cellFormatter, csvField } from './writers';

/** The dataset's columns in the order this writer produces them (checked against the schema). */
const COLUMNS = [
  'id',
  'seq',
  'version',
  'msg_type',
  'msg_type_name',
  'sender',
  'recipient',
  'timestamp',
  'block_ref',
  'nonce',
  'conversation_id',
  'payload_hash',
  'payload_len',
  'payload',
  'signature',
  'raw',
  'epoch',
  'seen_via',
  'gossip_topic',
  'first_seen',
];

/** Tuple fields of the store's COPY (lib/store/export/export-copy.ts envelopeCsvCopySql). */
const F_ID = 0,
  F_SEQ = 1,
  F_VERSION = 2,
  F_TYPE = 3,
  F_SENDER = 4,
  F_RECIPIENT = 5,
  F_TS = 6,
  F_BLOCK = 7,
  F_NONCE = 8,
  F_CONV = 9,
  F_PHASH = 10,
  F_PLEN = 11,
  F_SIG = 12,
  F_RAW = 13,
  F_EPOCH = 14,
  F_SOURCE = 15,
  F_TOPIC = 16,
  F_RECV = 17,
  FIELDS = 18;
/** The signature item that ends `raw` (CBOR head and 64 bytes); the payload ends where it begins. */
const SIG_ITEM = 66;

/** What the store's COPY needs. */
export function envelopeCopyOptions(limit?: number): EnvelopeCsvCopy {
  return { limit };
}

/** Types whose payload decodeInto reads (any other payload is opaque): skip the call for the rest. */
const DECODED = new Set<number>([
  MsgType.FEEDBACK,
  MsgType.NOTARIZE_BID,
  MsgType.PROPOSE,
  MsgType.COUNTER,
  MsgType.ACCEPT,
  MsgType.REJECT,
]);
/** Per scanner kind: `,<payload_kind>` and which payload cells it fills (0 empty, 1 integer, 2 bytes, 3 boolean). */
const KIND_CELL = KIND_NAMES.map((n) => Buffer.from(`,${n}`, 'latin1'));
const KIND_MASK = KIND_FIELDS.map((fs) => {
  const m = new Uint8Array(PAYLOAD_FIELDS.length);
  for (const f of fs) m[f] = BYTE_FIELDS.has(f) ? 2 : f === P.dispute ? 3 : 1;
  return m;
});
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
/** `msg_type_name` of each one-byte code, as rows.ts names it. */
const TYPE_NAMES = Array.from({ length: 256 }, (_, t) => Buffer.from(typeName(t), 'latin1'));
function typeName(t: number): string {
  return MSG_TYPE_NAMES[t] ?? `0x${t.toString(16)}`;
}

/**
 * Hex through tables: T16 maps a byte to its two digits and T32 two bytes to their four, as
 * little-endian words, so the loop does one table read and one 4-byte DataView store per two
 * input bytes at any output offset. Measured on this writer's cells (~640 bytes a row, CPU time):
 * ≈ 1.2 ns a byte, against ≈ 2.3 for a digit-per-byte loop, ≈ 3 for Buffer's toString('hex')
 * plus a latin1 write per cell and ≈ 12 for @noble/hashes' bytesToHex (libraries return a
 * string; none writes into a caller's buffer at an offset).
 */
const DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const T16 = new Uint16Array(256);
for (let b = 0; b < 256; b++) T16[b] = DIGITS[b >> 4] | (DIGITS[b & 15] << 8);
const T32 = new Uint32Array(65536);
for (let w = 0; w < 65536; w++) T32[w] = T16[w & 255] | (T16[w >> 8] << 16);

/** Writes the hex of `s[start, end)` at `q`; returns the end. */
export function hexInto(dv: DataView, q: number, s: Uint8Array, start: number, end: number): number {
  let k = start;
  for (; k + 1 < end; k += 2) {
    dv.setUint32(q, T32[s[k] | (s[k + 1] << 8)], true);
    q += 4;
  }
  if (k < end) {
    dv.setUint16(q, T16[s[k]], true);
    q += 2;
  }
  return q;
}

/** Copies `s[start, end)` to `o` at `q` (cells here are short: a loop beats a native call); returns the end. */
function copyInto(o: Buffer, q: number, s: Uint8Array, start: number, end: number): number {
  for (let k = start; k < end; k++) o[q++] = s[k];
  return q;
}

/** Writes the decimal of an integer |v| < 2^53 at `pos`; returns the end. */
export function intInto(out: Buffer, pos: number, v: number): number {
  if (v < 0) {
    out[pos++] = 0x2d;
    v = -v;
  }
  if (v < 10) {
    out[pos] = 0x30 + v;
    return pos + 1;
  }
  let digits = 1;
  if (v <= 0x7fffffff) {
    // Small integers (nearly every cell): int32 division, cheaper than Math.floor on doubles.
    for (let t = v; t >= 10; t = (t / 10) | 0) digits++;
    for (let k = pos + digits - 1; k >= pos; k--) {
      const d = (v / 10) | 0;
      out[k] = 0x30 + v - d * 10;
      v = d;
    }
    return pos + digits;
  }
  for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
  for (let k = pos + digits - 1; k >= pos; k--) {
    out[k] = 0x30 + (v % 10);
    v = Math.floor(v / 10);
  }
  return pos + digits;
}

/** Writes a text cell `s[start, end)` (UTF-8) at `q` with CSV quoting when it needs it; returns the end. */
export function textInto(o: Buffer, q: number, s: Uint8Array, start: number, end: number): number {
  let quote = false;
  for (let k = start; k < end; k++) {
    const c = s[k];
    if (c === 0x22 || c === 0x2c || c === 0x0d || c === 0x0a) {
      quote = true;
      break;
    }
  }
  if (!quote) return copyInto(o, q, s, start, end);
  o[q++] = 0x22;
  for (let k = start; k < end; k++) {
    const c = s[k];
    if (c === 0x22) o[q++] = 0x22;
    o[q++] = c;
  }
  o[q++] = 0x22;
  return q;
}

const CHUNK = 1 << 20;
/** Postgres's binary timestamptz counts µs from 2000-01-01T00:00:00Z. */
const PG_EPOCH_US = 946_684_800_000_000;
const I64_MAX = 2 ** 63 - 1;

/** Big-endian int64 at `o` as a double (exact below 2^53) and int32, without Buffer's read methods. */
const i64 = (b: Buffer, o: number) =>
  ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) * 4294967296 +
  (((b[o + 4] << 24) | (b[o + 5] << 16) | (b[o + 6] << 8) | b[o + 7]) >>> 0);
const i32 = (b: Buffer, o: number) => (b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3];

/**
 * Writes unix µs as `YYYY-MM-DDTHH:MM:SS.ffffffZ` into a buffer. The 11-byte date prefix of the
 * last day seen is reused (rows come roughly in time order, but an envelope's own timestamps
 * jump back and forth by seconds, so a per-second cache missed on most rows) and the time of day
 * and fraction are written digit by digit; exact for 0 ≤ µs < 2^53 (up to year 2255), larger
 * values go through the generic formatter.
 */
export function isoWriter(): (out: Buffer, pos: number, us: number) => number {
  let lastDay = -1;
  const prefix = Buffer.alloc(11);
  return (out, pos, us) => {
    const sec = Math.floor(us / 1e6);
    const day = Math.floor(sec / 86400);
    if (day !== lastDay) {
      prefix.write(new Date(day * 86400_000).toISOString(), 0, 11, 'latin1');
      lastDay = day;
    }
    for (let k = 0; k < 11; k++) out[pos + k] = prefix[k];
    pos += 11;
    let s = sec - day * 86400;
    const h = Math.floor(s / 3600);
    s -= h * 3600;
    const m = Math.floor(s / 60);
    s -= m * 60;
    out[pos] = 0x30 + Math.floor(h / 10);
    out[pos + 1] = 0x30 + (h % 10);
    out[pos + 2] = 0x3a;
    out[pos + 3] = 0x30 + Math.floor(m / 10);
    out[pos + 4] = 0x30 + (m % 10);
    out[pos + 5] = 0x3a;
    out[pos + 6] = 0x30 + Math.floor(s / 10);
    out[pos + 7] = 0x30 + (s % 10);
    out[pos + 8] = 0x2e;
    pos += 9;
    let frac = us - sec * 1e6;
    for (let k = pos + 5; k >= pos; k--) {
      out[k] = 0x30 + (frac % 10);
      frac = Math.floor(frac / 10);
    }
    out[pos + 6] = 0x5a; // 'Z'
    return pos + 7;
  };
}

/** CSV of the envelopes table from the fast path's binary COPY data. */
export async function* envelopeCsv(
  schema: TableSchema,
  copy: AsyncIterable<Uint8Array>,
  onRows?: (n: number) => void,
): AsyncIterable<Uint8Array> {
  const names = schema.columns.map((c) => c.name);
  const payloadCols = schema.columns.slice(COLUMNS.length);
  if (names.slice(0, COLUMNS.length).join() !== COLUMNS.join())
    throw new Error('envelopes columns changed: update the fast path (lib/store/export/export-copy.ts, here)');
  if (payloadCols.map((c) => c.name).join() !== ['payload_kind', ...PAYLOAD_FIELDS].join())
    throw new Error('payload columns changed: update rows.ts PAYLOAD_FIELDS');
  const fields = payloadCols.slice(1);
  const fieldFmt = fields.map((c) => cellFormatter(c.type, true));
  const vals: unknown[] = [];
  const seenIso = isoWriter();
  // An opaque payload (or none decoded): payload_kind and 19 empty cells, the same every time.
  const opaque = Buffer.from(`,opaque${','.repeat(payloadCols.length - 1)}\r\n`, 'latin1');
  yield Buffer.from(`${names.map(csvField).join(',')}\r\n`, 'utf8');

  const r = new CopyTupleReader(FIELDS);
  let out = Buffer.allocUnsafe(CHUNK);
  let dv = new DataView(out.buffer, out.byteOffset, out.length);
  let pos = 0;
  let rows = 0;
  const full: Buffer[] = [];
  const scan = new PayloadScan();
  const { num, off: poff, len: plenOf } = scan;
  for await (const chunk of copy) {
    r.feed(chunk);
    while (r.next()) {
      const { buf, off, len } = r;
      if (r.fields !== FIELDS) throw new Error(`binary COPY tuple has ${r.fields} fields, ${FIELDS} expected`);
      // The payload: the bytes of `raw` before its signature item (clipped as SQL's substring would).
      const rawStart = off[F_RAW],
        rawEnd = rawStart + Math.max(len[F_RAW], 0);
      const plenCell = i32(buf, off[F_PLEN]);
      const pEnd = Math.max(rawEnd - SIG_ITEM, rawStart);
      const p0 = Math.max(pEnd - Math.max(plenCell, 0), rawStart);
      const plen = pEnd - p0;
      // Room for the row: every byte at most doubled (hex, quoting), the payload's cells again, digits and names.
      const need = 2 * r.tupleBytes + 4 * plen + 1024;
      if (pos + need > out.length) {
        full.push(out.subarray(0, pos));
        out = Buffer.allocUnsafe(Math.max(CHUNK, need));
        dv = new DataView(out.buffer, out.byteOffset, out.length);
        pos = 0;
      }
      const o = out;
      let q = hexInto(dv, pos, buf, off[F_ID], off[F_ID] + len[F_ID]);
      o[q++] = 0x2c;
      q = intInto(o, q, i64(buf, off[F_SEQ]));
      o[q++] = 0x2c;
      q = intInto(o, q, i32(buf, off[F_VERSION]));
      o[q++] = 0x2c;
      const t = i32(buf, off[F_TYPE]);
      q = intInto(o, q, t);
      o[q++] = 0x2c;
      if (t >= 0 && t < 256) {
        const n = TYPE_NAMES[t];
        q = copyInto(o, q, n, 0, n.length);
      } else q += o.write(typeName(t), q, 'latin1');
      o[q++] = 0x2c;
      q = hexInto(dv, q, buf, off[F_SENDER], off[F_SENDER] + len[F_SENDER]);
      o[q++] = 0x2c;
      q = hexInto(dv, q, buf, off[F_RECIPIENT], off[F_RECIPIENT] + len[F_RECIPIENT]);
      o[q++] = 0x2c;
      // The sender's µs as the integer it wrote (schema.ts u64_timestamp). int8 as a double: exact
      // below 2^53; the saturated value means "read it from raw".
      const ts = i64(buf, off[F_TS]);
      if (ts >= 0 && ts < Number.MAX_SAFE_INTEGER) q = intInto(o, q, ts);
      else if (ts >= I64_MAX) {
        const d = decodeEnvelope(buf.subarray(rawStart, rawEnd));
        q += o.write((d.ok ? d.envelope.timestamp : 0n).toString(), q, 'latin1');
      } else q += o.write(buf.readBigInt64BE(off[F_TS]).toString(), q, 'latin1');
      o[q++] = 0x2c;
      q = copyInto(o, q, buf, off[F_BLOCK], off[F_BLOCK] + len[F_BLOCK]);
      o[q++] = 0x2c;
      q = copyInto(o, q, buf, off[F_NONCE], off[F_NONCE] + len[F_NONCE]);
      o[q++] = 0x2c;
      q = hexInto(dv, q, buf, off[F_CONV], off[F_CONV] + len[F_CONV]);
      o[q++] = 0x2c;
      q = hexInto(dv, q, buf, off[F_PHASH], off[F_PHASH] + len[F_PHASH]);
      o[q++] = 0x2c;
      q = intInto(o, q, plenCell);
      o[q++] = 0x2c;
      q = hexInto(dv, q, buf, p0, pEnd);
      o[q++] = 0x2c;
      q = hexInto(dv, q, buf, off[F_SIG], off[F_SIG] + len[F_SIG]);
      o[q++] = 0x2c;
      q = hexInto(dv, q, buf, rawStart, rawEnd);
      o[q++] = 0x2c;
      q = intInto(o, q, i32(buf, off[F_EPOCH]));
      o[q++] = 0x2c;
      q = copyInto(o, q, buf, off[F_SOURCE], off[F_SOURCE] + len[F_SOURCE]);
      o[q++] = 0x2c;
      if (len[F_TOPIC] > 0) q = textInto(o, q, buf, off[F_TOPIC], off[F_TOPIC] + len[F_TOPIC]);
      o[q++] = 0x2c;
      q = seenIso(o, q, i64(buf, off[F_RECV]) + PG_EPOCH_US);
      rows++;
      const k = DECODED.has(t) ? scan.scan(t, buf, p0, pEnd) : KIND_OPAQUE;
      if (k > KIND_OPAQUE) {
        const name = KIND_CELL[k];
        q = copyInto(o, q, name, 0, name.length);
        const mask = KIND_MASK[k];
        for (let i = 0; i < mask.length; i++) {
          o[q++] = 0x2c;
          const m = mask[i];
          if (m === 1) q = intInto(o, q, num[i]);
          else if (m === 2) q = hexInto(dv, q, buf, poff[i], poff[i] + plenOf[i]);
          else if (m === 3) {
            const w = num[i] === 1 ? TRUE : FALSE;
            q = copyInto(o, q, w, 0, w.length);
          }
        }
        o[q++] = 0x0d;
        o[q++] = 0x0a;
        pos = q;
        continue;
      }
      const kind =
        k === KIND_UNSURE
          ? decodePayloadInto(t, new Uint8Array(buf.buffer, buf.byteOffset + p0, plen), vals)
          : 'opaque';
      if (kind === 'opaque') {
        pos = copyInto(o, q, opaque, 0, opaque.length);
        continue;
      }
      o[q++] = 0x2c; // ','
      q += o.write(kind, q, 'latin1');
      for (let i = 0; i < fields.length; i++) {
        o[q++] = 0x2c;
        const v = vals[i];
        if (v === null || v === undefined) continue;
        if (v instanceof Uint8Array) q = hexInto(dv, q, v, 0, v.length);
        else q += o.write(fieldFmt[i](v), q, 'utf8');
      }
      o[q++] = 0x0d;
      o[q++] = 0x0a;
      pos = q;
    }
    if (full.length) {
      onRows?.(rows);
      yield* full.splice(0);
    }
  }
  if (!r.ended) throw new Error('the COPY stream ended before its trailer');
  onRows?.(rows);
  if (pos) yield out.subarray(0, pos);
}

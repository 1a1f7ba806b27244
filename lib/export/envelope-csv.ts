/**
 * The envelopes CSV fast path on Postgres (docs/datasets.md "Bench"). Postgres writes the cells
 * it can (lib/store/export-copy.ts) and sends them as binary COPY tuples; here each tuple's text
 * is copied byte for byte into a large output Buffer, and only the two times, the payload's hex
 * and the decoded payload columns (lib/protocol, docs/protocol.md §4, §8) are formatted here. No row object is built for an opaque
 * payload, and output goes out in 1 MB chunks, so the garbage per row is a few small objects.
 * The bytes are identical to the generic writer's (export-fast.test.ts checks).
 */
import { decodeEnvelope } from '../protocol/envelope';
import { MsgType } from '../protocol/types';
import type { EnvelopeCsvCopy } from '../store/export-copy';
import { CopyTupleReader } from './copy-binary';
import { decodePayloadInto, MSG_TYPE_NAMES, PAYLOAD_FIELDS } from './rows';
import { BYTE_FIELDS, KIND_FIELDS, KIND_NAMES, KIND_OPAQUE, KIND_UNSURE, P, PayloadScan } from './payload-scan';
import type { TableSchema } from './schema';
import { cellFormatter, csvField } from './writers';

/** Columns Postgres writes around the two times; the rest are the payload columns. */
const HEAD = ['id', 'seq', 'version', 'msg_type', 'msg_type_name', 'sender', 'recipient'];
const TAIL = ['block_ref', 'nonce', 'conversation_id', 'payload_hash', 'payload_len', 'payload', 'signature', 'raw', 'epoch', 'seen_via', 'gossip_topic', 'first_seen'];
// (Postgres writes block_ref … payload_len and signature … gossip_topic; JavaScript the payload hex and first_seen.)

/** What the store's COPY needs: the message type names. */
export function envelopeCopyOptions(limit?: number): EnvelopeCsvCopy {
  return { typeNames: MSG_TYPE_NAMES, limit };
}

/** Types whose payload decodeInto reads (any other payload is opaque): skip the call for the rest. */
const DECODED = new Set<number>([MsgType.FEEDBACK, MsgType.NOTARIZE_BID, MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT, MsgType.REJECT]);
/** Per scanner kind: `,<payload_kind>` and which payload cells it fills (0 empty, 1 integer, 2 bytes, 3 boolean). */
const KIND_CELL = KIND_NAMES.map((n) => Buffer.from(`,${n}`, 'latin1'));
const KIND_MASK = KIND_FIELDS.map((fs) => {
  const m = new Uint8Array(PAYLOAD_FIELDS.length);
  for (const f of fs) m[f] = BYTE_FIELDS.has(f) ? 2 : f === P.dispute ? 3 : 1;
  return m;
});
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');

/** Writes the decimal of an integer |v| < 2^53 at `pos`; returns the end. */
function intInto(out: Buffer, pos: number, v: number): number {
  if (v < 0) { out[pos++] = 0x2d; v = -v; }
  let digits = 1;
  for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
  for (let k = pos + digits - 1; k >= pos; k--) { out[k] = 0x30 + (v % 10); v = Math.floor(v / 10); }
  return pos + digits;
}

const CHUNK = 1 << 20;
const HEXDIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** Postgres's binary timestamptz counts µs from 2000-01-01T00:00:00Z. */
const PG_EPOCH_US = 946_684_800_000_000;
const I64_MAX = 2 ** 63 - 1;

/** Big-endian int64 at `o` as a double (exact below 2^53) and int32, without Buffer's read methods. */
const i64 = (b: Buffer, o: number) => ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) * 4294967296
  + (((b[o + 4] << 24) | (b[o + 5] << 16) | (b[o + 6] << 8) | b[o + 7]) >>> 0);
const i32 = (b: Buffer, o: number) => (b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3];

/**
 * Writes unix µs as `YYYY-MM-DDTHH:MM:SS.ffffffZ` into a buffer. Rows come in time order, so the
 * 19-byte date-time prefix of the last second is reused and only the six fraction digits are
 * written; exact for 0 ≤ µs < 2^53 (up to year 2255), larger values go through the generic formatter.
 */
function isoWriter(): (out: Buffer, pos: number, us: number) => number {
  let lastSec = -1;
  const prefix = Buffer.alloc(19);
  return (out, pos, us) => {
    const sec = Math.floor(us / 1e6);
    if (sec !== lastSec) { prefix.write(new Date(sec * 1000).toISOString(), 0, 19, 'latin1'); lastSec = sec; }
    for (let k = 0; k < 19; k++) out[pos + k] = prefix[k];
    pos += 19;
    out[pos++] = 0x2e; // '.'
    let frac = us - sec * 1e6;
    for (let k = pos + 5; k >= pos; k--) { out[k] = 0x30 + (frac % 10); frac = Math.floor(frac / 10); }
    out[pos + 6] = 0x5a; // 'Z'
    return pos + 7;
  };
}

/** CSV of the envelopes table from the fast path's binary COPY data. */
export async function* envelopeCsv(schema: TableSchema, copy: AsyncIterable<Uint8Array>, onRows?: (n: number) => void): AsyncIterable<Uint8Array> {
  const names = schema.columns.map((c) => c.name);
  const payloadCols = schema.columns.slice(HEAD.length + 1 + TAIL.length);
  if (names.slice(0, HEAD.length).join() !== HEAD.join() || names[HEAD.length] !== 'timestamp'
    || names.slice(HEAD.length + 1, HEAD.length + 1 + TAIL.length).join() !== TAIL.join()) {
    throw new Error('envelopes columns changed: update the fast path (lib/store/export-copy.ts, envelope-csv.ts)');
  }
  if (payloadCols.map((c) => c.name).join() !== ['payload_kind', ...PAYLOAD_FIELDS].join()) throw new Error('payload columns changed: update rows.ts PAYLOAD_FIELDS');
  const fields = payloadCols.slice(1);
  const fieldFmt = fields.map((c) => cellFormatter(c.type, true));
  const vals: unknown[] = [];
  const tsFmt = cellFormatter('timestamp', true);
  const tsIso = isoWriter();
  const seenIso = isoWriter();
  // An opaque payload (or none decoded): payload_kind and 19 empty cells, the same every time.
  const opaque = Buffer.from(`,opaque${','.repeat(payloadCols.length - 1)}\r\n`, 'latin1');
  yield Buffer.from(names.map(csvField).join(',') + '\r\n', 'utf8');

  const r = new CopyTupleReader(8);
  let out = Buffer.allocUnsafe(CHUNK);
  let pos = 0;
  let rows = 0;
  const full: Buffer[] = [];
  const room = (n: number) => {
    if (pos + n <= out.length) return;
    full.push(out.subarray(0, pos));
    out = Buffer.allocUnsafe(Math.max(CHUNK, n));
    pos = 0;
  };
  const text = (s: string) => { pos += out.write(s, pos, 'utf8'); };
  const field = (i: number) => { if (r.len[i] > 0) pos += r.buf.copy(out, pos, r.off[i], r.off[i] + r.len[i]); };
  const hexInto = (v: Uint8Array, start = 0, end = v.length) => {
    // Locals, not the closure's `out`/`pos`, inside the loop: this runs for ~100 bytes a row.
    const o = out;
    let q = pos;
    for (let k = start; k < end; k++) { const b = v[k]; o[q++] = HEXDIGITS[b >> 4]; o[q++] = HEXDIGITS[b & 15]; }
    pos = q;
  };
  const scan = new PayloadScan();
  const { num, off: poff, len: plenOf } = scan;
  for await (const chunk of copy) {
    r.feed(chunk);
    while (r.next()) {
      const { buf, off, len } = r;
      const plen = len[6] > 0 ? len[6] : 0;
      room(len[0] + len[2] + len[3] + 4 * plen + 1024);
      field(0);
      // int8 as a double: exact below 2^53; the saturated value means "read it from raw".
      const ts = i64(buf, off[1]);
      if (ts >= 0 && ts < Number.MAX_SAFE_INTEGER) pos = tsIso(out, pos, ts);
      else if (ts >= I64_MAX && len[7] > 0) {
        const d = decodeEnvelope(buf.subarray(off[7], off[7] + len[7]));
        text(tsFmt(d.ok ? d.envelope.timestamp : 0n));
      } else text(tsFmt(buf.readBigInt64BE(off[1])));
      field(2);
      const p0 = off[6];
      hexInto(buf, p0, p0 + plen);
      field(3);
      pos = seenIso(out, pos, i64(buf, off[4]) + PG_EPOCH_US);
      const t = i32(buf, off[5]);
      const k = DECODED.has(t) ? scan.scan(t, buf, p0, p0 + plen) : KIND_OPAQUE;
      if (k > KIND_OPAQUE) {
        const name = KIND_CELL[k];
        for (let j = 0; j < name.length; j++) out[pos++] = name[j];
        const mask = KIND_MASK[k];
        for (let i = 0; i < mask.length; i++) {
          out[pos++] = 0x2c;
          const m = mask[i];
          if (m === 1) pos = intInto(out, pos, num[i]);
          else if (m === 2) hexInto(buf, poff[i], poff[i] + plenOf[i]);
          else if (m === 3) { const w = num[i] === 1 ? TRUE : FALSE; for (let j = 0; j < w.length; j++) out[pos++] = w[j]; }
        }
        out[pos++] = 0x0d; out[pos++] = 0x0a;
        rows++;
        continue;
      }
      const kind = k === KIND_UNSURE ? decodePayloadInto(t, new Uint8Array(buf.buffer, buf.byteOffset + p0, plen), vals) : 'opaque';
      if (kind === 'opaque') { for (let k = 0; k < opaque.length; k++) out[pos++] = opaque[k]; rows++; continue; }
      out[pos++] = 0x2c; // ','
      pos += out.write(kind, pos, 'latin1');
      for (let i = 0; i < fields.length; i++) {
        out[pos++] = 0x2c;
        const v = vals[i];
        if (v === null || v === undefined) continue;
        if (v instanceof Uint8Array) hexInto(v);
        else text(fieldFmt[i](v));
      }
      out[pos++] = 0x0d; out[pos++] = 0x0a;
      rows++;
    }
    if (full.length) { onRows?.(rows); yield* full.splice(0); }
  }
  if (!r.ended) throw new Error('the COPY stream ended before its trailer');
  onRows?.(rows);
  if (pos) yield out.subarray(0, pos);
}

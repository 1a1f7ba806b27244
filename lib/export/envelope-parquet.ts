/**
 * The envelopes Parquet fast path on Postgres (docs/datasets.md "Bench"): Postgres sends every
 * stored column binary (lib/store/export/export-copy.ts), and each tuple goes straight into the row
 * group's per-column arrays: no text parsing of bytea, no decode of `raw`, no row object. Each
 * tuple is copied once into the row group's arena and its byte columns are views into that copy;
 * strings the writer would otherwise encode row by row (type names, seen_via, payload_kind) are
 * one shared Uint8Array each; ids and hashes are written as hex text into the arena, and the
 * u64 decimals (Postgres's own text) become the DECIMAL columns' bigints. Payload columns
 * come from the in-place scanner (payload-scan.ts), lib/protocol's decoders when it is unsure.
 * The values read back equal the generic path's (export-fast.test.ts checks).
 */
import { decodeEnvelope } from '../protocol/envelope';
import { CopyTupleReader } from './copy-binary';
import { BYTE_FIELDS, KIND_FIELDS, KIND_NAMES, KIND_OPAQUE, KIND_UNSURE, P, PayloadScan } from './payload-scan';
import { decodePayloadInto, MSG_TYPE_NAMES, PAYLOAD_FIELDS } from './rows';
import type { TableSchema } from './schema';
import { PARQUET_ROW_GROUP, parquetEncoder, parquetMisfit, parquetValue } from './writers';

/**
 * The fast path's columns, in the COPY's order (the table's first 20 columns), then payload_kind and the payload
 * fields.
 */
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
  'payload_kind',
  ...PAYLOAD_FIELDS,
];

const PG_EPOCH_US = 946_684_800_000_000;
const I64_MAX = 2 ** 63 - 1;
const ARENA = 8 << 20;
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

const i64 = (b: Buffer, o: number) =>
  ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) * 4294967296 +
  (((b[o + 4] << 24) | (b[o + 5] << 16) | (b[o + 6] << 8) | b[o + 7]) >>> 0);
const i32 = (b: Buffer, o: number) => (b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3];
/** int8 as a bigint: exact, through a double when it fits one. */
const big64 = (b: Buffer, o: number) => {
  const v = i64(b, o);
  return Number.isSafeInteger(v) ? BigInt(v) : b.readBigInt64BE(o);
};

/** Parquet of the envelopes table from the fast path's binary COPY data. */
export async function* envelopeParquet(
  schema: TableSchema,
  copy: AsyncIterable<Uint8Array>,
  onRows?: (n: number) => void,
  rowGroupSize = PARQUET_ROW_GROUP,
  onSetAside?: (reason: string) => void,
): AsyncIterable<Uint8Array> {
  if (schema.columns.map((c) => c.name).join() !== COLUMNS.join())
    throw new Error(
      'envelopes columns changed: update the Parquet fast path (lib/store/export/export-copy.ts, envelope-parquet.ts)',
    );
  const types = schema.columns.map((c) => c.type);
  const enc = parquetEncoder(schema);
  const typeNames = new Map<number, Uint8Array>();
  const typeName = (t: number) => {
    let v = typeNames.get(t);
    if (!v) typeNames.set(t, (v = utf8(MSG_TYPE_NAMES[t] ?? `0x${t.toString(16)}`)));
    return v;
  };
  const sources = new Map<string, Uint8Array>();
  const topics = new Map<string, Uint8Array>();
  const kinds = KIND_NAMES.map(utf8);
  const vals: unknown[] = [];
  const unsure: unknown[] = new Array(PAYLOAD_FIELDS.length);
  const cols_ = schema.columns;
  const scan = new PayloadScan();
  const P0 = 21; // first payload field's column
  const r = new CopyTupleReader(19);

  let cols: unknown[][] = COLUMNS.map(() => []);
  let n = 0;
  let rows = 0;
  // The arena: each tuple's bytes copied once; views into it stay valid until the group is written.
  let arena = Buffer.allocUnsafeSlow(ARENA);
  let at = 0;
  const room = (len: number) => {
    if (at + len > arena.length) {
      arena = Buffer.allocUnsafeSlow(Math.max(ARENA, len));
      at = 0;
    }
  };
  /** Lowercase hex of `len` bytes of `src` at `from`, as ASCII in the arena (ids are hex text in every format). */
  const hexText = (src: Buffer, from: number, len: number) => {
    room(2 * len);
    const w = arena.write(src.toString('hex', from, from + len), at, 'latin1');
    const u = new Uint8Array(arena.buffer, arena.byteOffset + at, w);
    at += w;
    return u;
  };
  /** Postgres's decimal text of a numeric (u64 columns) as the DECIMAL column's bigint. */
  const decimal = (b: Buffer, o: number, l: number) => BigInt(b.toString('latin1', o, o + l));

  yield enc.start();
  for await (const chunk of copy) {
    r.feed(chunk);
    while (r.next()) {
      const { buf, off, len } = r;
      const t0 = off[0];
      const t1 = off[18] + len[18];
      room(t1 - t0);
      buf.copy(arena, at, t0, t1);
      const a = arena; // `digits` below may start a new arena: this row's views stay in this one
      const base = a.byteOffset + at - t0;
      const ab = a.buffer;
      at += t1 - t0;
      const view = (i: number) => new Uint8Array(ab, base + off[i], len[i]);
      const msgType = i32(buf, off[3]);
      // The payload columns: scanned in place in the arena's copy (views of it stay valid). A
      // payload the scanner hands to lib/protocol may hold a price no DECIMAL(38,0) holds: that
      // row is set aside before any of its cells is taken, as the generic path does.
      const p0 = base + off[12] - a.byteOffset;
      const k = scan.scan(msgType, a, p0, p0 + len[12]);
      let unsureKind = '';
      if (k === KIND_UNSURE) {
        unsureKind = decodePayloadInto(msgType, view(12), vals);
        let misfit: string | null = null;
        for (let i = 0; i < PAYLOAD_FIELDS.length && !misfit; i++)
          misfit = parquetMisfit(cols_[P0 + i], (unsure[i] = parquetValue(types[P0 + i], vals[i])));
        if (misfit) {
          onSetAside?.(misfit);
          rows++;
          continue;
        }
      }
      let ts: bigint;
      const tsv = i64(buf, off[6]);
      if (tsv >= 0 && tsv < Number.MAX_SAFE_INTEGER) ts = BigInt(tsv);
      else if (tsv >= I64_MAX) {
        const d = decodeEnvelope(view(14));
        ts = d.ok ? d.envelope.timestamp : 0n;
      } // the exact u64 is in raw
      else ts = buf.readBigInt64BE(off[6]);
      const src = buf.toString('latin1', off[16], off[16] + len[16]);
      let source = sources.get(src);
      if (!source) sources.set(src, (source = utf8(src)));
      cols[0].push(hexText(buf, off[0], len[0]));
      cols[1].push(big64(buf, off[1]));
      cols[2].push(i32(buf, off[2]));
      cols[3].push(msgType);
      cols[4].push(typeName(msgType));
      cols[5].push(hexText(buf, off[4], len[4]));
      cols[6].push(hexText(buf, off[5], len[5]));
      cols[7].push(ts);
      cols[8].push(decimal(buf, off[7], len[7]));
      cols[9].push(decimal(buf, off[8], len[8]));
      cols[10].push(hexText(buf, off[9], len[9]));
      cols[11].push(hexText(buf, off[10], len[10]));
      cols[12].push(i32(buf, off[11]));
      cols[13].push(view(12));
      cols[14].push(view(13));
      cols[15].push(view(14));
      cols[16].push(BigInt(i32(buf, off[15])));
      cols[17].push(source);
      let topic: Uint8Array | null = null;
      if (len[17] >= 0) {
        // one shared array per topic: the column's min/max statistics must not hold an arena
        const s = buf.toString('utf8', off[17], off[17] + len[17]);
        topic = topics.get(s) ?? null;
        if (!topic) {
          topic = utf8(s);
          if (topics.size < 1_000) topics.set(s, topic);
        }
      }
      cols[18].push(topic);
      cols[19].push(BigInt(i64(buf, off[18]) + PG_EPOCH_US));
      if (k === KIND_UNSURE) {
        cols[20].push(unsureKind);
        for (let i = 0; i < PAYLOAD_FIELDS.length; i++) cols[P0 + i].push(unsure[i]);
      } else {
        cols[20].push(kinds[k]);
        const filled = KIND_FIELDS[k];
        let f = 0;
        for (let i = 0; i < PAYLOAD_FIELDS.length; i++) {
          if (k === KIND_OPAQUE || filled[f] !== i) {
            cols[P0 + i].push(null);
            continue;
          }
          f++;
          if (i === P.terms) cols[P0 + i].push(new Uint8Array(ab, a.byteOffset + scan.off[i], scan.len[i]));
          else if (BYTE_FIELDS.has(i)) cols[P0 + i].push(hexText(a, scan.off[i], scan.len[i]));
          else if (i === P.dispute) cols[P0 + i].push(scan.num[i] === 1);
          else if (i === P.bid || i === P.negrPrice || i === P.deadline) cols[P0 + i].push(BigInt(scan.num[i]));
          else cols[P0 + i].push(scan.num[i]);
        }
      }
      rows++;
      if (++n === rowGroupSize) {
        yield enc.group(cols, n);
        cols = COLUMNS.map(() => []);
        n = 0;
        onRows?.(rows);
      }
    }
  }
  if (!r.ended) throw new Error('the COPY stream ended before its trailer');
  if (n) yield enc.group(cols, n);
  onRows?.(rows);
  yield enc.finish();
}

/**
 * A reader of Postgres's binary COPY format (signature, flags, header extension, then tuples of
 * int16 field count and int32-length-prefixed fields, -1 = NULL, and a -1 trailer). It parses
 * in place: after `next()` returns true, `buf`, `off[i]` and `len[i]` locate field i of the
 * current tuple inside the current chunk, so no row object or field copy is made per row.
 * A tuple cut across chunks is carried into the next one.
 */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

export class CopyTupleReader {
  buf: Buffer = Buffer.alloc(0);
  /** Field offsets and lengths (-1 = NULL) of the current tuple. */
  readonly off: Int32Array;
  readonly len: Int32Array;
  fields = 0;
  /** True once the trailer was read. */
  ended = false;
  private pos = 0;
  private header = false;

  constructor(maxFields = 32) {
    this.off = new Int32Array(maxFields);
    this.len = new Int32Array(maxFields);
  }

  /** Hands the reader the next chunk (what `next()` could not finish is kept in front of it). */
  feed(chunk: Uint8Array): void {
    const c = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.buf = this.pos < this.buf.length ? Buffer.concat([this.buf.subarray(this.pos), c]) : c;
    this.pos = 0;
  }

  /** Parses the next whole tuple of the current chunk; false when it needs more data or ended. */
  next(): boolean {
    const b = this.buf;
    if (!this.header) {
      if (b.length - this.pos < 19) return false;
      if (!b.subarray(this.pos, this.pos + 11).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
      const ext = b.readUInt32BE(this.pos + 15);
      if (b.length - this.pos < 19 + ext) return false;
      this.pos += 19 + ext;
      this.header = true;
    }
    if (this.ended) return false;
    let p = this.pos;
    if (b.length - p < 2) return false;
    const n = b.readInt16BE(p);
    p += 2;
    if (n === -1) { this.ended = true; this.pos = p; return false; }
    if (n > this.off.length) throw new Error(`binary COPY tuple has ${n} fields (at most ${this.off.length} expected)`);
    for (let i = 0; i < n; i++) {
      if (b.length - p < 4) return false;
      const l = b.readInt32BE(p);
      p += 4;
      this.off[i] = p;
      this.len[i] = l;
      if (l > 0) {
        if (b.length - p < l) return false;
        p += l;
      }
    }
    this.fields = n;
    this.pos = p;
    return true;
  }
}

/**
 * A reader of Postgres's binary COPY format (signature, flags, header extension, then tuples of
 * int16 field count and int32-length-prefixed fields, -1 = NULL, and a -1 trailer). It parses
 * in place: after `next()` returns true, `buf`, `off[i]` and `len[i]` locate field i of the
 * current tuple inside the current chunk, so no row object or field copy is made per row.
 * Chunks are copied into one reused buffer (compacted in place when full), so a tuple cut
 * across chunks needs no new allocation: the garbage per chunk is zero.
 */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

export class CopyTupleReader {
  buf: Buffer = Buffer.allocUnsafe(4 << 20);
  /** Field offsets and lengths (-1 = NULL) of the current tuple. */
  readonly off: Int32Array;
  readonly len: Int32Array;
  fields = 0;
  /** Bytes of the current tuple in the stream (its field count, lengths and data). */
  tupleBytes = 0;
  /** True once the trailer was read. */
  ended = false;
  private pos = 0;
  /** End of the valid bytes in `buf`. */
  private end = 0;
  private header = false;

  constructor(maxFields = 32) {
    this.off = new Int32Array(maxFields);
    this.len = new Int32Array(maxFields);
  }

  /** Hands the reader the next chunk (what `next()` could not finish is kept in front of it). */
  feed(chunk: Uint8Array): void {
    if (this.end + chunk.length > this.buf.length) {
      const left = this.end - this.pos;
      if (left + chunk.length > this.buf.length) {
        const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, left + chunk.length));
        this.buf.copy(bigger, 0, this.pos, this.end);
        this.buf = bigger;
      } else this.buf.copyWithin(0, this.pos, this.end);
      this.pos = 0;
      this.end = left;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
  }

  /** Parses the next whole tuple of the current chunk; false when it needs more data or ended. */
  next(): boolean {
    const b = this.buf;
    const end = this.end;
    if (!this.header) {
      if (end - this.pos < 19) return false;
      if (!b.subarray(this.pos, this.pos + 11).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
      const ext = b.readUInt32BE(this.pos + 15);
      if (end - this.pos < 19 + ext) return false;
      this.pos += 19 + ext;
      this.header = true;
    }
    if (this.ended) return false;
    let p = this.pos;
    if (end - p < 2) return false;
    // Inline big-endian reads: cheaper than Buffer's read methods at ~10 per row.
    const n = ((b[p] << 24) >> 16) | b[p + 1];
    p += 2;
    if (n === -1) {
      this.ended = true;
      this.pos = p;
      return false;
    }
    if (n > this.off.length) throw new Error(`binary COPY tuple has ${n} fields (at most ${this.off.length} expected)`);
    for (let i = 0; i < n; i++) {
      if (end - p < 4) return false;
      const l = (b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3];
      p += 4;
      this.off[i] = p;
      this.len[i] = l;
      if (l > 0) {
        if (end - p < l) return false;
        p += l;
      }
    }
    this.fields = n;
    this.tupleBytes = p - this.pos;
    this.pos = p;
    return true;
  }
}

/**
 * Canonical CBOR (docs/protocol.md §1): RFC 8949 §4.2.1 core deterministic encoding of the subset
 * the protocol uses: unsigned/negative integers (bignum tags 2/3 only outside 64 bits), byte
 * strings, definite arrays, booleans.
 *
 * Decoding uses cbor-x, then checks the value model and re-encodes: bytes that do not
 * re-encode identically (non-shortest heads, indefinite lengths, floats, stray tags, leading
 * zero bignum bytes, trailing bytes) are rejected. The writer is local because cbor-x's
 * encoder is not deterministic for this subset: numbers >= 2^32 become float64, -2^64
 * becomes a bignum, and Uint8Array gets tag 64 unless told otherwise.
 */
import { Decoder } from 'cbor-x';
import { DecodeError, EncodeError } from './errors';

/** The CBOR values the protocol uses. Integers decode as number when safe, else bigint. */
export type CborValue = bigint | number | boolean | Uint8Array | CborValue[];

const U64 = 1n << 64n;

class Writer {
  buf = new Uint8Array(512);
  pos = 0;
  room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }
  head(major: number, arg: number | bigint): void {
    if (typeof arg === 'bigint' && arg < 0x100000000n) arg = Number(arg);
    const m = major << 5;
    this.room(9);
    const b = this.buf;
    if (typeof arg === 'number' && arg < 24) b[this.pos++] = m | arg;
    else if (arg < 0x100) {
      b[this.pos++] = m | 24;
      b[this.pos++] = Number(arg);
    } else if (arg < 0x10000) {
      const v = Number(arg);
      b[this.pos++] = m | 25;
      b[this.pos++] = v >>> 8;
      b[this.pos++] = v & 0xff;
    } else if (arg < 0x100000000) {
      const v = Number(arg);
      b[this.pos++] = m | 26;
      b[this.pos++] = v >>> 24;
      b[this.pos++] = (v >>> 16) & 0xff;
      b[this.pos++] = (v >>> 8) & 0xff;
      b[this.pos++] = v & 0xff;
    } else {
      b[this.pos++] = m | 27;
      if (typeof arg === 'number') {
        new DataView(b.buffer, b.byteOffset + this.pos, 8).setUint32(0, Math.floor(arg / 0x100000000));
        new DataView(b.buffer, b.byteOffset + this.pos, 8).setUint32(4, arg >>> 0);
      } else {
        new DataView(b.buffer, b.byteOffset + this.pos, 8).setBigUint64(0, arg);
      }
      this.pos += 8;
    }
  }
  bytes(v: Uint8Array): void {
    this.head(2, v.length);
    this.room(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
  }
  int(v: bigint | number): void {
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) throw new EncodeError(`not an integer: ${v}`);
      if (v >= 0) this.head(0, v);
      else this.head(1, -1 - v);
      return;
    }
    if (v >= 0n && v < U64) this.head(0, v < 0x100000000n ? Number(v) : v);
    else if (v < 0n && v >= -U64) {
      const n = -1n - v;
      this.head(1, n < 0x100000000n ? Number(n) : n);
    } else {
      let n = v >= 0n ? v : -1n - v;
      const out: number[] = [];
      while (n > 0n) {
        out.push(Number(n & 0xffn));
        n >>= 8n;
      }
      this.head(6, v >= 0n ? 2 : 3);
      this.bytes(Uint8Array.from(out.reverse()));
    }
  }
  value(v: CborValue): void {
    if (v instanceof Uint8Array) this.bytes(v);
    else if (Array.isArray(v)) {
      this.head(4, v.length);
      for (const x of v) this.value(x);
    } else if (typeof v === 'boolean') {
      this.room(1);
      this.buf[this.pos++] = v ? 0xf5 : 0xf4;
    } else this.int(v);
  }
}

/** Canonical CBOR bytes of `value` (docs/protocol.md §1). Throws EncodeError on a non-integer number. */
export function encodeCanonical(value: CborValue): Uint8Array {
  const w = new Writer();
  w.value(value);
  return w.buf.slice(0, w.pos);
}

// Reused for the decode-side comparison: synchronous, no re-entrancy, no allocation per call.
const scratch = new Writer();

function encodesTo(value: CborValue, bytes: Uint8Array): boolean {
  scratch.pos = 0;
  scratch.value(value);
  if (scratch.pos !== bytes.length) return false;
  const b = scratch.buf;
  for (let i = 0; i < bytes.length; i++) if (b[i] !== bytes[i]) return false;
  if (b.length > 1 << 16) scratch.buf = new Uint8Array(512);
  return true;
}

const decoder = new Decoder({ useRecords: false, mapsAsObjects: false } as ConstructorParameters<typeof Decoder>[0]);

function normalise(v: unknown, depth: number): CborValue {
  if (depth > 16) throw new DecodeError('nesting too deep');
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new DecodeError('float or unsafe number');
    return v;
  }
  if (typeof v === 'boolean') return v;
  // A view into the private copy made by decodeCanonical: no per-field copy needed.
  if (v instanceof Uint8Array) return v.constructor === Uint8Array ? v : new Uint8Array(v);
  if (Array.isArray(v)) return v.map((x) => normalise(x, depth + 1));
  throw new DecodeError(`unexpected CBOR item (${v === null ? 'null' : typeof v})`);
}

/**
 * Strict decode of one canonical CBOR item filling all of `bytes` (docs/protocol.md §1).
 * Throws DecodeError (only) on anything else; callers turn that into a result.
 */
export function decodeCanonical(bytes: Uint8Array): CborValue {
  let raw: unknown;
  // One private copy: decoded byte strings are views into it, so later changes to the
  // caller's buffer cannot reach a decoded value.
  const own = Uint8Array.prototype.slice.call(bytes) as Uint8Array;
  try {
    raw = decoder.decode(own);
  } catch (e) {
    throw new DecodeError(`CBOR: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }
  let value: CborValue;
  try {
    value = normalise(raw, 0);
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    throw new DecodeError('CBOR value model', { cause: e });
  }
  if (!encodesTo(value, own)) throw new DecodeError('not canonical CBOR (or trailing bytes)');
  return value;
}

/**
 * Decode of bytes whose canonical layout a caller has already checked (envelope-scan.ts):
 * cbor-x parse of a private copy and the value model, without the re-encoding comparison.
 */
export function decodeTrusted(bytes: Uint8Array): CborValue {
  const own = Uint8Array.prototype.slice.call(bytes) as Uint8Array;
  let raw: unknown;
  try {
    raw = decoder.decode(own);
  } catch (e) {
    throw new DecodeError(`CBOR: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }
  return normalise(raw, 0);
}

// Field readers for decoded values: each throws DecodeError naming the field.

export function asArray(v: CborValue, arity: number, field: string): CborValue[] {
  if (!Array.isArray(v)) throw new DecodeError(`${field}: expected array`);
  if (v.length !== arity) throw new DecodeError(`${field}: expected ${arity} items, got ${v.length}`);
  return v;
}

export function asList(v: CborValue, field: string): CborValue[] {
  if (!Array.isArray(v)) throw new DecodeError(`${field}: expected array`);
  return v;
}

export function asBytes(v: CborValue, field: string, len?: number): Uint8Array {
  if (!(v instanceof Uint8Array)) throw new DecodeError(`${field}: expected byte string`);
  if (len !== undefined && v.length !== len) throw new DecodeError(`${field}: expected ${len} bytes, got ${v.length}`);
  return v;
}

export function asInt(v: CborValue, field: string, min: bigint, max: bigint): bigint {
  if (typeof v === 'number') v = BigInt(v);
  else if (typeof v !== 'bigint') throw new DecodeError(`${field}: expected integer`);
  if (v < min || v > max) throw new DecodeError(`${field}: ${v} out of range`);
  return v;
}

/** An integer known to fit a JS number (max <= 2^53), without bigint arithmetic. */
export function asSmallInt(v: CborValue, field: string, min: number, max: number): number {
  if (typeof v !== 'number') throw new DecodeError(`${field}: expected integer in ${min}..${max}`);
  if (v < min || v > max) throw new DecodeError(`${field}: ${v} out of range`);
  return v;
}

export function asBool(v: CborValue, field: string): boolean {
  if (typeof v !== 'boolean') throw new DecodeError(`${field}: expected boolean`);
  return v;
}

export const U8_MAX = 0xffn;
export const U16_MAX = 0xffffn;
export const U32_MAX = 0xffffffffn;
export const U64_MAX = (1n << 64n) - 1n;
export const I64_MIN = -(1n << 63n);
export const I64_MAX = (1n << 63n) - 1n;
export const I128_MIN = -(1n << 127n);
export const I128_MAX = (1n << 127n) - 1n;

/**
 * Envelope hot path (docs/protocol.md §1–2): one pass over the encoded bytes that checks the
 * canonical layout of the fixed 12-item array and reads every field, without cbor-x and
 * without a second encoding. A definite 12-item array whose items have the §2 major types,
 * shortest-form heads, the §2 integer ranges and exact byte-string lengths, filling the input
 * exactly, is exactly "re-encodes to the same bytes" for the envelope shape; the property
 * tests check both verdicts and values against the generic decode + re-encode path.
 *
 * Allocation: the input is copied once into a private slab (so later changes to the caller's
 * buffer cannot reach a decoded value); byte-string fields are views into that copy, u64 fields
 * are read exactly as bigint. Small envelopes share an 8 KiB slab (like Node's Buffer pool), so
 * a retained envelope keeps its slab alive; envelopes over 4 KiB get their own buffer.
 */
import type { Envelope } from './types';

// Item kinds in §2 order: 'u' uint (max bytes of argument), 'b' byte string (fixed length or -1).
const LAYOUT: readonly (['u', number] | ['b', number])[] = [
  ['u', 1],
  ['u', 2],
  ['b', 32],
  ['b', 32],
  ['u', 8],
  ['u', 8],
  ['u', 8],
  ['b', 16],
  ['b', 32],
  ['u', 4],
  ['b', -1],
  ['b', 64],
];

/**
 * Returns undefined when `bytes` is a canonically laid out envelope, else why not. The
 * table-driven reference for {@link readEnvelope} (which uses it for its failure detail).
 */
export function scanEnvelopeLayout(bytes: Uint8Array): string | undefined {
  if (bytes.length < 1 || bytes[0] !== 0x8c) return 'not a definite 12-item array';
  let p = 1;
  for (let item = 0; item < 12; item++) {
    if (p >= bytes.length) return `truncated at item ${item}`;
    const ib = bytes[p++];
    const major = ib >> 5;
    const info = ib & 0x1f;
    const [kind, limit] = LAYOUT[item];
    if (major !== (kind === 'u' ? 0 : 2)) return `item ${item}: wrong major type ${major}`;
    let arg: number;
    let size: number;
    if (info < 24) {
      arg = info;
      size = 0;
    } else if (info === 24) size = 1;
    else if (info === 25) size = 2;
    else if (info === 26) size = 4;
    else if (info === 27) size = 8;
    else return `item ${item}: indefinite or reserved length`;
    if (size > 0) {
      if (p + size > bytes.length) return `truncated at item ${item}`;
      arg = 0;
      let hi = 0;
      for (let k = 0; k < size; k++) {
        if (size === 8 && k < 4) hi = hi * 256 + bytes[p + k];
        else arg = arg * 256 + bytes[p + k];
      }
      p += size;
      const minimal = size === 1 ? arg >= 24 : size === 2 ? arg >= 0x100 : size === 4 ? arg >= 0x10000 : hi > 0;
      if (!minimal) return `item ${item}: non-shortest head`;
      if (kind === 'u' && size > limit) return `item ${item}: integer out of range`;
      if (kind === 'b' && size === 8) return `item ${item}: byte string too long`;
    }
    if (kind === 'b') {
      if (limit >= 0 && arg! !== limit) return `item ${item}: expected ${limit} bytes, got ${arg!}`;
      if (p + arg! > bytes.length) return `truncated in item ${item}`;
      p += arg!;
    }
  }
  return p === bytes.length ? undefined : 'trailing bytes';
}

// ---- private copy slab -------------------------------------------------------------------

const SLAB_BYTES = 8192;
let slab = new ArrayBuffer(SLAB_BYTES);
let slabU8 = new Uint8Array(slab);
let slabDv = new DataView(slab);
let slabOff = 0;

// ---- one-pass reader ---------------------------------------------------------------------

/** Argument of the last head read by uintHead/bstrHead (exact for heads up to 4 bytes). */
let arg = 0;

/**
 * Unsigned-integer head at `p` with an argument of at most `maxSize` bytes (1, 2, 4 or 8), in
 * shortest form. Returns the position after it, or -1. An 8-byte argument leaves `arg` = -1
 * (the caller reads it exactly as a bigint).
 */
function uintHead(u8: Uint8Array, p: number, end: number, maxSize: number): number {
  if (p >= end) return -1;
  const ib = u8[p];
  if (ib < 24) {
    arg = ib;
    return p + 1;
  } // major 0, immediate
  if (ib === 24) {
    if (p + 2 > end || u8[p + 1] < 24) return -1;
    arg = u8[p + 1];
    return p + 2;
  }
  if (ib === 25) {
    if (maxSize < 2 || p + 3 > end || u8[p + 1] === 0) return -1;
    arg = (u8[p + 1] << 8) | u8[p + 2];
    return p + 3;
  }
  if (ib === 26) {
    if (maxSize < 4 || p + 5 > end) return -1;
    arg = u8[p + 1] * 0x1000000 + ((u8[p + 2] << 16) | (u8[p + 3] << 8) | u8[p + 4]);
    return arg >= 0x10000 ? p + 5 : -1;
  }
  if (ib === 27) {
    if (maxSize < 8 || p + 9 > end || (u8[p + 1] | u8[p + 2] | u8[p + 3] | u8[p + 4]) === 0) return -1;
    arg = -1;
    return p + 9;
  }
  return -1;
}

/** Byte-string head at `p` of exactly `len` bytes (or any length <= 2^32-1 when len < 0) that fits before `end`. */
function bstrHead(u8: Uint8Array, p: number, end: number, len: number): number {
  if (p >= end) return -1;
  const ib = u8[p];
  let q: number;
  if (ib >= 0x40 && ib < 0x58) {
    arg = ib - 0x40;
    q = p + 1;
  } else if (ib === 0x58) {
    if (p + 2 > end || u8[p + 1] < 24) return -1;
    arg = u8[p + 1];
    q = p + 2;
  } else if (ib === 0x59) {
    if (p + 3 > end || u8[p + 1] === 0) return -1;
    arg = (u8[p + 1] << 8) | u8[p + 2];
    q = p + 3;
  } else if (ib === 0x5a) {
    if (p + 5 > end) return -1;
    arg = u8[p + 1] * 0x1000000 + ((u8[p + 2] << 16) | (u8[p + 3] << 8) | u8[p + 4]);
    if (arg < 0x10000) return -1;
    q = p + 5;
  } else return -1;
  if (len >= 0 && arg !== len) return -1;
  return q + arg <= end ? q : -1;
}

/** u64 field read exactly: a number head (< 2^32) or the 8 bytes after an 8-byte head. */
function u64(dv: DataView, headAt: number, small: number): bigint {
  return small >= 0 ? BigInt(small) : dv.getBigUint64(headAt + 1);
}

/** A decoded envelope with its private copy of the bytes (see {@link readEnvelope}). */
export interface ReadEnvelope {
  envelope: Envelope;
  /** Private copy of the encoded envelope; the envelope's byte fields are views into it. */
  bytes: Uint8Array;
  /**
   * End of item 9 in `bytes`: the signature preimage (docs/protocol.md §2) is bytes[0, preimageEnd)
   * with the 0x8c head replaced by 0x8a (canonical encoding makes items 0..9 identical).
   */
  preimageEnd: number;
}

/**
 * Strict decode of an encoded envelope's layout and fields (docs/protocol.md §1–2), or the reason it
 * is not one (same wording as {@link scanEnvelopeLayout}). The size limit and input type are
 * the caller's checks. Never throws on hostile bytes.
 */
export function readEnvelope(input: Uint8Array): ReadEnvelope | string {
  const n = input.length;
  if (n < 1 || input[0] !== 0x8c) return 'not a definite 12-item array';
  // Private copy: carve from the slab, or a buffer of its own when large.
  let u8: Uint8Array, dv: DataView, b: number;
  const pooled = n <= SLAB_BYTES >>> 1;
  if (pooled) {
    if (slabOff + n > SLAB_BYTES) {
      slab = new ArrayBuffer(SLAB_BYTES);
      slabU8 = new Uint8Array(slab);
      slabDv = new DataView(slab);
      slabOff = 0;
    }
    u8 = slabU8;
    dv = slabDv;
    b = slabOff;
    u8.set(input, b);
  } else {
    u8 = new Uint8Array(n);
    dv = new DataView(u8.buffer);
    b = 0;
    u8.set(input);
  }
  const end = b + n;
  let p = b + 1;
  p = uintHead(u8, p, end, 1);
  const version = arg;
  if (p >= 0) p = uintHead(u8, p, end, 2);
  const msgType = arg;
  if (p >= 0) p = bstrHead(u8, p, end, 32);
  const oSender = p;
  if (p >= 0) p += 32;
  if (p >= 0) p = bstrHead(u8, p, end, 32);
  const oRecipient = p;
  if (p >= 0) p += 32;
  const pTs = p;
  if (p >= 0) p = uintHead(u8, p, end, 8);
  const ts = arg;
  const pBr = p;
  if (p >= 0) p = uintHead(u8, p, end, 8);
  const br = arg;
  const pNonce = p;
  if (p >= 0) p = uintHead(u8, p, end, 8);
  const nonce = arg;
  if (p >= 0) p = bstrHead(u8, p, end, 16);
  const oConv = p;
  if (p >= 0) p += 16;
  if (p >= 0) p = bstrHead(u8, p, end, 32);
  const oHash = p;
  if (p >= 0) p += 32;
  if (p >= 0) p = uintHead(u8, p, end, 4);
  const payloadLen = arg;
  const pPayload = p;
  if (p >= 0) p = bstrHead(u8, p, end, -1);
  const oPayload = p;
  const nPayload = arg;
  if (p >= 0) p += nPayload;
  if (p >= 0) p = bstrHead(u8, p, end, 64);
  const oSig = p;
  if (p >= 0) p += 64;
  // On failure the slab space is not claimed (nothing references it); the reference scan of
  // the copy gives the detail.
  if (p !== end) return scanEnvelopeLayout(u8.subarray(b, end)) ?? 'not canonical';
  if (pooled) slabOff = (end + 7) & ~7;
  const buf = u8.buffer;
  const envelope: Envelope = {
    version,
    msgType,
    sender: new Uint8Array(buf, oSender, 32),
    recipient: new Uint8Array(buf, oRecipient, 32),
    timestamp: u64(dv, pTs, ts),
    blockRef: u64(dv, pBr, br),
    nonce: u64(dv, pNonce, nonce),
    conversationId: new Uint8Array(buf, oConv, 16),
    payloadHash: new Uint8Array(buf, oHash, 32),
    payloadLen,
    payload: new Uint8Array(buf, oPayload, nPayload),
    signature: new Uint8Array(buf, oSig, 64),
  };
  return { envelope, bytes: new Uint8Array(buf, b, n), preimageEnd: pPayload - b };
}

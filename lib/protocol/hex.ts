/** Hex helpers (lowercase, no 0x prefix). Used for vectors, map keys and display. */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

// Node's Buffer (absent in browsers) writes hex natively: one flat string instead of a rope of
// 2-char pieces, about half the cost of the loop for a 32-byte map key plus its lookup.
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
const nativeHex = typeof NodeBuffer === 'function' && typeof NodeBuffer.from === 'function';

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  if (nativeHex && bytes instanceof Uint8Array && bytes.length >= 8) {
    return NodeBuffer!.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
  }
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]];
  return s;
}

/** Bytes of a hex string (optional 0x prefix). Throws TypeError naming `hex` on bad input. */
export function fromHex(hex: string): Uint8Array {
  if (typeof hex !== 'string') throw new TypeError('hex must be a string');
  const h = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) throw new TypeError('hex must be an even-length hex string');
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Bytes of canonical hex (lowercase, even length, no prefix: the form {@link toHex} writes), or
 * null for any other text. For input that has one spelling only, such as a signed field.
 */
export function fromCanonicalHex(hex: string): Uint8Array | null {
  if (typeof hex !== 'string' || !/^(?:[0-9a-f]{2})*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Constant-length byte equality (not constant time: only public data is compared). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Concatenation of byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

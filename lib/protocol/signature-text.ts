/**
 * The one reader of a 64-byte Ed25519 signature sent as text (wallet-signed requests: watchlists,
 * dispute opinions). Wallets and pages spell signatures three ways, so three are read, but each
 * only in its canonical spelling: 128 lowercase hex characters, base58 as bs58 writes it, or
 * standard base64 with its padding (88 characters). Anything else (upper-case hex, base64url,
 * missing padding, spaces, leading zeros base58 would not write) is refused, so one signature has
 * exactly one accepted text per form; callers still key "already used" on the decoded bytes, which
 * is what makes a signature count once whatever its spelling.
 */

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export const SIGNATURE_TEXT_FORMS = '128 lowercase hex characters, base58, or base64 with padding (88 characters)';

function base58Encode(b: Uint8Array): string {
  let n = 0n;
  for (const x of b) n = (n << 8n) | BigInt(x);
  let s = '';
  while (n > 0n) {
    s = B58[Number(n % 58n)] + s;
    n /= 58n;
  }
  for (const x of b) {
    if (x !== 0) break;
    s = `1${s}`;
  }
  return s;
}

function base58Decode(s: string): Uint8Array | null {
  let n = 0n;
  for (const c of s) {
    const i = B58.indexOf(c);
    if (i < 0) return null;
    n = n * 58n + BigInt(i);
  }
  const out: number[] = [];
  while (n > 0n) {
    out.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  for (const c of s) {
    if (c !== '1') break;
    out.unshift(0);
  }
  return new Uint8Array(out);
}

function base64Encode(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    s +=
      B64[(n >> 18) & 63] +
      B64[(n >> 12) & 63] +
      (i + 1 < b.length ? B64[(n >> 6) & 63] : '=') +
      (i + 2 < b.length ? B64[n & 63] : '=');
  }
  return s;
}

function base64Decode(s: string): Uint8Array | null {
  if (s.length % 4 !== 0) return null;
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((s.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    let n = 0;
    for (let j = 0; j < 4; j++) {
      const c = s[i + j];
      const v = c === '=' && i + j >= s.length - pad ? 0 : B64.indexOf(c);
      if (v < 0) return null;
      n = (n << 6) | v;
    }
    for (const shift of [16, 8, 0]) if (o < out.length) out[o++] = (n >> shift) & 0xff;
  }
  return out;
}

/** The 64 signature bytes of `text` in one of the canonical forms above, or null. */
export function decodeSignatureText(text: string): Uint8Array | null {
  if (/^[0-9a-f]{128}$/.test(text)) {
    const b = new Uint8Array(64);
    for (let i = 0; i < 64; i++) b[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
    return b;
  }
  if (/^[A-Za-z0-9+/]{86}==$/.test(text)) {
    const b = base64Decode(text);
    // Re-encoding refuses the spellings whose unused low bits are not zero.
    return b && b.length === 64 && base64Encode(b) === text ? b : null;
  }
  if (/^[1-9A-HJ-NP-Za-km-z]{64,90}$/.test(text)) {
    const b = base58Decode(text);
    return b && b.length === 64 && base58Encode(b) === text ? b : null;
  }
  return null;
}

// One signature, one accepted text per form: the re-spellings an attacker tries (upper-case hex,
// base64url, unpadded, spaces, base58 with extra leading ones) are refused, and the three
// canonical forms decode to the same 64 bytes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import { decodeSignatureText } from './signature-text';

test('the canonical hex, base58 and base64 of a signature decode to its bytes; every other spelling is refused', () => {
  for (const fill of [0, 1, 0xfe]) {
    const sig = new Uint8Array(64).map((_, i) => (i * 37 + fill) & 0xff);
    if (fill === 0) sig.fill(0, 0, 3); // leading zero bytes: base58's leading ones
    const hex = Buffer.from(sig).toString('hex');
    const b64 = Buffer.from(sig).toString('base64');
    const b58 = bs58.encode(sig);
    for (const t of [hex, b64, b58]) assert.deepEqual(decodeSignatureText(t), sig, t);
    const others = [
      hex.toUpperCase(),
      `0x${hex}`,
      ` ${hex}`,
      Buffer.from(sig).toString('base64url'),
      b64.replace(/=+$/, ''),
      `${b64}\n`,
      ` ${b58} `,
      `1${b58}`,
      hex.slice(2),
      b64.slice(4),
    ];
    for (const t of others) assert.equal(decodeSignatureText(t), null, JSON.stringify(t));
  }
  // Non-zero unused bits in the last base64 character spell the same bytes: refused.
  const b64 = Buffer.alloc(64, 7).toString('base64');
  const twisted = `${b64.slice(0, 85)}${b64[85] === 'w' ? 'x' : 'w'}==`;
  assert.equal(decodeSignatureText(twisted), null);
  assert.equal(decodeSignatureText(''), null);
  assert.equal(decodeSignatureText('z'.repeat(90)), null, 'base58 of more than 64 bytes');
});

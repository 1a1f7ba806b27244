/**
 * Canonical-layout check of an encoded envelope (PROTOCOL.md §1–2) by scanning its heads:
 * a definite 12-item array whose items have the §2 major types, shortest-form heads and the
 * exact byte-string lengths, filling the input exactly. Equivalent to "re-encodes to the same
 * bytes" for the envelope shape, without building and comparing a second encoding: this is
 * the validation hot path. Values are still read by cbor-x (decodeEnvelope).
 */

// Item kinds in §2 order: 'u' uint (max bytes of argument), 'b' byte string (fixed length or -1).
const LAYOUT: readonly (['u', number] | ['b', number])[] = [
  ['u', 1], ['u', 2], ['b', 32], ['b', 32], ['u', 8], ['u', 8], ['u', 8], ['b', 16], ['b', 32], ['u', 4], ['b', -1], ['b', 64],
];

/** Returns undefined when `bytes` is a canonically laid out envelope, else why not. */
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
    if (info < 24) { arg = info; size = 0; }
    else if (info === 24) size = 1;
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

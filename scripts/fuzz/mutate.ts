/**
 * The fuzzer's generator: a seeded PRNG (sfc32, so a seed printed by `npm run fuzz` replays the
 * same inputs) and mutators over bytes and over CBOR structure. Byte mutations: bit flips, byte
 * insert/delete/overwrite, truncation, splices of two inputs, interesting values. CBOR mutations
 * rebuild a 12-item envelope from its items with one thing wrong: an item of another major type,
 * a huge or non-minimal length, deep nesting, an indefinite-length item, a map with duplicate
 * keys, a tag, too few or too many items, trailing bytes. Plus pure random bytes.
 */
import { concatBytes } from '../../lib/protocol/hex';

/** sfc32: small, fast, 128-bit state, good enough statistics for fuzzing. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 16; i++) this.u32();
  }
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  /** 0 ≤ n < max. */
  int(max: number): number {
    return max <= 1 ? 0 : this.u32() % max;
  }
  bool(): boolean {
    return (this.u32() & 1) === 1;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }
}

/** A CBOR head: major type and argument, minimal unless `width` forces 1/2/4/8 argument bytes. */
export function head(major: number, arg: number | bigint, width?: 0 | 1 | 2 | 4 | 8): Uint8Array {
  const v = BigInt(arg);
  const w = width ?? (v < 24n ? 0 : v < 0x100n ? 1 : v < 0x10000n ? 2 : v < 0x100000000n ? 4 : 8);
  const m = major << 5;
  if (w === 0) return Uint8Array.of(m | Number(v));
  const out = new Uint8Array(1 + w);
  out[0] = m | { 1: 24, 2: 25, 4: 26, 8: 27 }[w];
  for (let i = 0; i < w; i++) out[w - i] = Number((v >> BigInt(8 * i)) & 0xffn);
  return out;
}

export const concat = (parts: readonly Uint8Array[]): Uint8Array => concatBytes(...parts);

/** Splits a definite-length CBOR array's content into its items' encodings (canonical input only). */
export function splitItems(bytes: Uint8Array): Uint8Array[] | undefined {
  let pos = 0;
  const skip = (): void => {
    const b = bytes[pos++];
    if (b === undefined) throw new RangeError('eof');
    const major = b >> 5;
    const info = b & 31;
    let arg = 0;
    if (info < 24) arg = info;
    else if (info <= 27) {
      const w = 1 << (info - 24);
      for (let i = 0; i < w; i++) arg = arg * 256 + bytes[pos++];
    } else throw new RangeError('indefinite');
    if (major === 2 || major === 3) pos += arg;
    else if (major === 4) for (let i = 0; i < arg; i++) skip();
    else if (major === 5) for (let i = 0; i < 2 * arg; i++) skip();
    else if (major === 6) skip();
    if (pos > bytes.length) throw new RangeError('eof');
  };
  try {
    const h = bytes[0];
    if (h >> 5 !== 4 || (h & 31) >= 24) return undefined;
    pos = 1;
    const items: Uint8Array[] = [];
    for (let i = 0; i < (h & 31); i++) {
      const start = pos;
      skip();
      items.push(bytes.subarray(start, pos));
    }
    return items;
  } catch {
    return undefined;
  }
}

const INTERESTING = [
  0x00, 0x01, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1f, 0x3f, 0x40, 0x5f, 0x7f, 0x80, 0x8c, 0x9f, 0xa0, 0xbf, 0xc0, 0xf4,
  0xf5, 0xf6, 0xf7, 0xf9, 0xfa, 0xfb, 0xff,
];

/** One byte-level mutation of `b` (never in place). */
export function mutateBytes(rng: Rng, b: Uint8Array, other: Uint8Array): { name: string; out: Uint8Array } {
  const n = b.length;
  switch (rng.int(8)) {
    case 0: {
      // 1–8 bit flips
      const out = b.slice();
      const k = 1 + rng.int(8);
      for (let i = 0; i < k && n > 0; i++) out[rng.int(n)] ^= 1 << rng.int(8);
      return { name: 'bitflip', out };
    }
    case 1: {
      // insert 1–16 bytes
      const at = rng.int(n + 1);
      return { name: 'insert', out: concat([b.subarray(0, at), rng.bytes(1 + rng.int(16)), b.subarray(at)]) };
    }
    case 2: {
      // delete 1–16 bytes
      const at = rng.int(n);
      return { name: 'delete', out: concat([b.subarray(0, at), b.subarray(Math.min(n, at + 1 + rng.int(16)))]) };
    }
    case 3:
      return { name: 'truncate', out: b.slice(0, rng.int(n)) };
    case 4: {
      // overwrite with an interesting byte
      const out = b.slice();
      for (let i = 0, k = 1 + rng.int(3); i < k && n > 0; i++) out[rng.int(n)] = rng.pick(INTERESTING);
      return { name: 'interesting', out };
    }
    case 5: {
      // splice: a prefix of one input, a suffix of another
      return {
        name: 'splice',
        out: concat([b.subarray(0, rng.int(n + 1)), other.subarray(rng.int(other.length + 1))]),
      };
    }
    case 6: {
      // duplicate a chunk
      const at = rng.int(n);
      const len = 1 + rng.int(32);
      return {
        name: 'duplicate',
        out: concat([b.subarray(0, at + len), b.subarray(at, at + len), b.subarray(at + len)]),
      };
    }
    default: {
      // random run
      const out = b.slice();
      const at = rng.int(n);
      out.set(rng.bytes(Math.min(n - at, 1 + rng.int(8))), at);
      return { name: 'random_run', out };
    }
  }
}

/** Some CBOR item that is not what the field wants. */
function wrongItem(rng: Rng): Uint8Array {
  switch (rng.int(10)) {
    case 0:
      return head(1, rng.int(1000)); // negative integer
    case 1:
      return concat([head(3, 5), new TextEncoder().encode('hello')]); // text
    case 2:
      return Uint8Array.of(0xf5); // true
    case 3:
      return Uint8Array.of(0xf6); // null
    case 4:
      return Uint8Array.of(0xfb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18); // float64 pi
    case 5:
      return concat([head(6, 2), head(2, 1), Uint8Array.of(1)]); // tag 2 bignum
    case 6:
      return Uint8Array.of(0xa0); // empty map
    case 7:
      return concat([head(4, 2), head(0, 1), head(0, 2)]); // array
    case 8:
      return head(0, 2n ** 64n - 1n); // u64 max
    default:
      return Uint8Array.of(0xf7); // undefined
  }
}

/** One structural mutation of a canonical 12-item envelope (falls back to bytes when it is not one). */
export function mutateCbor(rng: Rng, b: Uint8Array, other: Uint8Array): { name: string; out: Uint8Array } {
  const items = splitItems(b);
  if (!items || items.length === 0) return mutateBytes(rng, b, other);
  const arr = (xs: Uint8Array[]) => concat([head(4, xs.length), ...xs]);
  const i = rng.int(items.length);
  const xs = items.slice();
  switch (rng.int(12)) {
    case 0:
      xs[i] = wrongItem(rng);
      return { name: 'wrong_major_type', out: arr(xs) };
    case 1: {
      // a byte string claiming a huge length
      const w = rng.pick([4, 8] as const);
      xs[i] = concat([head(2, w === 4 ? 0xffffffff : 2n ** 64n - 1n, w), items[i].subarray(1)]);
      return { name: 'huge_length', out: arr(xs) };
    }
    case 2: {
      // the array itself claiming a huge count
      return {
        name: 'huge_count',
        out: concat([head(4, rng.pick([0xffff, 0xffffffff, 2 ** 40]), rng.pick([2, 4, 8] as const)), ...xs]),
      };
    }
    case 3: {
      // deep nesting in one item
      const depth = rng.pick([8, 100, 1000, 10_000, 100_000]);
      xs[i] = concat([new Uint8Array(depth).fill(0x81), Uint8Array.of(0x00)]);
      return { name: 'deep_nesting', out: arr(xs) };
    }
    case 4: {
      // indefinite-length array or byte string
      if (rng.bool())
        return { name: 'indefinite_array', out: concat([Uint8Array.of(0x9f), ...xs, Uint8Array.of(0xff)]) };
      const it = items[i];
      xs[i] = concat([Uint8Array.of(0x5f), it, Uint8Array.of(0xff)]);
      return { name: 'indefinite_bytes', out: arr(xs) };
    }
    case 5: {
      // a map with duplicate keys in place of an item, or of the whole envelope
      const k = head(0, rng.int(12));
      const dupMap = concat([head(5, 2), k, items[i], k, items[(i + 1) % items.length]]);
      if (rng.bool()) {
        xs[i] = dupMap;
        return { name: 'duplicate_map_keys', out: arr(xs) };
      }
      const pairs = xs.flatMap((x, j) => [head(0, j % 6), x]);
      return { name: 'envelope_as_map_dup_keys', out: concat([head(5, xs.length), ...pairs]) };
    }
    case 6:
      xs.splice(i, 1);
      return { name: 'too_few_items', out: arr(xs) };
    case 7:
      xs.splice(i, 0, rng.bool() ? items[rng.int(items.length)] : wrongItem(rng));
      return { name: 'too_many_items', out: arr(xs) };
    case 8: {
      // non-minimal head on one item
      const it = items[i];
      const major = it[0] >> 5;
      const info = it[0] & 31;
      if (info >= 24 || (major !== 0 && major !== 2)) return mutateBytes(rng, b, other);
      xs[i] = concat([head(major, info, rng.pick([1, 2, 4, 8] as const)), it.subarray(1)]);
      return { name: 'non_minimal', out: arr(xs) };
    }
    case 9:
      xs[i] = concat([head(6, rng.pick([0, 1, 24, 55799])), items[i]]);
      return { name: 'tagged_item', out: arr(xs) };
    case 10: {
      // swap two items
      const j = rng.int(items.length);
      [xs[i], xs[j]] = [xs[j], xs[i]];
      return { name: 'swap_items', out: arr(xs) };
    }
    default:
      return { name: 'trailing_bytes', out: concat([b, rng.bytes(1 + rng.int(8))]) };
  }
}

/** Pure random bytes, sometimes with a plausible first byte. */
export function randomInput(rng: Rng): Uint8Array {
  const out = rng.bytes(rng.int(rng.bool() ? 64 : 700));
  if (out.length > 0 && rng.bool()) out[0] = rng.pick([0x8c, 0x8b, 0x8d, 0x9f, 0x98, 0x81, 0xa1]);
  return out;
}

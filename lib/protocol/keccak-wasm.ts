/**
 * Keccak-256 (docs/protocol.md §2–3, §5–6: original Keccak padding 0x01, not SHA3's 0x06) as a
 * small WebAssembly module generated here, byte by byte, at load: no binary blob, no build
 * step. The 25 lanes live in i64 locals for a whole absorb (theta, rho+pi, chi, iota unrolled;
 * 24 rounds looped), so a 300-byte payload is one call from JS and three permutations.
 * hash-wasm's keccak keeps the state in memory and costs three calls per hash; this is the
 * envelope hot path (payload hash + envelope id). The tests check it against hash-wasm and
 * @noble/hashes on lengths around every block edge.
 */

const RATE = 136; // bytes absorbed per permutation for Keccak-256
const RC_AT = 200; // 24 round constants (u64 LE) after the 200-byte state
const INPUT_AT = 512;
const PAGES = 3; // 192 KiB: any envelope (<= 65,536 bytes) is a single call
const INPUT_MAX = Math.floor((PAGES * 65536 - INPUT_AT) / RATE) * RATE - RATE;

const ROUND_CONSTANTS = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n,
];
// Rho rotation of lane x + 5y.
const RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const name = (s: string) => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

/** The body of absorb(ptr: i32, nblocks: i32): state = permute(state ^ block) for each block. */
function absorbBody(): number[] {
  // locals: 0 ptr, 1 nblocks, 2 r (i32); 3.. i64: a[25], b[25], c[5], d[5]
  const A = (i: number) => 3 + i,
    B = (i: number) => 28 + i,
    C = (i: number) => 53 + i,
    D = (i: number) => 58 + i;
  const get = (l: number) => [0x20, ...uleb(l)],
    set = (l: number) => [0x21, ...uleb(l)];
  const XOR = 0x85,
    AND = 0x83,
    ROTL = 0x89,
    NOT = [0x42, 0x7f, XOR]; // x ^ -1
  const i64c = (v: number) => [0x42, ...uleb(v)]; // small non-negative (< 64)
  const load = (off: number) => [0x29, 3, ...uleb(off)];
  const store = (off: number) => [0x37, 3, ...uleb(off)];
  const code: number[] = [];
  // state -> locals
  for (let i = 0; i < 25; i++) code.push(0x41, 0, ...load(i * 8), ...set(A(i)));
  code.push(0x02, 0x40, 0x03, 0x40); // block, loop
  code.push(...get(1), 0x45, 0x0d, 1); // if nblocks == 0 break
  for (let i = 0; i < RATE / 8; i++) code.push(...get(0), ...load(i * 8), ...get(A(i)), XOR, ...set(A(i)));
  code.push(0x41, 0, ...set(2)); // r = 0
  code.push(0x03, 0x40); // loop rounds
  for (let x = 0; x < 5; x++) {
    code.push(
      ...get(A(x)),
      ...get(A(x + 5)),
      XOR,
      ...get(A(x + 10)),
      XOR,
      ...get(A(x + 15)),
      XOR,
      ...get(A(x + 20)),
      XOR,
      ...set(C(x)),
    );
  }
  for (let x = 0; x < 5; x++) {
    code.push(...get(C((x + 4) % 5)), ...get(C((x + 1) % 5)), ...i64c(1), ROTL, XOR, ...set(D(x)));
  }
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      const i = x + 5 * y;
      code.push(...get(A(i)), ...get(D(x)), XOR);
      if (RHO[i]) code.push(...i64c(RHO[i]), ROTL);
      code.push(...set(B(y + 5 * ((2 * x + 3 * y) % 5))));
    }
  }
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      code.push(
        ...get(B(x + 5 * y)),
        ...get(B(((x + 1) % 5) + 5 * y)),
        ...NOT,
        ...get(B(((x + 2) % 5) + 5 * y)),
        AND,
        XOR,
        ...set(A(x + 5 * y)),
      );
    }
  }
  code.push(...get(A(0)), ...get(2), ...load(RC_AT), XOR, ...set(A(0))); // iota
  code.push(...get(2), 0x41, 8, 0x6a, 0x22, 2, 0x41, ...uleb(192), 0x47, 0x0d, 0, 0x0b); // r += 8; while r != 192
  code.push(...get(0), 0x41, ...uleb(RATE), 0x6a, ...set(0)); // ptr += RATE
  code.push(...get(1), 0x41, 1, 0x6b, ...set(1)); // nblocks -= 1
  code.push(0x0c, 0, 0x0b, 0x0b); // br loop; end loop; end block
  for (let i = 0; i < 25; i++) code.push(0x41, 0, ...get(A(i)), ...store(i * 8));
  code.push(0x0b);
  const locals = [2, 1, 0x7f, 60, 0x7e];
  return [...uleb(locals.length + code.length), ...locals, ...code];
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, PAGES]),
    ...section(7, [2, ...name('mem'), 2, 0, ...name('absorb'), 0, 0]),
    ...section(10, [1, ...absorbBody()]),
  ]);
}

/** A Keccak-256 instance: `hash` returns a fresh 32-byte digest, `equals` compares in place. */
export interface WasmKeccak {
  hash(bytes: Uint8Array): Uint8Array;
  equals(bytes: Uint8Array, expected: Uint8Array): boolean;
}

/** Instantiates the module; rejects where WebAssembly is unavailable (callers fall back). */
export async function createWasmKeccak(): Promise<WasmKeccak> {
  const instance = await WebAssembly.instantiate(await WebAssembly.compile(moduleBytes()));
  const absorb = instance.exports.absorb as (ptr: number, nblocks: number) => void;
  const mem = new Uint8Array((instance.exports.mem as WebAssembly.Memory).buffer);
  const dv = new DataView(mem.buffer);
  ROUND_CONSTANTS.forEach((rc, i) => dv.setBigUint64(RC_AT + i * 8, rc, true));

  const run = (bytes: Uint8Array): void => {
    mem.fill(0, 0, 200);
    let n = bytes.length;
    let at = 0;
    while (n > INPUT_MAX) {
      // very large inputs: whole blocks in chunks
      mem.set(bytes.subarray(at, at + INPUT_MAX), INPUT_AT);
      absorb(INPUT_AT, INPUT_MAX / RATE);
      at += INPUT_MAX;
      n -= INPUT_MAX;
    }
    const blocks = Math.floor(n / RATE) + 1; // the last one holds the padding
    mem.set(at === 0 ? bytes : bytes.subarray(at), INPUT_AT);
    mem.fill(0, INPUT_AT + n, INPUT_AT + blocks * RATE);
    mem[INPUT_AT + n] ^= 0x01;
    mem[INPUT_AT + blocks * RATE - 1] ^= 0x80;
    absorb(INPUT_AT, blocks);
  };
  return {
    hash(bytes) {
      run(bytes);
      return mem.slice(0, 32);
    },
    equals(bytes, expected) {
      if (expected.length !== 32) return false;
      run(bytes);
      for (let i = 0; i < 32; i++) if (mem[i] !== expected[i]) return false;
      return true;
    },
  };
}

import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ed25519Backend, ed25519Backends, keccak256, keccak256Noble, setEd25519Backend } from './crypto';
import { fromHex, toHex } from './hex';
import { runVectorFile } from './vectors';

const dir = fileURLToPath(new URL('./vectors/', import.meta.url));
const FILES = {
  'envelopes.json': 'envelopes',
  'merkle.json': 'merkle',
  'batch.json': 'batch',
  'reputation.json': 'reputation',
} as const;
const MIN_CASES = { 'envelopes.json': 41, 'merkle.json': 5, 'batch.json': 5, 'reputation.json': 7 } as const;

function load(name: string): unknown {
  const path = dir + name;
  assert.ok(statSync(path, { throwIfNoEntry: false }), `vector file ${name} is missing`);
  const text = readFileSync(path, 'utf8');
  assert.ok(text.trim().length > 0, `vector file ${name} is empty`);
  return JSON.parse(text);
}

describe('docs/protocol.md vectors (lib/protocol/vectors)', () => {
  for (const [file, kind] of Object.entries(FILES)) {
    test(`${file}: every vector passes`, () => {
      const r = runVectorFile(load(file));
      assert.equal(r.kind, kind);
      assert.ok(r.cases.length >= MIN_CASES[file as keyof typeof MIN_CASES], `${file}: only ${r.cases.length} cases`);
      const failed = r.cases.filter((c) => !c.ok);
      assert.deepEqual(failed, [], `${file} failures`);
    });
  }

  test('envelopes.json includes the replay sequence and every reason code', () => {
    const d = load('envelopes.json') as { vectors: { expect: string }[]; replay_sequence: { expect: string }[] };
    assert.ok(d.replay_sequence.length >= 5);
    const r = runVectorFile(d);
    assert.equal(r.cases.filter((c) => c.name.startsWith('replay_sequence/') && c.ok).length, d.replay_sequence.length);
    const reasons = new Set(d.vectors.map((v) => v.expect));
    for (const code of [
      'valid',
      'decode',
      'version',
      'msg_type',
      'unregistered',
      'signature',
      'timestamp',
      'payload_hash',
      'payload_len',
      'payload_schema',
    ]) {
      assert.ok(reasons.has(code), `no vector for ${code}`);
    }
  });

  test('every Ed25519 backend gives the same verdicts on the envelope vectors', () => {
    const before = ed25519Backend().name;
    const d = load('envelopes.json');
    try {
      assert.ok(ed25519Backends.length >= 2, 'expected at least two backends in Node');
      for (const b of ed25519Backends) {
        setEd25519Backend(b.name);
        const failed = runVectorFile(d).cases.filter((c) => !c.ok);
        assert.deepEqual(failed, [], `backend ${b.name}`);
      }
    } finally {
      setEd25519Backend(before);
    }
  });

  test('Ed25519 backends agree on strictness edge cases (S >= L, non-canonical points)', () => {
    const seed = new Uint8Array(32).fill(7);
    const msg = fromHex('01020304');
    const pk = ed25519Backends[0].publicKey(seed);
    const sig = ed25519Backends[0].sign(msg, seed);
    const L = (1n << 252n) + 27742317777372353535851937790883648493n;
    const le = (n: bigint) => {
      const o = new Uint8Array(32);
      for (let i = 0; i < 32; i++) {
        o[i] = Number(n & 0xffn);
        n >>= 8n;
      }
      return o;
    };
    let s = 0n;
    for (let i = 31; i >= 0; i--) s = (s << 8n) | BigInt(sig[32 + i]);
    const sPlusL = sig.slice();
    sPlusL.set(le(s + L), 32);
    // y = p (2^255 - 19) is the non-canonical encoding of y = 0; y = p + 1 of y = 1 (identity).
    const pEnc = le((1n << 255n) - 19n);
    const pPlus1 = le((1n << 255n) - 18n);
    const badR = sig.slice();
    badR.set(pPlus1, 0);
    const cases: [string, Uint8Array, Uint8Array, boolean][] = [
      ['good', sig, pk, true],
      ['S+L', sPlusL, pk, false],
      ['non-canonical A', sig, pEnc, false],
      ['non-canonical R', badR, pk, false],
    ];
    for (const b of ed25519Backends) {
      for (const [name, sg, key, want] of cases) assert.equal(b.verify(sg, msg, key), want, `${b.name}: ${name}`);
      assert.equal(toHex(b.sign(msg, seed)), toHex(sig), `${b.name} signs deterministically`);
      assert.equal(toHex(b.publicKey(seed)), toHex(pk));
    }
  });

  test('keccak256 fast path agrees with @noble/hashes and is Keccak, not SHA3', () => {
    assert.equal(
      toHex(keccak256(new Uint8Array(0))),
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    for (const n of [0, 1, 135, 136, 137, 300, 1000]) {
      const x = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      assert.equal(toHex(keccak256(x)), toHex(keccak256Noble(x)));
    }
  });
});

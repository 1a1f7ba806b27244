import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { decodeCanonical } from './cbor';
import {
  keccak256,
  keccak256Equals,
  keccak256HashWasm,
  keccak256Noble,
  keccakBackend,
  keccakBackends,
  publicKeyFromSeed,
  setKeccakBackend,
} from './crypto';
import { buildEnvelope, decodeEnvelope, encodeEnvelope, envelopeFromItems, signingPreimage } from './envelope';
import { readEnvelope, scanEnvelopeLayout } from './envelope-scan';
import { toHex } from './hex';
import type { Envelope } from './types';
import { MsgType } from './types';
import { validateEnvelope, validateEnvelopeSync } from './validate';

fc.configureGlobal({ seed: 0x01_0b_ae, numRuns: 300 });

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
const u64 = fc.oneof(
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  fc.constantFrom(0n, 23n, 24n, 255n, 256n, 65535n, 65536n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n + 1n, 2n ** 64n - 1n),
);
const envelopeArb: fc.Arbitrary<Envelope> = fc.record({
  version: fc.integer({ min: 0, max: 255 }),
  msgType: fc.integer({ min: 0, max: 0xffff }),
  sender: bytes(32),
  recipient: bytes(32),
  timestamp: u64,
  blockRef: u64,
  nonce: u64,
  conversationId: bytes(16),
  payloadHash: bytes(32),
  payloadLen: fc.integer({ min: 0, max: 0xffffffff }),
  payload: fc.oneof(fc.uint8Array({ maxLength: 600 }), fc.uint8Array({ minLength: 4000, maxLength: 5000 })),
  signature: bytes(64),
});
const plain = (e: Envelope) =>
  Object.fromEntries(Object.entries(e).map(([k, v]) => [k, v instanceof Uint8Array ? toHex(v) : v]));

describe('envelope hot path (docs/protocol.md §1–3)', () => {
  test('one-pass reader gives the generic decode values, and the preimage bytes', () => {
    fc.assert(
      fc.property(envelopeArb, (e) => {
        const enc = encodeEnvelope(e);
        const r = readEnvelope(enc);
        assert.ok(typeof r !== 'string', String(r));
        assert.deepEqual(plain(r.envelope), plain(envelopeFromItems(decodeCanonical(enc))));
        assert.deepEqual(plain(r.envelope), plain(e));
        for (const k of ['timestamp', 'blockRef', 'nonce'] as const) assert.equal(typeof r.envelope[k], 'bigint');
        const pre = r.bytes.slice(0, r.preimageEnd);
        pre[0] = 0x8a;
        assert.equal(toHex(pre), toHex(signingPreimage(e)));
      }),
    );
  });

  test('mutated envelopes: reader verdict and detail match the reference scan', () => {
    const valid = encodeEnvelope({
      version: 1,
      msgType: 7,
      sender: new Uint8Array(32).fill(1),
      recipient: new Uint8Array(32),
      timestamp: 2n ** 40n,
      blockRef: 300n,
      nonce: 70000n,
      conversationId: new Uint8Array(16),
      payloadHash: new Uint8Array(32),
      payloadLen: 30,
      payload: new Uint8Array(30).fill(9),
      signature: new Uint8Array(64),
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 2 })), {
          minLength: 1,
          maxLength: 3,
        }),
        (ms) => {
          let b = Array.from(valid);
          for (const [at, byte, kind] of ms) {
            if (kind === 0) b[at % b.length] = byte;
            else if (kind === 1) b.splice(at % b.length, 0, byte);
            else b = b.slice(0, at % (b.length + 1));
          }
          const x = Uint8Array.from(b);
          const r = readEnvelope(x);
          const ref = scanEnvelopeLayout(x);
          assert.equal(typeof r === 'string' ? r : undefined, ref);
          let generic = true;
          try {
            envelopeFromItems(decodeCanonical(x));
          } catch {
            generic = false;
          }
          assert.equal(typeof r !== 'string', generic);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('decoded fields are private: later writes to the input do not reach them', () => {
    const seed = new Uint8Array(32).fill(5);
    const b = buildEnvelope(
      {
        msgType: MsgType.DELIVER,
        sender: new Uint8Array(32).fill(2),
        timestamp: 10n,
        nonce: 1n,
        conversationId: new Uint8Array(16),
        payload: new Uint8Array(50).fill(4),
      },
      seed,
    );
    const input = b.bytes.slice();
    const d = decodeEnvelope(input);
    assert.ok(d.ok);
    input.fill(0xee);
    assert.equal(toHex(d.envelope.sender), '02'.repeat(32));
    assert.equal(toHex(d.envelope.payload), '04'.repeat(50));
  });

  test('validation leaves the input untouched and returns the id of the exact bytes', async () => {
    const seed = new Uint8Array(32).fill(6);
    const sender = new Uint8Array(32).fill(3);
    const pk = publicKeyFromSeed(seed);
    const registry = { keysFor: (id: Uint8Array) => (toHex(id) === toHex(sender) ? [new Uint8Array(32), pk] : []) };
    const b = buildEnvelope(
      {
        msgType: MsgType.DELIVER,
        sender,
        timestamp: 1_000_000n,
        nonce: 9n,
        conversationId: new Uint8Array(16),
        payload: new Uint8Array(300).fill(1),
      },
      seed,
    );
    const copy = b.bytes.slice();
    const nonces = new Map<string, bigint>();
    const r = validateEnvelopeSync(b.bytes, { mode: 'live', registry, nonces, nowUs: 1_000_000n });
    assert.ok(r.ok);
    assert.equal(toHex(r.id), toHex(b.id));
    assert.equal(toHex(b.bytes), toHex(copy));
    assert.equal(nonces.get(toHex(sender)), 9n);
    const again = await validateEnvelope(b.bytes, { mode: 'live', registry, nonces, nowUs: 1_000_000n });
    assert.deepEqual(again.ok ? 'ok' : again.reason, 'replay');
    const archived = await validateEnvelope(b.bytes, {
      mode: 'archive',
      registry: { keysFor: async (id) => registry.keysFor(id) },
    });
    assert.ok(archived.ok);
    assert.equal(toHex(archived.id), toHex(b.id));
  });
});

describe('keccak256 backends agree (docs/protocol.md §2–3)', () => {
  test('own WASM = hash-wasm = @noble/hashes around every block edge and for large inputs', () => {
    const lengths = [...Array.from({ length: 700 }, (_, i) => i), 65_535, 65_536, 195_839, 195_840, 195_841, 400_001];
    for (const n of lengths) {
      const x = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      const want = toHex(keccak256Noble(x));
      assert.equal(toHex(keccak256(x)), want, `len ${n}`);
      assert.equal(toHex(keccak256HashWasm(x)), want, `len ${n} (hash-wasm)`);
      assert.ok(keccak256Equals(x, keccak256Noble(x)));
      const wrong = keccak256Noble(x);
      wrong[31] ^= 1;
      assert.equal(keccak256Equals(x, wrong), false);
    }
    assert.equal(keccak256Equals(new Uint8Array(1), new Uint8Array(31)), false);
  });

  test('the selectable backend switches what keccak256 and keccak256Equals run on, with the same digests', () => {
    const before = keccakBackend();
    try {
      for (const name of keccakBackends()) {
        setKeccakBackend(name);
        assert.equal(keccakBackend(), name);
        for (const n of [0, 135, 136, 137, 300]) {
          const x = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff);
          assert.equal(toHex(keccak256(x)), toHex(keccak256Noble(x)), `${name} len ${n}`);
          assert.ok(keccak256Equals(x, keccak256Noble(x)), `${name} equals len ${n}`);
        }
      }
      assert.throws(() => setKeccakBackend('sha3' as never), /not available/);
    } finally {
      setKeccakBackend(before);
    }
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type BehaviorBatch, decodeBatch, decodeSignedBatch, encodeBatch } from './batch';
import { decodeCanonical } from './cbor';
import { publicKeyFromSeed } from './crypto';
import { buildEnvelope, decodeEnvelope, encodeEnvelope, envelopeFromItems } from './envelope';
import { bytesEqual } from './hex';
import {
  decodeNeg1,
  decodeNegCommit,
  decodeNegReveal,
  encodeNeg1,
  encodeNegCommit,
  encodeNegReveal,
  parseNegotiationPayload,
} from './neg1';
import { decodeFeedback, decodeNotarizeBid, encodeFeedback, encodeNotarizeBid } from './payloads';
import { decodeReceipt } from './receipt';
import type { Envelope } from './types';
import { MsgType } from './types';
import { validateEnvelopeSync } from './validate';

fc.configureGlobal({ seed: 0x01_0b_ad, numRuns: 300 });

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const i128 = fc.bigInt({ min: -(1n << 127n), max: (1n << 127n) - 1n });

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
  payload: fc.uint8Array({ maxLength: 600 }),
  signature: bytes(64),
});

const neg1Arb = fc.record({
  bidValue: i128,
  tokenMint: bytes(32),
  serviceHash: bytes(32),
  round: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  deadline: u64,
  decayBps: fc.integer({ min: 0, max: 1000 }),
  maxRounds: fc.integer({ min: 1, max: 20 }),
  verification: fc.record({ tier: fc.integer({ min: 0, max: 2 }), testSuiteHash: fc.oneof(bytes(32), bytes(0)) }),
  reason: fc.integer({ min: 0, max: 6 }),
  metadata: fc.uint8Array({ maxLength: 64 }),
});

const batchArb: fc.Arbitrary<BehaviorBatch> = fc.record({
  agentId: bytes(32),
  epochNumber: u64,
  slotStart: u64,
  slotEnd: u64,
  messageCount: u64,
  msgTypeCounts: fc.array(u64, { minLength: 16, maxLength: 16 }),
  uniqueCounterparties: u64,
  tasksCompleted: u64,
  notarizations: u64,
  disputes: u64,
  bidValues: fc.array(fc.record({ conversationId: bytes(16), counterparty: bytes(32), bidValue: i128, slot: u64 }), {
    maxLength: 4,
  }),
  taskSelections: fc.array(fc.record({ conversationId: bytes(16), counterparty: bytes(32), slot: u64 }), {
    maxLength: 4,
  }),
  verifierIds: fc.array(fc.record({ conversationId: bytes(16), verifierId: bytes(32), slot: u64 }), { maxLength: 4 }),
  feedbackEvents: fc.array(
    fc.record({
      conversationId: bytes(16),
      fromAgent: bytes(32),
      score: fc.integer({ min: -100, max: 100 }),
      outcome: fc.integer({ min: 0, max: 2 }),
      role: fc.integer({ min: 0, max: 1 }),
      slot: u64,
      satiAttestationHash: bytes(32),
    }),
    { maxLength: 4 },
  ),
  overflow: fc.boolean(),
  overflowDataHash: bytes(32),
  logMerkleRoot: bytes(32),
});

// Buffer-vs-Uint8Array and bigint normalisation make deepEqual meaningful only on plain copies.
const plain = (v: unknown): unknown =>
  v instanceof Uint8Array
    ? Array.from(v)
    : Array.isArray(v)
      ? v.map(plain)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
        : v;

describe('codec round trips (fast-check)', () => {
  test('decodeEnvelope(encodeEnvelope(e)) = e', () => {
    fc.assert(
      fc.property(envelopeArb, (e) => {
        const r = decodeEnvelope(encodeEnvelope(e));
        assert.ok(r.ok);
        assert.deepEqual(plain(r.envelope), plain(e));
      }),
    );
  });
  test('FEEDBACK and NOTARIZE_BID payloads', () => {
    fc.assert(
      fc.property(
        fc.record({
          conversationId: bytes(16),
          targetAgent: bytes(32),
          score: fc.integer({ min: -100, max: 100 }),
          outcome: fc.integer({ min: 0, max: 2 }),
          isDispute: fc.boolean(),
          role: fc.integer({ min: 0, max: 1 }),
        }),
        (f) => {
          const r = decodeFeedback(encodeFeedback(f));
          assert.ok(r.ok);
          assert.deepEqual(plain(r.value), plain(f));
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.record({
          bidType: fc.integer({ min: 0, max: 1 }),
          conversationId: bytes(16),
          terms: fc.uint8Array({ maxLength: 100 }),
        }),
        (n) => {
          const r = decodeNotarizeBid(encodeNotarizeBid(n));
          assert.ok(r.ok);
          assert.deepEqual(plain(r.value), plain(n));
        },
      ),
    );
  });
  test('NEG1, NEGC, NEGR', () => {
    fc.assert(
      fc.property(neg1Arb, (p) => {
        const enc = encodeNeg1(p);
        const r = decodeNeg1(enc);
        assert.ok(r.ok, !r.ok ? r.detail : '');
        assert.deepEqual(plain(r.value), plain(p));
        assert.equal(parseNegotiationPayload(enc).kind, 'neg1');
      }),
    );
    fc.assert(
      fc.property(i128, bytes(32), (price, salt) => {
        const r = decodeNegReveal(encodeNegReveal({ price, salt }));
        assert.ok(r.ok);
        assert.equal(r.value.price, price);
        const c = decodeNegCommit(encodeNegCommit(salt));
        assert.ok(c.ok && bytesEqual(c.value, salt));
      }),
    );
  });
  test('BehaviorBatch', () => {
    fc.assert(
      fc.property(batchArb, (b) => {
        const r = decodeBatch(encodeBatch(b));
        assert.ok(r.ok, !r.ok ? r.detail : '');
        assert.deepEqual(plain(r.value), plain(b));
      }),
      { numRuns: 150 },
    );
  });
});

const seed = new Uint8Array(32).fill(3);
const agent = new Uint8Array(32).fill(9);
const registry = { keysFor: (id: Uint8Array) => (bytesEqual(id, agent) ? [publicKeyFromSeed(seed)] : []) };
const NOW = 1_790_000_000_000_000n;
const valid = buildEnvelope(
  {
    msgType: MsgType.FEEDBACK,
    sender: agent,
    timestamp: NOW,
    nonce: 5n,
    conversationId: new Uint8Array(16).fill(1),
    payload: encodeFeedback({
      conversationId: new Uint8Array(16).fill(1),
      targetAgent: new Uint8Array(32).fill(2),
      score: 50,
      outcome: 2,
      isDispute: false,
      role: 0,
    }),
  },
  seed,
).bytes;

describe('hostile bytes (fast-check)', () => {
  test('decoders never throw on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (b) => {
        for (const x of [b, Uint8Array.of(0x8c, ...b), Uint8Array.of(...Buffer.from('NEG1'), 0x8a, ...b)]) {
          decodeEnvelope(x);
          decodeNeg1(x);
          decodeNegReveal(x);
          decodeBatch(x);
          decodeSignedBatch(x);
          decodeReceipt(x);
          decodeFeedback(x);
          decodeNotarizeBid(x);
          parseNegotiationPayload(x);
          const r = validateEnvelopeSync(x, { mode: 'live', registry, nonces: new Map(), nowUs: NOW });
          assert.equal(r.ok, false);
          try {
            decodeCanonical(x);
          } catch (e) {
            assert.equal((e as Error).name, 'DecodeError');
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('mutated valid envelopes never throw and are never accepted', () => {
    assert.ok(validateEnvelopeSync(valid, { mode: 'archive', registry }).ok, 'the original is valid');
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
      fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('append' as const), tail: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
    );
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => {
        let b = Array.from(valid);
        for (const m of ms) {
          const at = 'at' in m ? m.at % b.length : 0;
          if (m.kind === 'flip') b[at] ^= 1 << m.bit;
          else if (m.kind === 'set') b[at] = m.byte;
          else if (m.kind === 'insert') b.splice(at, 0, m.byte);
          else if (m.kind === 'delete') b.splice(at, 1);
          else if (m.kind === 'truncate') b = b.slice(0, at);
          else b = b.concat(Array.from(m.tail));
        }
        const x = Uint8Array.from(b);
        const changed = !bytesEqual(x, valid);
        // The hot-path layout scan agrees with the generic decode + re-encode comparison.
        let generic = true;
        try {
          envelopeFromItems(decodeCanonical(x));
        } catch {
          generic = false;
        }
        assert.equal(decodeEnvelope(x).ok, generic && x.length <= 65_536);
        for (const mode of ['live', 'archive'] as const) {
          const r = validateEnvelopeSync(x, { mode, registry, nonces: new Map(), nowUs: NOW });
          if (changed) assert.equal(r.ok, false, `accepted a changed envelope (${mode})`);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

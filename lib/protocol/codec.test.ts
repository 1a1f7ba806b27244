import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeBatch, encodeBatch, overflowDataHashOf } from './batch';
import { buildBatchFromLog } from './batch-build';
import { decodeCanonical, encodeCanonical } from './cbor';
import { MAX_BATCH_ENTRIES } from './constants';
import { publicKeyFromSeed } from './crypto';
import { buildEnvelope, decodeEnvelope, encodeEnvelope } from './envelope';
import { fromHex, toHex } from './hex';
import { leafHash, logEntryOf, merkleProof, merkleRoot, verifyMerkleProof } from './merkle';
import {
  checkZopaCommitment,
  decodeNeg1,
  encodeNeg1,
  int128ToBytes,
  makeReservationCommitment,
  parseNegotiationPayload,
} from './neg1';
import { encodeFeedback } from './payloads';
import { applyEpochDecay, applyFeedback, emptyReputation, foldBatches } from './reputation';
import { type Envelope, MsgType } from './types';
import { validateEnvelope, validateEnvelopeSync } from './validate';

const hex = (b: Uint8Array) => toHex(b);
describe('canonical CBOR edges (docs/protocol.md §1)', () => {
  test('integers at every head boundary, and -2^64 without a bignum', () => {
    const cases: [bigint, string][] = [
      [0n, '00'],
      [23n, '17'],
      [24n, '1818'],
      [255n, '18ff'],
      [256n, '190100'],
      [65536n, '1a00010000'],
      [2n ** 32n, '1b0000000100000000'],
      [-1n, '20'],
      [-25n, '3818'],
      [-(2n ** 64n), '3bffffffffffffffff'],
      [2n ** 64n, 'c249010000000000000000'],
      [-(2n ** 64n) - 1n, 'c349010000000000000000'],
    ];
    for (const [v, h] of cases) {
      assert.equal(hex(encodeCanonical(v)), h, String(v));
      assert.equal(BigInt(decodeCanonical(fromHex(h)) as bigint | number), v);
    }
  });
  test('non-canonical forms are rejected', () => {
    for (const h of [
      '1817',
      '190017',
      '9f01ff',
      '5f4101ff',
      'f93c00',
      'c24101',
      'c2420001',
      'd840420102',
      '0000',
      '6161',
      'a0',
      'f6',
    ]) {
      assert.throws(() => decodeCanonical(fromHex(h)), { name: 'DecodeError' }, h);
    }
  });
});

const seedA = new Uint8Array(32).fill(1),
  seedB = new Uint8Array(32).fill(2);
const A = new Uint8Array(32).fill(0xa1),
  B = new Uint8Array(32).fill(0xb2),
  C = new Uint8Array(32).fill(0xc3);
const conv = new Uint8Array(16).fill(4);
const NOW = 1_790_000_000_000_000n;
const neg1 = (bid: bigint) =>
  encodeNeg1({
    bidValue: bid,
    tokenMint: new Uint8Array(32),
    serviceHash: new Uint8Array(32),
    round: 0,
    deadline: 0n,
    decayBps: 0,
    maxRounds: 5,
    verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
    reason: 0,
    metadata: new Uint8Array(0),
  });
let n = 0n;
const env = (msgType: number, from: Uint8Array, to: Uint8Array, payload: Uint8Array): Envelope =>
  buildEnvelope(
    {
      msgType,
      sender: from,
      recipient: to,
      timestamp: NOW,
      blockRef: 100n + n,
      nonce: ++n,
      conversationId: conv,
      payload,
    },
    from === A ? seedA : seedB,
  ).envelope;

describe('validation (docs/protocol.md §3)', () => {
  const registry = { keysFor: (id: Uint8Array) => (hex(id) === hex(A) ? [publicKeyFromSeed(seedA)] : []) };
  test('nonce state moves only on acceptance; archive mode skips replay and timestamp', async () => {
    const nonces = new Map<string, bigint>();
    const good = buildEnvelope(
      {
        msgType: MsgType.BEACON,
        sender: A,
        timestamp: NOW,
        nonce: 10n,
        conversationId: conv,
        payload: new Uint8Array(3),
      },
      seedA,
    ).bytes;
    const late = buildEnvelope(
      {
        msgType: MsgType.BEACON,
        sender: A,
        timestamp: NOW - 31_000_000n,
        nonce: 11n,
        conversationId: conv,
        payload: new Uint8Array(3),
      },
      seedA,
    ).bytes;
    assert.deepEqual((await validateEnvelope(late, { mode: 'live', registry, nonces, nowUs: NOW })).ok, false);
    assert.equal(nonces.size, 0);
    const r = await validateEnvelope(good, {
      mode: 'live',
      registry: { keysFor: async (id) => registry.keysFor(id) },
      nonces,
      nowUs: NOW,
    });
    assert.ok(r.ok);
    assert.equal(nonces.get(hex(A)), 10n);
    const again = validateEnvelopeSync(good, { mode: 'live', registry, nonces, nowUs: NOW });
    assert.deepEqual(again.ok ? 'valid' : again.reason, 'replay');
    assert.ok(validateEnvelopeSync(good, { mode: 'archive', registry }).ok);
    assert.ok(validateEnvelopeSync(late, { mode: 'archive', registry }).ok);
    assert.throws(() => validateEnvelopeSync(good, { mode: 'live', registry } as never), TypeError);
  });
  test('decode rejects oversize, wrong arity and wrong lengths without throwing', () => {
    const e = env(MsgType.DELIVER, A, B, new Uint8Array(0));
    const bytes = encodeEnvelope(e);
    assert.deepEqual(decodeEnvelope(bytes.slice(0, -1)).ok, false);
    assert.deepEqual(decodeEnvelope(new Uint8Array(65_537)).ok, false);
    assert.deepEqual(decodeEnvelope(encodeCanonical([1n, 2n])).ok, false);
    assert.throws(() => encodeEnvelope({ ...e, sender: new Uint8Array(31) }), RangeError);
  });
});

describe('NEG1 / NEGC / NEGR (docs/protocol.md §8)', () => {
  test('decode limits and the ZOPA commitment', () => {
    assert.equal(decodeNeg1(neg1(-5n)).ok, true);
    assert.equal(decodeNeg1(neg1(5n).slice(0, -1)).ok, false);
    assert.equal(parseNegotiationPayload(new TextEncoder().encode('{"json":1}')).kind, 'opaque');
    assert.equal(hex(int128ToBytes(-1n)), 'ff'.repeat(16));
    const salt = new Uint8Array(32).fill(8);
    const c = makeReservationCommitment(1_500_000n, salt);
    assert.equal(checkZopaCommitment(c, { price: 1_500_000n, salt }), true);
    assert.equal(checkZopaCommitment(c, { price: 1_500_001n, salt }), false);
  });
});

describe('merkle, batch building and the authoritative fold (§5–7)', () => {
  test('proofs verify for every leaf and fail when moved', () => {
    const leaves = Array.from({ length: 7 }, (_, i) => new Uint8Array(32).fill(i + 1));
    const root = merkleRoot(leaves);
    for (let i = 0; i < 7; i++) {
      const p = merkleProof(leaves, i);
      assert.equal(p.siblings.length, 3);
      assert.equal(verifyMerkleProof(leaves[i], p, root), true);
      assert.equal(verifyMerkleProof(leaves[i], { ...p, index: (i + 1) % 7 }, root), false);
    }
  });

  test('buildBatchFromLog fills the economic arrays from the log', () => {
    const fb = encodeFeedback({
      conversationId: conv,
      targetAgent: A,
      score: -20,
      outcome: 0,
      isDispute: true,
      role: 0,
    });
    const log = [
      env(MsgType.PROPOSE, A, B, neg1(1000n)),
      env(MsgType.COUNTER, B, A, neg1(900n)),
      env(MsgType.ACCEPT, A, B, neg1(900n)),
      env(MsgType.NOTARIZE_ASSIGN, A, C, new Uint8Array(0)),
      env(MsgType.DELIVER, A, B, new Uint8Array(5)),
      env(MsgType.FEEDBACK, B, new Uint8Array(32), fb),
      env(MsgType.BEACON, A, new Uint8Array(32), new Uint8Array(0)),
    ];
    const b = buildBatchFromLog({ agentId: A, epochNumber: 7n, slotStart: 0n, slotEnd: 1000n, envelopes: log });
    assert.equal(b.messageCount, 7n);
    assert.deepEqual(b.msgTypeCounts.slice(0, 14), [0n, 0n, 0n, 1n, 1n, 1n, 0n, 1n, 0n, 1n, 0n, 1n, 0n, 1n]);
    assert.equal(b.uniqueCounterparties, 2n);
    assert.deepEqual(
      b.bidValues.map((x) => [x.bidValue, hex(x.counterparty)]),
      [
        [1000n, hex(B)],
        [900n, hex(B)],
      ],
    );
    assert.deepEqual(
      b.taskSelections.map((x) => hex(x.counterparty)),
      [hex(B)],
    );
    assert.deepEqual(
      b.verifierIds.map((x) => hex(x.verifierId)),
      [hex(C)],
    );
    assert.deepEqual(
      b.feedbackEvents.map((x) => [x.score, x.outcome, hex(x.fromAgent)]),
      [[-20, 0, hex(B)]],
    );
    assert.equal(b.tasksCompleted, 1n);
    assert.equal(b.disputes, 1n);
    assert.equal(b.overflow, false);
    assert.equal(hex(b.logMerkleRoot), hex(merkleRoot(log.map((e) => leafHash(logEntryOf(e))))));
    const r = decodeBatch(encodeBatch(b));
    assert.ok(r.ok);
  });

  test('MAX_BATCH_ENTRIES truncation sets overflow and hashes the full arrays', () => {
    const log: Envelope[] = [];
    for (let i = 0; i < MAX_BATCH_ENTRIES + 3; i++)
      log.push({ ...env(MsgType.NOTARIZE_ASSIGN, A, C, new Uint8Array(0)), blockRef: BigInt(i) });
    const b = buildBatchFromLog({ agentId: A, epochNumber: 1n, slotStart: 0n, slotEnd: 10n, envelopes: log });
    assert.equal(b.verifierIds.length, MAX_BATCH_ENTRIES);
    assert.equal(b.overflow, true);
    const full = log.map((e) => ({ conversationId: conv, verifierId: C, slot: e.blockRef }));
    assert.equal(hex(b.overflowDataHash), hex(overflowDataHashOf([], [], full, [])));
    assert.equal(decodeBatch(encodeBatch(b)).ok, true);
  });

  test('foldBatches: sorted feedback events, dispute sums and idle decay', () => {
    const batch = (epoch: bigint, events: [bigint, number][], disputes = 0n) => ({
      ...buildBatchFromLog({ agentId: A, epochNumber: epoch, slotStart: 0n, slotEnd: 0n, envelopes: [] }),
      disputes,
      feedbackEvents: events.map(([slot, score]) => ({
        conversationId: conv,
        fromAgent: B,
        score,
        outcome: 2,
        role: 0,
        slot,
        satiAttestationHash: new Uint8Array(32),
      })),
    });
    // Events given out of order: the fold sorts by slot, so 87 is folded before -100.
    const s = foldBatches({
      batches: [
        batch(
          0n,
          [
            [20n, -100],
            [10n, 87],
          ],
          1n,
        ),
      ],
      fromEpoch: 0n,
      toEpoch: 0n,
    });
    let g = applyFeedback(emptyReputation(), { score: 87, outcome: 2, role: 0 });
    g = applyFeedback(g, { score: -100, outcome: 2, role: 0 });
    assert.deepEqual(s, { ...g, totalDisputes: 1n });
    // Epochs 1..5 idle: no decay; epoch 6 closes six idle epochs: decay; epoch 7 too.
    assert.deepEqual(
      foldBatches({ batches: [batch(0n, [[10n, 87]])], fromEpoch: 0n, toEpoch: 5n }).reliabilityScore,
      87_000_000n,
    );
    assert.equal(
      foldBatches({ batches: [batch(0n, [[10n, 87]])], fromEpoch: 0n, toEpoch: 6n }).reliabilityScore,
      82_650_000n,
    );
    assert.equal(
      foldBatches({ batches: [batch(0n, [[10n, 87]])], fromEpoch: 0n, toEpoch: 7n }).reliabilityScore,
      applyEpochDecay(
        applyEpochDecay(
          g.reliabilityScore === 0n ? emptyReputation() : { ...emptyReputation(), reliabilityScore: 87_000_000n },
        ),
      ).reliabilityScore,
    );
  });
});

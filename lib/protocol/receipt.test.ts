import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { publicKeyFromSeed } from './crypto';
import { buildEnvelope, decodeEnvelope } from './envelope';
import { logEntryOf } from './merkle';
import { encodeNeg1, type Neg1Payload } from './neg1';
import { encodeFeedback } from './payloads';
import { buildReceipt, decodeReceipt, encodeReceipt, type Receipt, verifyReceipt } from './receipt';
import { MsgType } from './types';

const seedA = new Uint8Array(32).fill(11),
  seedB = new Uint8Array(32).fill(22),
  seedX = new Uint8Array(32).fill(33);
const A = new Uint8Array(32).fill(0xaa),
  B = new Uint8Array(32).fill(0xbb);
const conv = new Uint8Array(16).fill(5);
const offer = (bid: bigint, round: number, tier: number): Uint8Array =>
  encodeNeg1({
    bidValue: bid,
    tokenMint: new Uint8Array(32),
    serviceHash: new Uint8Array(32).fill(7),
    round,
    deadline: 0n,
    decayBps: 50,
    maxRounds: 10,
    verification: { tier, testSuiteHash: new Uint8Array(32).fill(9) },
    reason: 0,
    metadata: new Uint8Array(0),
  } satisfies Neg1Payload);

function conversation() {
  let nonce = 1n;
  const env = (msgType: number, from: 'A' | 'B', payload: Uint8Array) =>
    buildEnvelope(
      {
        msgType,
        sender: from === 'A' ? A : B,
        recipient: from === 'A' ? B : A,
        timestamp: 1_790_000_000_000_000n + nonce,
        blockRef: 400_000_000n + nonce,
        nonce: nonce++,
        conversationId: conv,
        payload,
      },
      from === 'A' ? seedA : seedB,
    ).bytes;
  return [
    env(MsgType.PROPOSE, 'A', offer(1_000n, 0, 2)),
    env(MsgType.COUNTER, 'B', offer(800n, 1, 2)),
    env(MsgType.ACCEPT, 'A', offer(800n, 2, 2)),
    env(MsgType.DELIVER, 'B', new TextEncoder().encode('result')),
    env(
      MsgType.FEEDBACK,
      'A',
      encodeFeedback({ conversationId: conv, targetAgent: B, score: 90, outcome: 2, isDispute: false, role: 0 }),
    ),
  ];
}
const parties = () => [
  { agentId: A, keys: [publicKeyFromSeed(seedA)] },
  { agentId: B, keys: [publicKeyFromSeed(seedB)] },
];
const good = (): Receipt => buildReceipt({ conversationId: conv, envelopes: conversation(), parties: parties() });
const checks = (r: Receipt) =>
  verifyReceipt(r)
    .failures.map((f) => f.check)
    .sort();

describe('Handshake receipt', () => {
  test('a good receipt verifies and survives its byte encoding', () => {
    const r = good();
    const v = verifyReceipt(r);
    assert.deepEqual(v.failures, []);
    assert.equal(v.ok, true);
    assert.equal(v.tier, 2);
    assert.equal(v.price, 800n);
    assert.deepEqual(v.outcome, [2]);
    const d = decodeReceipt(encodeReceipt(r));
    assert.ok(d.ok);
    assert.deepEqual(Buffer.from(encodeReceipt(d.receipt)), Buffer.from(encodeReceipt(r)));
    assert.equal(verifyReceipt(d.receipt).ok, true);
  });

  test('log entries (payload elided) still verify signatures; tier needs the ACCEPT payload', () => {
    const r = good();
    r.envelopes[3] = logEntryOf(decodeEnv(r.envelopes[3]));
    assert.deepEqual(checks(r), []);
    r.envelopes[2] = logEntryOf(decodeEnv(r.envelopes[2]));
    assert.deepEqual(checks(r), ['tier']);
  });

  test('a flipped signature byte is a signature failure', () => {
    const r = good();
    r.envelopes[1] = r.envelopes[1].slice();
    r.envelopes[1][r.envelopes[1].length - 5] ^= 1;
    assert.deepEqual(checks(r), ['signature']);
  });

  test('a changed payload byte is a payload_hash failure', () => {
    const r = good();
    const bytes = r.envelopes[3].slice();
    const i = Buffer.from(bytes).indexOf(Buffer.from('result'));
    bytes[i] ^= 0x20;
    r.envelopes[3] = bytes;
    assert.deepEqual(checks(r), ['payload_hash']);
  });

  test("a swapped key fails that party's signatures and its party_signed check", () => {
    const r = good();
    r.parties[1] = { agentId: B, keys: [publicKeyFromSeed(seedX)] };
    const f = verifyReceipt(r).failures;
    assert.deepEqual([...new Set(f.map((x) => x.check))].sort(), ['party_signed', 'signature']);
    assert.equal(f.filter((x) => x.check === 'signature').length, 2);
  });

  test('a missing party is reported', () => {
    const r = good();
    r.parties = [r.parties[0]];
    assert.deepEqual([...new Set(checks(r))], ['parties', 'unknown_signer']);
    const onlyA = good();
    onlyA.envelopes = onlyA.envelopes.filter((_, i) => i % 2 === 0);
    assert.deepEqual(checks(onlyA), ['party_signed', 'tier']);
  });

  test('a tier mismatch and a missing outcome are their own failures', () => {
    const env = conversation();
    const r = good();
    r.envelopes[2] = buildEnvelope(
      {
        msgType: MsgType.ACCEPT,
        sender: A,
        recipient: B,
        timestamp: 1n,
        blockRef: 1n,
        nonce: 99n,
        conversationId: conv,
        payload: offer(800n, 2, 1),
      },
      seedA,
    ).bytes;
    assert.deepEqual(checks(r), ['tier']);
    const noOutcome = buildReceipt({ conversationId: conv, envelopes: env.slice(0, 4), parties: parties() });
    assert.deepEqual(checks(noOutcome), ['outcome']);
  });

  test('hostile receipt bytes never throw', () => {
    for (const b of [new Uint8Array(0), Uint8Array.of(0x84, 1), Uint8Array.of(0x84, 2, 0x40, 0x80, 0x80)])
      assert.equal(decodeReceipt(b).ok, false);
  });
});

function decodeEnv(b: Uint8Array) {
  const r = decodeEnvelope(b);
  if (!r.ok) throw new Error(r.detail);
  return r.envelope;
}

// The browser-side verifier on real signed envelopes, a real merkle tree and receipts: the bytes
// as built verify; each kind of tampering fails exactly the steps that should catch it, by name.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { publicKeyFromSeed } from '../protocol/crypto';
import { buildEnvelope, decodeEnvelope } from '../protocol/envelope';
import { leafHash, logEntryOf, merkleProof, merkleRoot } from '../protocol/merkle';
import { encodeNeg1 } from '../protocol/neg1';
import { encodeFeedback } from '../protocol/payloads';
import { buildReceipt, decodeReceipt, encodeReceipt, verifyReceipt } from '../protocol/receipt';
import { MsgType } from '../protocol/types';
import { checkEnvelope, type SignerResolution } from './envelope';
import { checkInclusion, type InclusionProof, type OnChainBatch } from './inclusion';
import { checkReceiptChainSigners, checkReceiptSteps } from './receipt';
import { failedSteps } from './steps';

const seedA = new Uint8Array(32).fill(3),
  seedB = new Uint8Array(32).fill(4);
const A = new Uint8Array(32).fill(0xa1),
  B = new Uint8Array(32).fill(0xb2);
const conv = new Uint8Array(16).fill(9);
const neg1 = (bid: bigint, round: number) =>
  encodeNeg1({
    bidValue: bid,
    tokenMint: new Uint8Array(32),
    serviceHash: new Uint8Array(32).fill(1),
    round,
    deadline: 0n,
    decayBps: 50,
    maxRounds: 8,
    verification: { tier: 1, testSuiteHash: new Uint8Array(0) },
    reason: 0,
    metadata: new Uint8Array(0),
  });
let nonce = 1n;
const env = (msgType: number, from: 'A' | 'B', payload: Uint8Array) =>
  buildEnvelope(
    {
      msgType,
      sender: from === 'A' ? A : B,
      recipient: from === 'A' ? B : A,
      timestamp: 1_790_000_000_000_000n + nonce,
      nonce: nonce++,
      conversationId: conv,
      payload,
    },
    from === 'A' ? seedA : seedB,
  );

const log = [
  env(MsgType.PROPOSE, 'A', neg1(1_000_000n, 0)),
  env(MsgType.COUNTER, 'B', neg1(1_400_000n, 1)),
  env(MsgType.ACCEPT, 'A', neg1(1_400_000n, 2)),
  env(MsgType.DELIVER, 'B', new TextEncoder().encode('done')),
  env(
    MsgType.FEEDBACK,
    'A',
    encodeFeedback({ conversationId: conv, targetAgent: B, score: 80, outcome: 2, isDispute: false, role: 0 }),
  ),
];
const target = log[1];
const signerB: SignerResolution = { keys: [publicKeyFromSeed(seedB)], detail: 'holder of B' };
const flip = (b: Uint8Array, i: number) => {
  const o = b.slice();
  o[i] ^= 0x01;
  return o;
};

const entries = log.map((e) => logEntryOf(e.envelope));
const leaves = entries.map(leafHash);
const root = merkleRoot(leaves);
const proofOf = (i: number): InclusionProof => ({
  agent: A,
  epoch: 42n,
  index: i,
  leafCount: leaves.length,
  entry: entries[i],
  siblings: merkleProof(leaves, i).siblings,
  logRoot: root,
});
const onChain = (r: Uint8Array = root): OnChainBatch => ({
  agent: A,
  epoch: 42n,
  logMerkleRoot: r,
  address: 'BatchPda111',
});

describe('envelope verification in the browser', () => {
  test('the bytes as signed pass every step', () => {
    const r = checkEnvelope(target.bytes, target.id, signerB);
    assert.deepEqual(
      r.steps.map((s) => [s.name, s.ok]),
      [
        ['decode', true],
        ['envelope_id', true],
        ['payload_hash', true],
        ['payload_len', true],
        ['signer', true],
        ['signature', true],
      ],
    );
    assert.equal(r.ok, true);
  });

  test('a flipped signature byte fails envelope_id and signature', () => {
    const r = checkEnvelope(flip(target.bytes, target.bytes.length - 1), target.id, signerB);
    assert.deepEqual(failedSteps(r.steps), ['envelope_id', 'signature']);
    assert.equal(r.ok, false);
  });

  test(
    'a flipped payload byte fails envelope_id and payload_hash ' + '(the signature covers the hash, not the payload)',
    () => {
      const r = checkEnvelope(flip(target.bytes, target.bytes.length - 67), target.id, signerB);
      assert.deepEqual(failedSteps(r.steps), ['envelope_id', 'payload_hash']);
    },
  );

  test('the key of someone else fails signature only', () => {
    const r = checkEnvelope(target.bytes, target.id, { keys: [publicKeyFromSeed(seedA)], detail: 'holder of A' });
    assert.deepEqual(failedSteps(r.steps), ['signature']);
  });

  test('an unresolved signer fails signer and leaves signature unchecked', () => {
    const r = checkEnvelope(target.bytes, target.id, { error: 'RPC http://127.0.0.1:1: fetch failed' });
    assert.deepEqual(failedSteps(r.steps), ['signer']);
    assert.equal(r.steps.find((s) => s.name === 'signature')?.skipped, true);
  });

  test('truncated bytes fail decode and envelope_id; the rest is not reached', () => {
    const r = checkEnvelope(target.bytes.subarray(0, target.bytes.length - 5), target.id, signerB);
    assert.deepEqual(failedSteps(r.steps), ['decode', 'envelope_id']);
    assert.deepEqual(
      r.steps.filter((s) => s.skipped).map((s) => s.name),
      ['payload_hash', 'payload_len', 'signer', 'signature'],
    );
  });
});

describe('batch inclusion in the browser', () => {
  const e0 = decodeEnvelope(log[0].bytes);
  assert.ok(e0.ok);
  const envelope = e0.envelope;

  test('a real proof against the committed root passes every step', () => {
    const r = checkInclusion(envelope, proofOf(0), onChain());
    assert.deepEqual(
      r.steps.map((s) => [s.name, s.ok]),
      [
        ['log_entry', true],
        ['proof_shape', true],
        ['proof', true],
        ['batch_account', true],
        ['onchain_root', true],
      ],
    );
  });

  test('a tampered sibling fails proof and onchain_root', () => {
    const p = proofOf(0);
    p.siblings[1] = flip(p.siblings[1], 0);
    assert.deepEqual(failedSteps(checkInclusion(envelope, p, onChain()).steps), ['proof', 'onchain_root']);
  });

  test('a wrong root on chain fails onchain_root only', () => {
    assert.deepEqual(failedSteps(checkInclusion(envelope, proofOf(0), onChain(flip(root, 31))).steps), [
      'onchain_root',
    ]);
  });

  test('the proof of another envelope fails log_entry', () => {
    assert.deepEqual(failedSteps(checkInclusion(envelope, proofOf(2), onChain()).steps), ['log_entry']);
  });

  test('a batch account of another epoch fails batch_account', () => {
    const r = checkInclusion(envelope, proofOf(0), {
      ...(onChain() as Exclude<OnChainBatch, { error: string }>),
      epoch: 41n,
    });
    assert.deepEqual(failedSteps(r.steps), ['batch_account']);
  });

  test('a missing proof sibling fails proof_shape', () => {
    const p = proofOf(0);
    p.siblings.pop();
    assert.ok(failedSteps(checkInclusion(envelope, p, onChain()).steps).includes('proof_shape'));
  });
});

describe('receipt checks by name', () => {
  const parties = [
    { agentId: A, keys: [publicKeyFromSeed(seedA)] },
    { agentId: B, keys: [publicKeyFromSeed(seedB)] },
  ];
  const bytes = encodeReceipt(buildReceipt({ conversationId: conv, envelopes: log.map((e) => e.bytes), parties }));
  const stepsOf = (b: Uint8Array) => {
    const d = decodeReceipt(b);
    return d.ok ? checkReceiptSteps(verifyReceipt(d.receipt), null) : checkReceiptSteps(null, d.detail);
  };

  test('a good receipt passes every named check', () => {
    const s = stepsOf(bytes);
    assert.deepEqual(failedSteps(s), []);
    assert.equal(s.length, 11);
  });

  test("a flipped signature byte inside the receipt fails signature (A's other envelopes still verify)", () => {
    // The last envelope is A's FEEDBACK: its last byte is a signature byte, and A signed the ACCEPT too.
    const s = stepsOf(flip(bytes, bytes.length - 1));
    assert.deepEqual(failedSteps(s), ['signature']);
  });

  test('bytes that are not a receipt fail receipt and reach nothing else', () => {
    const s = stepsOf(new Uint8Array([0x82, 0x01]));
    assert.deepEqual(failedSteps(s), ['receipt']);
    assert.equal(s.filter((x) => x.skipped).length, 10);
  });
});

describe('receipt keys against the chain', () => {
  const seedM = new Uint8Array(32).fill(7);
  const M = publicKeyFromSeed(seedM);
  const chain = (a: Uint8Array[], b: Uint8Array[]) =>
    new Map<string, SignerResolution>([
      [Buffer.from(A).toString('hex'), { keys: a, detail: 'owner of A' }],
      [Buffer.from(B).toString('hex'), { keys: b, detail: 'owner of B' }],
    ]);
  const receiptOf = (envs: typeof log, partyKeys: [Uint8Array[], Uint8Array[]]) => {
    const d = decodeReceipt(
      encodeReceipt(
        buildReceipt({
          conversationId: conv,
          envelopes: envs.map((e) => e.bytes),
          parties: [
            { agentId: A, keys: partyKeys[0] },
            { agentId: B, keys: partyKeys[1] },
          ],
        }),
      ),
    );
    assert.ok(d.ok);
    return d.receipt;
  };

  test('keys the chain allows pass; none at all is skipped, not passed', () => {
    const r = receiptOf(log, [[publicKeyFromSeed(seedA)], [publicKeyFromSeed(seedB)]]);
    assert.deepEqual(
      failedSteps(checkReceiptChainSigners(r, chain([publicKeyFromSeed(seedA)], [publicKeyFromSeed(seedB)]))),
      [],
    );
    const none = checkReceiptChainSigners(r, null);
    assert.deepEqual(
      none.map((x) => [x.name, x.ok, x.skipped]),
      [
        ['chain_signers', false, true],
        ['chain_signature', false, true],
      ],
    );
  });

  test(
    "a receipt whose embedded key is not the party's owner " + 'or delegate holds offline and fails both chain checks',
    () => {
      // A's envelopes signed with M's key, and the receipt says M is A's key: consistent on its own.
      let n = 100n;
      const forged = log.map((e) => {
        if (!e.envelope.sender.every((x, i) => x === A[i])) return e;
        return buildEnvelope(
          {
            msgType: e.envelope.msgType,
            sender: A,
            recipient: B,
            timestamp: e.envelope.timestamp,
            nonce: n++,
            conversationId: conv,
            payload: e.envelope.payload,
          },
          seedM,
        );
      });
      const r = receiptOf(forged, [[M], [publicKeyFromSeed(seedB)]]);
      assert.equal(verifyReceipt(r).ok, true, 'the file is consistent with itself');
      const s = checkReceiptChainSigners(r, chain([publicKeyFromSeed(seedA)], [publicKeyFromSeed(seedB)]));
      assert.deepEqual(failedSteps(s), ['chain_signers', 'chain_signature']);
      assert.match(s[0].detail, /neither its owner nor a valid delegate/);
    },
  );

  test('a party the chain does not know fails chain_signers with the reason', () => {
    const r = receiptOf(log, [[publicKeyFromSeed(seedA)], [publicKeyFromSeed(seedB)]]);
    const s = checkReceiptChainSigners(
      r,
      new Map([
        [Buffer.from(A).toString('hex'), { keys: [publicKeyFromSeed(seedA)], detail: '' }],
        [Buffer.from(B).toString('hex'), { error: 'not_sati_member' }],
      ]),
    );
    assert.deepEqual(failedSteps(s), ['chain_signers', 'chain_signature']);
    assert.match(s[0].detail, /not_sati_member/);
  });
});

// One-click challenge candidates: which entries of an uploaded log the on-chain batch leaves out,
// with evidence that matches the batch (leaf under the batch's root; buffer carries the batch CBOR).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublicKey } from '@solana/web3.js';
import { challengeEvidence } from '../chain/evidence';
import { batchHash, decodeBatch, encodeBatch } from '../protocol/batch';
import { buildBatchFromLog } from '../protocol/batch-build';
import { publicKeyFromSeed } from '../protocol/crypto';
import { buildEnvelope, encodeEnvelope } from '../protocol/envelope';
import { toHex } from '../protocol/hex';
import { encodeNeg1 } from '../protocol/neg1';
import { MsgType } from '../protocol/types';
import { type CandidateStore, challengeCandidates } from './challenge-candidates';

const seed = new Uint8Array(32).fill(3);
const agent = publicKeyFromSeed(seed);
const peer = new Uint8Array(32).fill(9);
const conv = new Uint8Array(16).fill(5);
const neg1 = (bid: bigint, round: number) =>
  encodeNeg1({
    bidValue: bid,
    tokenMint: new Uint8Array(32),
    serviceHash: new Uint8Array(32),
    round,
    deadline: 0n,
    decayBps: 0,
    maxRounds: 4,
    verification: { tier: 1, testSuiteHash: new Uint8Array(0) },
    reason: 0,
    metadata: new Uint8Array(0),
  });
const log = [
  buildEnvelope(
    {
      msgType: MsgType.PROPOSE,
      sender: agent,
      recipient: peer,
      timestamp: 1_000n,
      nonce: 1n,
      conversationId: conv,
      payload: neg1(500n, 0),
    },
    seed,
  ).envelope,
  buildEnvelope(
    {
      msgType: MsgType.COUNTER,
      sender: agent,
      recipient: peer,
      timestamp: 2_000n,
      nonce: 2n,
      conversationId: conv,
      payload: neg1(600n, 2),
    },
    seed,
  ).envelope,
  buildEnvelope(
    {
      msgType: MsgType.BEACON,
      sender: agent,
      recipient: new Uint8Array(32),
      timestamp: 3_000n,
      nonce: 3n,
      conversationId: new Uint8Array(16),
      payload: new Uint8Array([1]),
    },
    seed,
  ).envelope,
];
const honest = buildBatchFromLog({ agentId: agent, epochNumber: 7n, slotStart: 0n, slotEnd: 0n, envelopes: log });
const cheat = { ...honest, bidValues: honest.bidValues.filter((b) => b.bidValue !== 600n) };

function store(batch: typeof honest | null, signer = new PublicKey(agent).toBase58()): CandidateStore {
  return {
    epochLog: async () => log.map((e, position) => ({ position, id: new Uint8Array(32), raw: encodeEnvelope(e) })),
    onChainBatchUpload: async () => (batch ? encodeBatch(batch) : null),
    listBatches: async () => [{ data: { signer } }],
  };
}

test('the bid the batch leaves out is the contradicted entry, with evidence for that batch', async () => {
  const { candidates: list, unprovable } = await challengeCandidates(store(cheat), agent, 7n);
  assert.equal(unprovable, 0);
  const bad = list.filter((c) => c.contradicted);
  assert.deepEqual(
    bad.map((c) => c.index),
    [1],
  );
  assert.match(bad[0].reason, /bid 600 .*missing from the batch/);
  const ev = challengeEvidence({ log, index: 1, batch: cheat });
  assert.equal(bad[0].leaf, toHex(ev.leaf));
  assert.equal(bad[0].bytes, toHex(ev.bytes));
  assert.ok(bad[0].bytes.endsWith(toHex(encodeBatch(cheat))), 'the buffer ends with the batch CBOR');
  assert.deepEqual(
    list.filter((c) => !c.contradicted).map((c) => c.index),
    [0],
  );
  const back = decodeBatch(encodeBatch(cheat));
  assert.ok(back.ok && toHex(batchHash(back.value)) === toHex(batchHash(cheat)));
});

test('an honest batch contradicts nothing; no uploaded batch means no candidates', async () => {
  assert.deepEqual(
    (await challengeCandidates(store(honest), agent, 7n)).candidates.filter((c) => c.contradicted),
    [],
  );
  assert.deepEqual(await challengeCandidates(store(null), agent, 7n), { candidates: [], unprovable: 0 });
});

test(
  'entries signed by another key than the batch signer (a delegate) ' +
    'are counted, never offered: resolve could not verify them',
  async () => {
    const other = new PublicKey(publicKeyFromSeed(new Uint8Array(32).fill(4))).toBase58();
    const r = await challengeCandidates(store(cheat, other), agent, 7n);
    assert.deepEqual(r.candidates, [], 'nothing offered that resolve_challenge would refuse');
    assert.equal(r.unprovable, 2, 'the PROPOSE and the COUNTER yield batch items; the BEACON yields none');
  },
);

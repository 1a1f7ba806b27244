// Batch verification against the agent's uploaded epoch log (a batch whose root does not match
// the agent's uploaded log is flagged; a matching one is marked verified),
// on a real store (PGlite): the verdicts for a matching log, a log differing by one envelope, no
// log, a log arriving after the batch, and a batch that leaves a bid out under the true root.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import { type BuiltEnvelope, epochLog } from '../chain/node/testing';
import { type BehaviorBatch, encodeBatch } from '../protocol/batch';
import { buildBatchFromLog } from '../protocol/batch-build';
import { keccak256 } from '../protocol/crypto';
import { openStore, type Store } from '../store/index';
import { checkBatch, uploadedEpochLog } from './verify';

const E = 10n;
const owner = Keypair.fromSeed(new Uint8Array(32).fill(11));
const agent = Keypair.fromSeed(new Uint8Array(32).fill(12)).publicKey;
const seed = owner.secretKey.slice(0, 32);

/** A batch row as the indexer stores it: root, batch hash and the on-chain counts in `data`. */
const row = (b: BehaviorBatch) => ({
  agentId: agent.toBytes(),
  epoch: b.epochNumber,
  batchHash: keccak256(encodeBatch(b)),
  root: b.logMerkleRoot,
  slot: 1n,
  data: {
    messageCount: b.messageCount.toString(),
    bidCount: b.bidValues.length,
    taskCount: b.taskSelections.length,
    verifierCount: b.verifierIds.length,
    feedbackCount: b.feedbackEvents.length,
    overflow: b.overflow ? 1 : 0,
  },
});
const batchOf = (epoch: bigint, log: BuiltEnvelope[]) =>
  buildBatchFromLog({
    agentId: agent.toBytes(),
    epochNumber: epoch,
    slotStart: 0n,
    slotEnd: 0n,
    envelopes: log.map((x) => x.envelope),
  });

describe('checkBatch against the uploaded log', () => {
  let store: Store;
  const ingest = (log: BuiltEnvelope[]) =>
    store.ingestEnvelopes(
      log.map((b) => ({
        id: b.id,
        envelope: b.envelope,
        raw: b.bytes,
        source: 'upload' as const,
        receivedAt: new Date(),
      })),
    );
  const upload = async (epoch: bigint, log: BuiltEnvelope[]) => {
    await ingest(log);
    return store.saveEpochLog(
      agent.toBytes(),
      epoch,
      log.map((x) => x.id),
    );
  };
  const status = async (epoch: bigint) => (await store.listBatches({ agent: agent.toBytes(), epoch }))[0];

  before(async () => {
    store = await openStore({ dataDir: ':memory:', epochSeconds: Number(E) });
  });
  after(async () => {
    await store.close();
  });

  test('the uploaded log matches the batch: verified, log root recorded', async () => {
    const log = epochLog({ agent, seed, epoch: 1n, epochSeconds: E, tag: 1, extra: 2 });
    const b = batchOf(1n, log);
    assert.equal(await upload(1n, log), 'saved');
    await store.upsertBatch(row(b));
    assert.equal(await checkBatch(store, row(b)), 'verified');
    const r = await status(1n);
    assert.equal(r.status, 'verified');
    assert.equal(Buffer.from(r.logRoot!).toString('hex'), Buffer.from(b.logMerkleRoot).toString('hex'));
    assert.deepEqual(
      (await uploadedEpochLog(store, agent, 1n))!.map((e) => e.nonce),
      log.map((x) => x.envelope.nonce),
    );
  });

  test('a log differing by one envelope: mismatch; no log: unverified', async () => {
    const log = epochLog({ agent, seed, epoch: 2n, epochSeconds: E, tag: 2, extra: 2 });
    const b = batchOf(2n, log);
    await upload(2n, log.slice(0, -1)); // the batch covers an envelope the uploaded log lacks
    await store.upsertBatch(row(b));
    assert.equal(await checkBatch(store, row(b)), 'mismatch');
    assert.equal((await status(2n)).status, 'mismatch');
    assert.notEqual(
      Buffer.from((await status(2n)).logRoot!).toString('hex'),
      Buffer.from(b.logMerkleRoot).toString('hex'),
    );

    const b3 = batchOf(3n, epochLog({ agent, seed, epoch: 3n, epochSeconds: E, tag: 3 }));
    await store.upsertBatch(row(b3));
    assert.equal(await checkBatch(store, row(b3)), 'unverified');
    assert.equal((await status(3n)).logRoot, null);
  });

  test('a log uploaded after the batch, or replacing a mismatching one, verifies it on the next check', async () => {
    const log = epochLog({ agent, seed, epoch: 4n, epochSeconds: E, tag: 4 });
    const b = batchOf(4n, log);
    await store.upsertBatch(row(b));
    assert.equal(await checkBatch(store, row(b)), 'unverified');
    assert.equal(await upload(4n, [...log].reverse()), 'saved'); // same envelopes, wrong order
    assert.equal(await checkBatch(store, row(b)), 'mismatch');
    assert.equal(await upload(4n, log), 'replaced');
    assert.equal(await checkBatch(store, row(b)), 'verified');
    // Verified is sticky: another log for the epoch is refused, the same one is a no-op.
    assert.equal(await upload(4n, log.slice(1)), 'conflict');
    assert.equal(await upload(4n, log), 'unchanged');
    assert.equal((await store.epochLog(agent.toBytes(), 4n)).length, log.length);
  });

  test('a batch leaving a bid out under the true log root: mismatch (its bid count differs)', async () => {
    const log = epochLog({ agent, seed, epoch: 5n, epochSeconds: E, tag: 5 });
    const honest = batchOf(5n, log);
    const cheat = { ...honest, bidValues: honest.bidValues.slice(1) };
    assert.equal(Buffer.from(cheat.logMerkleRoot).toString('hex'), Buffer.from(honest.logMerkleRoot).toString('hex'));
    await upload(5n, log);
    await store.upsertBatch(row(cheat));
    assert.equal(await checkBatch(store, row(cheat)), 'mismatch');
    assert.equal(
      Buffer.from((await status(5n)).logRoot!).toString('hex'),
      Buffer.from(honest.logMerkleRoot).toString('hex'),
      'the roots agree; the counts do not',
    );
  });
});

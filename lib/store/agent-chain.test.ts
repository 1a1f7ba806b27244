// The agent page's batch reads on both backends: pages newest first that neither repeat nor skip,
// and the pinned read of given epochs (a pending challenge's batch, a linked one) that returns
// just the batches of those epochs that exist, newest first, with their challenge counts.
import assert from 'node:assert/strict';
import { testOnEachStore } from './test-helpers';

const A = new Uint8Array(32).fill(0x61);
const B = new Uint8Array(32).fill(0x62);

testOnEachStore('listAgentBatches: pages by `before`, or just the listed epochs', async (store) => {
  for (let e = 1n; e <= 15n; e++) {
    await store.upsertBatch({ agentId: A, epoch: e, batchHash: new Uint8Array(32).fill(1), root: new Uint8Array(32).fill(2), slot: e });
    await store.upsertBatch({ agentId: B, epoch: e, batchHash: new Uint8Array(32).fill(3), root: new Uint8Array(32).fill(4), slot: e });
  }
  await store.upsertChallenge({ address: '11111111111111111111111111111112', agentId: A, epoch: 3n, challenger: B, status: 'pending', slot: 1n, signature: 'sig1' });
  const first = await store.listAgentBatches(A, { limit: 10 });
  assert.deepEqual(first.rows.map((r) => r.batch.epoch), Array.from({ length: 10 }, (_, i) => 15n - BigInt(i)));
  assert.equal(first.more, true);
  const rest = await store.listAgentBatches(A, { limit: 10, before: 6n });
  assert.deepEqual(rest.rows.map((r) => r.batch.epoch), [5n, 4n, 3n, 2n, 1n]);
  assert.equal(rest.more, false);

  const pinned = await store.listAgentBatches(A, { limit: 3, epochs: [3n, 12n, 99n] });
  assert.deepEqual(pinned.rows.map((r) => r.batch.epoch), [12n, 3n], 'the listed epochs that exist, newest first');
  assert.deepEqual(pinned.rows.map((r) => [r.challenges, Buffer.from(r.batch.agentId).toString('hex')]), [[0, Buffer.from(A).toString('hex')], [1, Buffer.from(A).toString('hex')]], 'this agent\'s, with the challenge count');
  assert.deepEqual((await store.listAgentBatches(A, { limit: 1, epochs: [] })).rows, []);
  await assert.rejects(store.listAgentBatches(A, { limit: 1, before: 5n, epochs: [3n] }), /exclude each other/);
}, { dbPrefix: 'agentchain' });

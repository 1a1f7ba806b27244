// The agent page's batch reads on both backends: pages newest first that neither repeat nor skip,
// and the read of one epoch's batch (the one a link pins on the page) with its challenge count.
import assert from 'node:assert/strict';
import { testOnEachStore } from '../backends-testing';

const A = new Uint8Array(32).fill(0x61);
const B = new Uint8Array(32).fill(0x62);

testOnEachStore(
  'listAgentBatches: pages by `before`, or the batch of one epoch',
  async (store) => {
    for (let e = 1n; e <= 15n; e++) {
      await store.upsertBatch({
        agentId: A,
        epoch: e,
        batchHash: new Uint8Array(32).fill(1),
        root: new Uint8Array(32).fill(2),
        slot: e,
      });
      await store.upsertBatch({
        agentId: B,
        epoch: e,
        batchHash: new Uint8Array(32).fill(3),
        root: new Uint8Array(32).fill(4),
        slot: e,
      });
    }
    await store.upsertChallenge({
      address: '11111111111111111111111111111112',
      agentId: A,
      epoch: 3n,
      challenger: B,
      status: 'pending',
      slot: 1n,
      signature: 'sig1',
    });
    const first = await store.listAgentBatches(A, { limit: 10 });
    assert.deepEqual(
      first.rows.map((r) => r.batch.epoch),
      Array.from({ length: 10 }, (_, i) => 15n - BigInt(i)),
    );
    assert.equal(first.more, true);
    const rest = await store.listAgentBatches(A, { limit: 10, before: 6n });
    assert.deepEqual(
      rest.rows.map((r) => r.batch.epoch),
      [5n, 4n, 3n, 2n, 1n],
    );
    assert.equal(rest.more, false);

    const linked = await store.listAgentBatches(A, { limit: 1, epoch: 3n });
    assert.deepEqual(
      linked.rows.map((r) => [r.batch.epoch, r.challenges, Buffer.from(r.batch.agentId).toString('hex')]),
      [[3n, 1, Buffer.from(A).toString('hex')]],
      "this agent's batch of that epoch, with its challenge count",
    );
    assert.equal(linked.more, false);
    assert.deepEqual((await store.listAgentBatches(A, { limit: 1, epoch: 99n })).rows, []);
    await assert.rejects(store.listAgentBatches(A, { limit: 1, before: 5n, epoch: 3n }), /exclude each other/);
  },
  { dbPrefix: 'agentchain' },
);

testOnEachStore(
  "agentStakeLease: one agent's stake and lease rows, null where it has none",
  async (store) => {
    await store.upsertStake({ agentId: A, amount: 10_000_000n, status: 'locked', slot: 5n });
    await store.upsertStake({ agentId: B, amount: 7n, status: 'unlocking', slot: 6n });
    await store.upsertLease({ agentId: B, paidThroughEpoch: 9n, active: true, slot: 7n });
    const a = await store.agentStakeLease(A);
    assert.deepEqual([a.stake?.amount, a.stake?.status, a.lease], [10_000_000n, 'locked', null]);
    const b = await store.agentStakeLease(B);
    assert.deepEqual([b.stake?.amount, b.lease?.paidThroughEpoch, b.lease?.active], [7n, 9n, true]);
    assert.deepEqual(await store.agentStakeLease(new Uint8Array(32)), { stake: null, lease: null });
  },
  { dbPrefix: 'zx_agent_stake' },
);

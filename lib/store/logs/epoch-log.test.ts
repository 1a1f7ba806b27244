// Uploaded epoch logs: save is idempotent, a different log replaces the stored one (only when
// the caller may replace: the agent's signed upload) until the batch is verified, reads return envelopes in position
// order. PGlite always; Postgres with TEST_DATABASE_URL.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { testOnEachStore } from '../backends-testing';
import type { Store } from '../index';
import { bytes32, conv16, makeItem } from '../testing';

async function scenario(store: Store) {
  const agent = bytes32(1, 7);
  const peer = bytes32(2, 7);
  const items = [0, 1, 2].map((i) =>
    makeItem({
      msgType: 2,
      sender: i === 1 ? peer : agent,
      recipient: i === 1 ? agent : peer,
      conversationId: conv16(1),
      nonce: BigInt(i + 1),
      timestamp: 1_000_000n + BigInt(i),
    }),
  );
  await store.ingestEnvelopes(items);
  const ids = items.map((x) => x.id);
  assert.equal(await store.saveEpochLog(agent, 3n, ids), 'saved');
  assert.equal(await store.saveEpochLog(agent, 3n, ids), 'unchanged');
  const read = await store.epochLog(agent, 3n);
  assert.deepEqual(
    read.map((r) => [
      r.position,
      Buffer.from(r.id).toString('hex'),
      Buffer.from(r.raw!).equals(Buffer.from(items[r.position].raw)),
    ]),
    ids.map((id, i) => [i, Buffer.from(id).toString('hex'), true]),
  );
  assert.deepEqual(await store.epochLog(agent, 4n), [], 'no upload: empty');

  // Without `replace` (an unsigned upload) a different log is never stored over it.
  assert.equal(await store.saveEpochLog(agent, 3n, [ids[2], ids[0]], { replace: false }), 'kept');
  assert.equal(await store.saveEpochLog(agent, 3n, ids, { replace: false }), 'unchanged');
  assert.equal((await store.epochLog(agent, 3n)).length, 3);
  assert.equal(await store.saveEpochLog(agent, 9n, ids, { replace: false }), 'saved', 'nothing stored yet: saved');

  // A different log replaces it while the batch is not verified; rows follow.
  assert.equal(await store.saveEpochLog(agent, 3n, [ids[2], ids[0]]), 'replaced');
  assert.deepEqual(
    (await store.epochLog(agent, 3n)).map((r) => Buffer.from(r.id).toString('hex')),
    [ids[2], ids[0]].map((x) => Buffer.from(x).toString('hex')),
  );
  await store.upsertBatch({ agentId: agent, epoch: 3n, batchHash: bytes32(9), root: bytes32(8), slot: 1n });
  await store.setBatchStatus(agent, 3n, 'verified');
  assert.equal(await store.saveEpochLog(agent, 3n, ids), 'conflict');
  assert.equal(await store.saveEpochLog(agent, 3n, [ids[2], ids[0]]), 'unchanged');
  assert.equal((await store.epochLog(agent, 3n)).length, 2);

  // An id whose envelope is not stored reads back with raw = null.
  assert.equal(await store.saveEpochLog(agent, 5n, [bytes32(77)]), 'saved');
  assert.equal((await store.epochLog(agent, 5n))[0].raw, null);
  await assert.rejects(store.saveEpochLog(agent, 6n, []), TypeError);
  await assert.rejects(store.saveEpochLog(agent, -1n, ids), RangeError);
}

describe('epoch logs', () => {
  testOnEachStore('save is idempotent, replaced until verified, read in position order', scenario, {
    dbPrefix: 'zx_epochlog',
  });
});

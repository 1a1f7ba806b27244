// A batch's status moves when its log is uploaded, however late: a log uploaded after its batch
// left the newest epochs the indexer re-checks is still picked up by the next poll. Real
// embedded chain and store (PGlite; Postgres with TEST_DATABASE_URL).

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { PublicKey } from '@solana/web3.js';
import { lockStake, payLease, submitBatch } from '../chain/node/economy';
import { type BuiltEnvelope, epochLog, newChainAgent, startChainWorld } from '../chain/node/testing';
import { buildBatchFromLog } from '../protocol/batch-build';
import { testOnEachStore } from '../store/backends-testing';
import type { Store } from '../store/index';
import { type ChainIndexer, startChainIndexer } from './index';

async function upload(store: Store, agent: PublicKey, epoch: bigint, log: BuiltEnvelope[]) {
  await store.ingestEnvelopes(
    log.map((b) => ({
      id: b.id,
      envelope: b.envelope,
      raw: b.bytes,
      source: 'upload' as const,
      receivedAt: new Date(),
    })),
  );
  await store.saveEpochLog(
    agent.toBytes(),
    epoch,
    log.map((b) => b.id),
  );
}

async function story(store: Store) {
  const w = await startChainWorld();
  let indexer: ChainIndexer | null = null;
  try {
    const e0 = w.epoch();
    const A = await newChainAgent(w);
    await lockStake(w.connection, { owner: A.owner, agent: A.agent, amount: 10_000_000n, config: w.config });
    await payLease(w.connection, { payer: A.owner, agent: A.agent, config: w.config });
    indexer = await startChainIndexer({ connection: w.connection, store, pollMs: 60_000 });
    const logs = new Map<bigint, BuiltEnvelope[]>();
    for (const e of [e0, e0 + 4n]) {
      await w.setEpoch(e);
      const log = epochLog({
        agent: A.agent,
        seed: A.seed,
        epoch: e,
        epochSeconds: w.epochSeconds,
        tag: Number(e - e0) + 1,
      });
      logs.set(e, log);
      await submitBatch(w.connection, {
        owner: A.owner,
        agent: A.agent,
        batch: buildBatchFromLog({
          agentId: A.agent.toBytes(),
          epochNumber: e,
          slotStart: 0n,
          slotEnd: 0n,
          envelopes: log.map((x) => x.envelope),
        }),
      });
    }
    await indexer.idle();
    await indexer.catchUp();
    const status = async (e: bigint) => (await store.listBatches({ agent: A.agent.toBytes(), epoch: e }))[0]?.status;
    assert.deepEqual([await status(e0), await status(e0 + 4n)], ['unverified', 'unverified']);
    // The log of e0 arrives four epochs late: no longer among the newest epochs re-checked.
    await upload(store, A.agent, e0, logs.get(e0)!);
    await indexer.verifyBatches();
    assert.equal(await status(e0), 'verified');
    assert.equal(await status(e0 + 4n), 'unverified', 'no log, no verdict');
  } finally {
    await indexer?.stop();
    await w.close();
  }
}

describe('late epoch log', () => {
  testOnEachStore('a batch is verified when its log arrives after the re-check window', story, {
    dbPrefix: 'zx_latelog',
    epochSeconds: 10,
  });
});

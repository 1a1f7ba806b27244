// Reputation over time on a real store (PGlite): the gossip fold at the end of each epoch with
// FEEDBACK about the agent (stored as the fold is read), and the authoritative fold after each
// verified batch, folded at its verdict from its uploaded log; a batch that is not verified adds
// no point.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import { type BuiltEnvelope, epochLog } from '../../lib/chain/node/testing';
import { buildBatchFromLog } from '../../lib/protocol/batch-build';
import { openStore } from '../../lib/store/index';
import { ReputationHistoryViewSchema } from '../../lib/wire';
import { loadReputationHistory } from './reputation-history';
import type { Services } from './services';

test('gossip points per epoch with FEEDBACK, authoritative points per verified batch', async () => {
  const E = 10;
  const store = await openStore({ dataDir: ':memory:', epochSeconds: E });
  try {
    const owner = Keypair.fromSeed(new Uint8Array(32).fill(21));
    const agent = Keypair.fromSeed(new Uint8Array(32).fill(22)).publicKey;
    const seed = owner.secretKey.slice(0, 32);
    const a = agent.toBytes();
    for (const [epoch, status] of [
      [1n, 'verified'],
      [2n, 'mismatch'],
      [3n, 'verified'],
    ] as const) {
      const log: BuiltEnvelope[] = epochLog({ agent, seed, epoch, epochSeconds: BigInt(E), tag: Number(epoch) });
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
        a,
        epoch,
        log.map((x) => x.id),
      );
      const b = buildBatchFromLog({
        agentId: a,
        epochNumber: epoch,
        slotStart: 0n,
        slotEnd: 0n,
        envelopes: log.map((x) => x.envelope),
      });
      await store.upsertBatch({
        agentId: a,
        epoch,
        batchHash: new Uint8Array(32),
        root: b.logMerkleRoot,
        slot: 1n,
        data: {},
      });
      await store.setBatchStatus(a, epoch, status);
    }
    // The page reads the agent's reputation first, which brings the gossip fold and its points up to date.
    await store.getReputation(a);
    const h = await loadReputationHistory({ reads: store, config: { epochSeconds: E } } as unknown as Services, a);
    assert.deepEqual(ReputationHistoryViewSchema.parse(h), h);
    // Each log carries one FEEDBACK of +80 about the agent (participant, positive).
    assert.deepEqual(
      h.gossip.map((p) => [p.reliability, p.cooperation]),
      [
        [80, 100],
        [80, 100],
        [80, 100],
      ],
    );
    assert.deepEqual(
      h.authoritative.map((p) => p.epoch),
      ['1', '3'],
    );
    assert.equal(h.authoritative[0].tMs, 2 * E * 1000);
    assert.equal(h.authoritative[1].reliability, 80);
    assert.equal(h.gossipEarlier, false);
    assert.equal(h.authoritativeEarlier, false);
  } finally {
    await store.close();
  }
});

// The browser verifier's chain reads against the real embedded chain (litesvm behind JSON-RPC):
// the signer it resolves is the owner of the identity NFT, the BatchAccount it reads carries the
// root the agent submitted, and an envelope of that log with its proof passes every step end to
// end; an unknown agent and a missing batch fail `signer` and `batch_account` naming the RPC.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import { lockStake, payLease, submitBatch } from '../chain/node/economy';
import { type ChainWorld, epochLog, newChainAgent, startChainWorld } from '../chain/node/testing';
import { buildBatchFromLog } from '../protocol/batch-build';
import { toHex } from '../protocol/hex';
import { leafHash, logEntryOf, merkleProof, merkleRoot } from '../protocol/merkle';
import { checkBatchLog } from './batch';
import { checkEnvelope } from './envelope';
import { checkInclusion } from './inclusion';
import { readBatchAccount, resolveSigner } from './rpc';
import { failedSteps } from './steps';

describe('lib/verify over the embedded chain RPC', { timeout: 120_000 }, () => {
  let w: ChainWorld;
  before(async () => {
    w = await startChainWorld();
  });
  after(async () => {
    await w?.close();
  });

  test('signer, BatchAccount, envelope and inclusion checks on real chain state', async () => {
    const rpc = w.chain.rpcUrl;
    const A = await newChainAgent(w);
    await lockStake(w.connection, { owner: A.owner, agent: A.agent, amount: 10_000_000n, config: w.config });
    await payLease(w.connection, { payer: A.owner, agent: A.agent, config: w.config });
    const epoch = w.epoch();
    const log = epochLog({ agent: A.agent, seed: A.seed, epoch, epochSeconds: w.epochSeconds, tag: 1, extra: 2 });
    const batch = buildBatchFromLog({
      agentId: A.agent.toBytes(),
      epochNumber: epoch,
      slotStart: 0n,
      slotEnd: 0n,
      envelopes: log.map((x) => x.envelope),
    });
    await submitBatch(w.connection, { owner: A.owner, agent: A.agent, batch });

    const signer = await resolveSigner(rpc, A.agent.toBytes());
    assert.ok('keys' in signer, JSON.stringify(signer));
    assert.equal(toHex(signer.keys[0]), toHex(A.owner.publicKey.toBytes()));

    const onChain = await readBatchAccount(rpc, A.agent.toBytes(), epoch);
    assert.ok(!('error' in onChain), 'error' in onChain ? onChain.error : '');
    const leaves = log.map((x) => leafHash(logEntryOf(x.envelope)));
    assert.equal(toHex(onChain.logMerkleRoot), toHex(merkleRoot(leaves)));

    // Index 0 is the agent's own PROPOSE (signed by the identity owner).
    const env = checkEnvelope(log[0].bytes, log[0].id, signer);
    assert.deepEqual(failedSteps(env.steps), []);
    const inc = checkInclusion(
      env.envelope,
      {
        agent: A.agent.toBytes(),
        epoch,
        index: 0,
        leafCount: leaves.length,
        entry: logEntryOf(log[0].envelope),
        siblings: merkleProof(leaves, 0).siblings,
        logRoot: merkleRoot(leaves),
      },
      onChain,
    );
    assert.deepEqual(failedSteps(inc.steps), []);

    // The whole batch: the counterparty's envelopes are signed by a key that holds no NFT here.
    const signers = new Map([
      [toHex(A.agent.toBytes()), signer],
      [toHex(log[1].envelope.sender), await resolveSigner(rpc, log[1].envelope.sender)],
    ]);
    const whole = checkBatchLog(
      log.map((x) => x.bytes),
      signers,
      onChain,
      A.agent.toBytes(),
      epoch,
    );
    assert.deepEqual(failedSteps(whole.steps), ['signatures']);
    assert.equal(whole.steps.find((s) => s.name === 'onchain_root')?.ok, true);
  });

  test('an agent without an identity NFT and an epoch without a batch fail by name, naming the RPC', async () => {
    const rpc = w.chain.rpcUrl;
    const nobody = Keypair.generate().publicKey.toBytes();
    const s = await resolveSigner(rpc, nobody);
    assert.ok('error' in s && s.error.includes(rpc), JSON.stringify(s));
    const b = await readBatchAccount(rpc, nobody, 1n);
    assert.ok('error' in b && /no BatchAccount/.test(b.error), String('error' in b ? b.error : b.address));
    const r = await resolveSigner('http://127.0.0.1:9', nobody);
    assert.ok('error' in r && r.error.startsWith('RPC http://127.0.0.1:9'), JSON.stringify(r));
  });
});

// The economy series against the chain, on the real embedded chain and a real store: a staked
// agent, a slashed one and one that never staked. The chain's history ring is small and the
// indexer starts after the stake locks were evicted from it (as on a long-running chain whose
// observatory started late), so the stake locks are never indexed; the series must still end on
// what getAccountInfo reads for every agent. PGlite always; Postgres with TEST_DATABASE_URL.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import {
  challengeEvidence,
  lockStake,
  payLease,
  resolveChallenge,
  stageBuffer,
  submitBatch,
  submitChallenge,
  usdcAccountOf,
} from '../chain/node/economy';
import { epochLog, newChainAgent, startChainWorld } from '../chain/node/testing';
import { buildBatchFromLog } from '../protocol/batch-build';
import { testOnEachStore } from '../store/backends-testing';
import type { Store } from '../store/index';
import { readEconomy } from './economy';
import { checkEconomyAgainstChain } from './economy-check';
import { type ChainIndexer, startChainIndexer } from './index';

const USDC = 1_000_000n;
const HISTORY = 60;

async function story(store: Store) {
  const w = await startChainWorld({ historyLimit: HISTORY });
  let indexer: ChainIndexer | null = null;
  try {
    const e0 = w.epoch();
    const E = w.epochSeconds;
    const staked = await newChainAgent(w);
    const slashed = await newChainAgent(w);
    const unstaked = await newChainAgent(w);
    const watcher = await w.wallet(50n * USDC);
    for (const a of [staked, slashed])
      await lockStake(w.connection, { owner: a.owner, agent: a.agent, amount: 10n * USDC, config: w.config });
    for (const a of [staked, slashed, unstaked])
      await payLease(w.connection, { payer: a.owner, agent: a.agent, config: w.config });
    // The slashed agent's batch leaves its first bid out (the root still covers its log).
    const log = epochLog({ agent: slashed.agent, seed: slashed.seed, epoch: e0, epochSeconds: E, tag: 7, extra: 2 });
    const honest = buildBatchFromLog({
      agentId: slashed.agent.toBytes(),
      epochNumber: e0,
      slotStart: 0n,
      slotEnd: 0n,
      envelopes: log.map((x) => x.envelope),
    });
    const cheat = { ...honest, bidValues: honest.bidValues.slice(1) };
    await submitBatch(w.connection, { owner: slashed.owner, agent: slashed.agent, batch: cheat });
    // Evict everything so far from the chain's history: the indexer will never see the stake locks.
    for (let i = 0; i < HISTORY; i++) await w.airdrop(watcher.publicKey, 1);

    indexer = await startChainIndexer({ connection: w.connection, store, pollMs: 60_000 });
    await w.setEpoch(e0 + 1n);
    for (const a of [staked, slashed, unstaked])
      await payLease(w.connection, { payer: a.owner, agent: a.agent, config: w.config });
    const ev = challengeEvidence({ log: log.map((x) => x.envelope), index: 0, batch: cheat });
    const sub = await submitChallenge(w.connection, {
      challenger: watcher,
      challengerUsdc: usdcAccountOf(w.usdcMint, watcher.publicKey),
      agent: slashed.agent,
      epoch: e0,
      leaf: ev.leaf,
    });
    const buffer = await stageBuffer(w.connection, { authority: watcher, bytes: ev.bytes });
    await w.setEpoch(e0 + 3n); // after the challenge window
    await resolveChallenge(w.connection, {
      payer: watcher,
      challenge: sub.challenge,
      buffer,
      signer: slashed.owner.publicKey,
      preimage: ev.preimage,
      signature: ev.signature,
    });
    await indexer.idle();
    await indexer.catchUp();
    await indexer.idle();

    const nowMs = Number((e0 + 4n) * E) * 1000 + 1000;
    const agents = [staked.agent, slashed.agent, unstaked.agent];
    assert.deepEqual(
      await checkEconomyAgainstChain({ store, connection: w.connection, epochSeconds: E, nowMs }, agents),
      [],
    );
    assert.deepEqual(
      await checkEconomyAgainstChain(
        { store, connection: w.connection, epochSeconds: E, nowMs },
        agents.map((a) => a.toBase58()),
      ),
      [],
      'base58 ids too',
    );

    const series = async (a: typeof staked) =>
      (await readEconomy(store, { bytes: a.agent.toBytes(), base58: a.agent.toBase58() }, E, nowMs)).points.map((p) => [
        BigInt(p.epoch) - e0,
        p.stake,
        p.stakeStatus,
        p.paidThroughEpoch === null ? null : BigInt(p.paidThroughEpoch) - e0,
        p.events.join('+'),
      ]);
    // Staked throughout: its lock was before the indexed history, its stake account says 10 USDC.
    assert.deepEqual(await series(staked), [
      [1n, '10000000', 'locked', 1n, 'lease paid'],
      [4n, '10000000', 'locked', 1n, ''],
    ]);
    // The slash lands in the epoch it happened (by its block time), from 10 USDC to 0, never below.
    assert.deepEqual(await series(slashed), [
      [1n, '10000000', 'locked', 1n, 'lease paid+challenged'],
      [3n, '0', 'slashed', 1n, 'slashed+challenge upheld'],
      [4n, '0', 'slashed', 1n, ''],
    ]);
    assert.deepEqual(await series(unstaked), [
      [1n, '0', 'none', 1n, 'lease paid'],
      [4n, '0', 'none', 1n, ''],
    ]);
  } finally {
    await indexer?.stop();
    await w.close();
  }
}

describe('economy series against the chain', () => {
  testOnEachStore('the last point of every series equals the stake and lease accounts', story, {
    dbPrefix: 'zx_economy',
    epochSeconds: 10,
  });
});

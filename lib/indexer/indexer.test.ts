// The chain indexer on a real embedded chain over JSON-RPC and a real store: an on-chain story driven through
// lib/chain/node/economy.ts, the indexer stopped mid-run and restarted, then the stored rows compared with the program
// accounts and every program event on chain found stored exactly once. PGlite always; Postgres with TEST_DATABASE_URL.

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { type Connection, PublicKey } from '@solana/web3.js';
import { parseEvents } from '../chain/events';
import {
  challengeAddress,
  challengeEvidence,
  claimStake,
  lockStake,
  payLease,
  queueUnlock,
  resolveChallenge,
  stageBuffer,
  submitBatch,
  submitChallenge,
  tickLease,
  usdcAccountOf,
} from '../chain/node/economy';
import { type BuiltEnvelope, type ChainWorld, epochLog, newChainAgent, startChainWorld } from '../chain/node/testing';
import { behaviorLog, challenge, lease, PROGRAM_IDS, stakeLock } from '../chain/programs';
import type { BehaviorBatch } from '../protocol/batch';
import { buildBatchFromLog } from '../protocol/batch-build';
import { testOnEachStore } from '../store/backends-testing';
import type { Store } from '../store/index';
import { type ChainIndexer, type IndexerLiveEvent, startChainIndexer } from './index';
import { CHALLENGE_STATUS_NAMES, STAKE_STATUS_NAMES } from './json';
import { listBatchesJson, listChallengesJson, reputationJson } from './queries';

const USDC = 1_000_000n;

/** The agent's epoch log as POST /api/ingest/log stores it: envelopes ingested, then the ordered ids. */
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
const batchOf = (agent: PublicKey, epoch: bigint, log: BuiltEnvelope[], edit?: (b: BehaviorBatch) => BehaviorBatch) => {
  const b = buildBatchFromLog({
    agentId: agent.toBytes(),
    epochNumber: epoch,
    slotStart: 0n,
    slotEnd: 0n,
    envelopes: log.map((x) => x.envelope),
  });
  return edit ? edit(b) : b;
};

/** Every (signature, index, name) of our programs' events on chain, from history. */
async function eventsOnChain(conn: Connection): Promise<string[]> {
  const sigs = new Set<string>();
  for (const id of Object.values(PROGRAM_IDS))
    for (const s of await conn.getSignaturesForAddress(id, { limit: 1000 })) if (!s.err) sigs.add(s.signature);
  const out: string[] = [];
  for (const sig of sigs) {
    const t = await conn.getTransaction(sig, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' });
    parseEvents(t?.meta?.logMessages ?? []).forEach((e, i) => out.push(`${sig}:${i}:${e.event.name}`));
  }
  return out.sort();
}

async function story(store: Store) {
  const w: ChainWorld = await startChainWorld();
  const published: IndexerLiveEvent[] = [];
  const bus = { publish: (e: IndexerLiveEvent) => void published.push(e) };
  const start = () => startChainIndexer({ connection: w.connection, store, bus, pollMs: 60_000 });
  let indexer: ChainIndexer | null = null;
  try {
    const e0 = w.epoch();
    const E = w.epochSeconds;
    indexer = await start();
    const A = await newChainAgent(w);
    const B = await newChainAgent(w);
    const watcher = await w.wallet(50n * USDC);
    for (const x of [A, B]) {
      await lockStake(w.connection, { owner: x.owner, agent: x.agent, amount: 10n * USDC, config: w.config });
      await payLease(w.connection, { payer: x.owner, agent: x.agent, config: w.config });
    }
    const logA0 = epochLog({ agent: A.agent, seed: A.seed, epoch: e0, epochSeconds: E, tag: 1 });
    const logB0 = epochLog({ agent: B.agent, seed: B.seed, epoch: e0, epochSeconds: E, tag: 2, extra: 2 });
    await upload(store, A.agent, e0, logA0);
    await upload(store, B.agent, e0, logB0); // B's true log: its batch leaves a bid out of it
    await submitBatch(w.connection, { owner: A.owner, agent: A.agent, batch: batchOf(A.agent, e0, logA0) });
    // B leaves its first bid (the PROPOSE at log index 0) out of its batch: the root still covers the log.
    const cheat = batchOf(B.agent, e0, logB0, (b) => ({ ...b, bidValues: b.bidValues.slice(1) }));
    await submitBatch(w.connection, { owner: B.owner, agent: B.agent, batch: cheat });
    await indexer.idle();
    await indexer.stop(); // mid-run: the rest happens while no indexer runs
    indexer = null;

    await w.setEpoch(e0 + 1n);
    await payLease(w.connection, { payer: A.owner, agent: A.agent, config: w.config });
    const logA1 = epochLog({ agent: A.agent, seed: A.seed, epoch: e0 + 1n, epochSeconds: E, tag: 3 });
    // the uploaded log lacks an entry the batch covers: mismatch
    await upload(store, A.agent, e0 + 1n, logA1.slice(0, -1));
    await submitBatch(w.connection, { owner: A.owner, agent: A.agent, batch: batchOf(A.agent, e0 + 1n, logA1) });
    const ev = challengeEvidence({ log: logB0.map((x) => x.envelope), index: 0, batch: cheat });
    const sub = await submitChallenge(w.connection, {
      challenger: watcher,
      challengerUsdc: usdcAccountOf(w.usdcMint, watcher.publicKey),
      agent: B.agent,
      epoch: e0,
      leaf: ev.leaf,
    });
    assert.equal(sub.challenge.toBase58(), challengeAddress(B.agent, e0, watcher.publicKey).toBase58());
    const buffer = await stageBuffer(w.connection, { authority: watcher, bytes: ev.bytes });

    indexer = await start(); // restart: catches up from the stored cursors
    await w.setEpoch(e0 + 2n);
    await payLease(w.connection, { payer: A.owner, agent: A.agent, config: w.config });
    await submitBatch(w.connection, {
      owner: A.owner,
      agent: A.agent,
      batch: batchOf(
        A.agent,
        e0 + 2n,
        epochLog({ agent: A.agent, seed: A.seed, epoch: e0 + 2n, epochSeconds: E, tag: 4 }),
      ),
    });
    await w.setEpoch(e0 + 3n);
    await resolveChallenge(w.connection, {
      payer: watcher,
      challenge: sub.challenge,
      buffer,
      signer: B.owner.publicKey,
      preimage: ev.preimage,
      signature: ev.signature,
    });
    await w.setEpoch(e0 + 5n);
    await tickLease(w.connection, { payer: watcher, agent: B.agent });
    await tickLease(w.connection, { payer: watcher, agent: A.agent });
    await w.setEpoch(e0 + 7n);
    await tickLease(w.connection, { payer: watcher, agent: A.agent });
    await queueUnlock(w.connection, { owner: A.owner, agent: A.agent });
    w.chain.ledger.slot += 432_000;
    w.chain.tick();
    await claimStake(w.connection, { owner: A.owner, agent: A.agent, config: w.config });
    await indexer.idle();
    await indexer.catchUp();
    await indexer.idle();
    await indexer.stop();
    indexer = null;

    // Stakes and leases equal the program accounts.
    const agents = [A.agent, B.agent];
    const stakes = await store.listStakes();
    const leases = await store.listLeases();
    for (const a of agents) {
      const s = stakeLock.decodeStake((await w.connection.getAccountInfo(stakeLock.findStakePda(a)[0]))!.data)!;
      const row = stakes.find((r) => new PublicKey(r.agentId).equals(a))!;
      assert.deepEqual(
        [row.amount, row.status, new PublicKey(row.owner!).toBase58()],
        [s.amount, STAKE_STATUS_NAMES[s.status], s.owner.toBase58()],
      );
      const l = lease.decodeLease((await w.connection.getAccountInfo(lease.findLeasePda(a)[0]))!.data)!;
      const lr = leases.find((r) => new PublicKey(r.agentId).equals(a))!;
      assert.deepEqual([lr.paidThroughEpoch, lr.active], [l.paidThroughEpoch, l.status !== 2]);
      assert.equal(l.status, 2, 'both leases end deactivated');
    }
    assert.deepEqual(
      agents.map((a) => stakes.find((r) => new PublicKey(r.agentId).equals(a))!.status),
      ['claimed', 'slashed'],
    );

    // Batches equal the BatchAccounts; verification verdicts.
    const batches = await store.listBatches();
    assert.equal(batches.length, 4);
    for (const r of batches) {
      const acc = behaviorLog.decodeBatchAccount(
        (await w.connection.getAccountInfo(behaviorLog.findBatchPda(new PublicKey(r.agentId), r.epoch)[0]))!.data,
      )!;
      assert.deepEqual(
        [Buffer.from(r.batchHash).toString('hex'), Buffer.from(r.root).toString('hex'), r.slot],
        [Buffer.from(acc.batchHash).toString('hex'), Buffer.from(acc.logMerkleRoot).toString('hex'), acc.submittedSlot],
      );
    }
    const status = (a: PublicKey, e: bigint) =>
      batches.find((r) => new PublicKey(r.agentId).equals(a) && r.epoch === e)!.status;
    // A e0: its log; A e0+1: a log one entry short; A e0+2: no log; B e0: root of its true log but a bid left out.
    assert.deepEqual(
      [status(A.agent, e0), status(A.agent, e0 + 1n), status(A.agent, e0 + 2n), status(B.agent, e0)],
      ['verified', 'mismatch', 'unverified', 'mismatch'],
    );

    // The challenge row equals the Challenge account, with both transitions.
    const [c] = await store.listChallenges();
    const acc = challenge.decodeChallenge((await w.connection.getAccountInfo(sub.challenge))!.data)!;
    assert.deepEqual(
      [c.address, c.status, c.epoch, c.transitions.map((t) => t.status)],
      [sub.challenge.toBase58(), CHALLENGE_STATUS_NAMES[acc.status], acc.epoch, ['pending', 'upheld']],
    );
    assert.equal(c.status, 'upheld');

    // Every event on chain stored exactly once; live events published once each.
    const stored = (await store.chainEventKeys()).map((k) => `${k.signature}:${k.index}:${k.name}`).sort();
    assert.deepEqual(stored, await eventsOnChain(w.connection));
    const counts = await store.chainEventCounts();
    const pub = (t: string) => published.filter((e) => e.type === t).length;
    assert.deepEqual(
      [
        pub('lease_paid'),
        pub('stake_locked'),
        pub('batch_submitted'),
        pub('challenge_submitted'),
        pub('challenge_resolved'),
        pub('stake_slashed'),
        pub('agent_deactivated'),
      ],
      [
        counts.LeasePaid,
        counts.StakeLocked,
        counts.BatchSubmitted,
        counts.ChallengeSubmitted,
        counts.ChallengeResolved,
        counts.StakeSlashed,
        2,
      ],
    );
    assert.deepEqual(
      [counts.LeasePaid, counts.BatchSubmitted, counts.StakeSlashed, counts.UnlockQueued, counts.StakeClaimed],
      [4, 4, 1, 1, 1],
    );

    // REST shapes.
    const bj = await listBatchesJson(store, { agent: A.agent.toBytes() });
    assert.deepEqual(
      bj.map((b) => [b.epoch, b.status]),
      [
        [String(e0 + 2n), 'unverified'],
        [String(e0 + 1n), 'mismatch'],
        [String(e0), 'verified'],
      ],
    );
    const cj = await listChallengesJson(store, { agent: B.agent.toBytes() });
    assert.equal(cj[0].status, 'upheld');
    assert.equal(cj[0].agentAddress, B.agent.toBase58());
    const rep = await reputationJson(store, A.agent.toBytes(), { epochSeconds: E });
    assert.deepEqual(
      [rep.authoritative.totalTasks, rep.authoritative.reliabilityScore, rep.authoritative.cooperationIndex],
      ['1', '80000000', '100000000'],
    );
    assert.deepEqual(
      rep.batches.map((b) => b.folded),
      [true, false, false],
    );
  } finally {
    await indexer?.stop();
    await w.close();
  }
}

describe('chain indexer story', () => {
  testOnEachStore('rows equal the accounts; no event missing or duplicated across a restart', story, {
    dbPrefix: 'zx_chainidx',
    epochSeconds: 10,
  });
});

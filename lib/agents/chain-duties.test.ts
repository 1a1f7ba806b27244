// unreportedBid: the watcher's check of a published batch against its log (in the demo one agent
// under-reports a bid and a watcher agent challenges it).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildBatchFromLog } from '../protocol/batch-build';
import { publicKeyFromSeed } from '../protocol/crypto';
import { buildEnvelope } from '../protocol/envelope';
import { encodeNeg1 } from '../protocol/neg1';
import { MsgType } from '../protocol/types';
import { unreportedBid } from './chain-duties';

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

test('an honest batch reports every bid; the one left out is found by its log index', () => {
  const honest = buildBatchFromLog({ agentId: agent, epochNumber: 0n, slotStart: 0n, slotEnd: 0n, envelopes: log });
  assert.equal(honest.bidValues.length, 2);
  assert.equal(unreportedBid(log, honest, agent), -1);
  const cheat = { ...honest, bidValues: honest.bidValues.filter((b) => b.bidValue !== 600n) };
  assert.equal(unreportedBid(log, cheat, agent), 1);
  assert.equal(unreportedBid(log, cheat, peer), -1, 'only bids the agent sent count');
});

test('AgentLog: an epoch window holds each envelope once and drops older entries', async () => {
  const { AgentLog } = await import('./agent-log');
  const { keccak256 } = await import('../protocol/crypto');
  const { encodeEnvelope } = await import('../protocol/envelope');
  const l = new AgentLog();
  for (const e of log) {
    const bytes = encodeEnvelope(e);
    l.record({ id: keccak256(bytes), envelope: e, bytes });
  }
  const bytes0 = encodeEnvelope(log[0]);
  l.record({ id: keccak256(bytes0), envelope: log[0], bytes: bytes0 }); // seen twice (e.g. gossip and stream)
  assert.deepEqual(
    l.window(1_500n, 3_000n).map((x) => x.envelope.nonce),
    [2n],
  );
  assert.equal(l.size, 2, 'entries before the window are dropped');
  assert.deepEqual(
    l.window(0n, 10_000n).map((x) => x.envelope.nonce),
    [2n, 3n],
  );
});

test('the cheater under-reports again every few epochs, not only once', async () => {
  const { underReport } = await import('./chain-duties');
  const batch = (epoch: bigint) =>
    buildBatchFromLog({ agentId: agent, epochNumber: epoch, slotStart: 0n, slotEnd: 0n, envelopes: log });
  let last: bigint | null = null;
  const cheats: bigint[] = [];
  for (let e = 10n; e <= 17n; e++) {
    // Epoch 12 has no bid to leave out: the cheat moves to the next epoch that has one.
    const b = e === 12n ? { ...batch(e), bidValues: [] } : batch(e);
    const c = underReport(b, e, last, 2);
    if (!c) continue;
    assert.equal(c.bidValues.length, b.bidValues.length - 1, 'one bid left out');
    assert.ok(unreportedBid(log, c, agent) >= 0, 'the watcher finds the bid left out');
    cheats.push(e);
    last = e;
  }
  assert.deepEqual(cheats, [10n, 13n, 15n, 17n]);
  assert.equal(underReport(batch(20n), 20n, 19n, 2), null, 'not two epochs in a row');
});

test('the watcher challenges one published batch in three: the others stay open for other challengers', async () => {
  const { ChainDuties } = await import('./chain-duties');
  const reports: string[] = [];
  const key = '11111111111111111111111111111111';
  const duties = new ChainDuties(
    {
      rpcUrl: 'http://127.0.0.1:9',
      usdcMint: key,
      treasury: key,
      stakeVault: key,
      epochSeconds: 20,
      role: 'watcher',
      leaseMissRate: 0,
    },
    { seed, agentIdHex: Buffer.from(agent).toString('hex') },
    {
      log: () => [],
      flush: async () => undefined,
      uploadLog: async () => true,
      report: (m) => reports.push(m),
      publish: () => undefined,
      ownerOf: () => undefined,
      random: () => 1,
    },
  );
  // Undecodable batches: a challenged one goes no further than decoding (no chain needed here).
  for (let e = 1; e <= 5; e++)
    duties.onPublished({ agentIdHex: 'ab'.repeat(32), epoch: String(e), batchHex: '00', logHex: [] });
  await duties.stop();
  assert.deepEqual(
    reports.map((r) => /epoch (\d+)/.exec(r)?.[1]),
    ['2', '3', '5'],
  );
  assert.match(reports[0], /unchallenged .*open to other challengers through epoch 4/);
});

test('the lease is paid ahead: owed epochs', async () => {
  const { leaseEpochsOwed } = await import('./chain-duties');
  assert.equal(leaseEpochsOwed(null, 100n, 101n), 2, 'a new lease: the current epoch and the next');
  assert.equal(leaseEpochsOwed(100n, 101n, 102n), 2, 'at a boundary: catches up and pays ahead');
  assert.equal(leaseEpochsOwed(101n, 101n, 102n), 1);
  assert.equal(leaseEpochsOwed(102n, 101n, 102n), 0, 'already ahead: nothing');
  assert.equal(leaseEpochsOwed(0n, 5_000n, 5_001n), 1000, 'at most 1,000 in one payment');
});

/**
 * The full story on litesvm, end to end across the four programs: agent 1 registers its identity, locks stake,
 * pays leases, misses three epochs, is deactivated, queues its unlock, waits and claims; agent 2
 * commits a batch (built from its own signed log with lib/protocol) that omits a bid it signed,
 * is challenged, and is slashed, the challenger paid.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { behaviorLog as bl, challenge as ch, lease as ls, stakeLock as sl } from '../../lib/chain/programs';
import { bytesEqual } from '../../lib/protocol/hex';
import { getAccount, sendErr, sendOk, setEpoch, tokenBalance, warpSlots } from '../testing';
import { findAgentPda, findChallengePda } from './client';
import {
  agentLog,
  BATCH_EPOCH,
  batchOf,
  CHALLENGE_STAKE,
  EPOCH_SECONDS,
  encodeBatch,
  lockStake,
  newAgent,
  newChallenger,
  resolveFor,
  stageEvidence,
  submitBatch,
  submitChallengeIx,
  USDC,
  world,
} from './scenario';

test('story: lease lifecycle and claim for agent 1; omitted bid, challenge and slash for agent 2', () => {
  const w = world();
  const { svm } = w;
  const treasury0 = tokenBalance(svm, w.treasury);

  // ---- agent 1: identity, stake, leases ----
  const a1 = newAgent(w, 100n * USDC);
  lockStake(w, a1, 10n * USDC);
  const [lease1] = ls.findLeasePda(a1.agent);
  const pay = (epochs: number) =>
    sendOk(
      svm,
      [
        ls.payLeaseInstruction(
          { payer: a1.owner.publicKey, lease: lease1, agent: a1.agent, payerUsdc: a1.ownerUsdc, treasury: w.treasury },
          { epochs },
        ),
      ],
      [a1.owner],
    );
  pay(1);
  pay(2);
  const paid = ls.decodeLease(getAccount(svm, lease1)!.data)!;
  assert.equal(paid.paidThroughEpoch, BATCH_EPOCH + 2n);
  assert.equal(tokenBalance(svm, a1.ownerUsdc), 100n * USDC - 10n * USDC - 3n * USDC);
  const stake1 = sl.findStakePda(a1.agent)[0];
  const unlock = sl.queueUnlockInstruction({
    owner: a1.owner.publicKey,
    stake: stake1,
    identity: a1.tokenAccount,
    lease: lease1,
  });
  sendErr(svm, [unlock], [a1.owner], sl.ERRORS.StillLeased);

  // misses three epochs after its paid-through epoch: grace, then deactivated
  const ticker = newChallenger(w, 0n).kp; // anyone pays for the permissionless tick
  const statusAt = (epoch: bigint) => {
    setEpoch(svm, epoch, EPOCH_SECONDS);
    sendOk(svm, [ls.tickLeaseInstruction({ lease: lease1 })], [ticker]);
    return ls.decodeLease(getAccount(svm, lease1)!.data)!.status;
  };
  // epochs after paid_through: 1, 2, 3 missed → grace; 4 → more than GRACE_PERIOD_EPOCHS unpaid → deactivated
  const statuses = [1n, 2n, 3n, 4n].map((k) => statusAt(BATCH_EPOCH + 2n + k));
  assert.deepEqual(statuses, [1, 1, 1, 2]);

  // queue unlock, claim too early, wait, claim
  sendOk(svm, [unlock], [a1.owner]);
  const claim = sl.claimStakeInstruction({
    owner: a1.owner.publicKey,
    stake: stake1,
    identity: a1.tokenAccount,
    agentChallenges: findAgentPda(a1.agent)[0],
    vault: w.stakeVault,
    ownerUsdc: a1.ownerUsdc,
  });
  sendErr(svm, [claim], [a1.owner], sl.ERRORS.UnlockDelayNotElapsed);
  warpSlots(svm, 432_000n);
  sendOk(svm, [claim], [a1.owner]);
  assert.equal(tokenBalance(svm, a1.ownerUsdc), 100n * USDC - 3n * USDC);
  assert.equal(sl.decodeStake(getAccount(svm, stake1)!.data)!.status, 3);
  sendErr(svm, [claim], [a1.owner], sl.ERRORS.AlreadyClaimed);

  // ---- agent 2: a batch that omits a bid it signed ----
  setEpoch(svm, BATCH_EPOCH, EPOCH_SECONDS, 500n);
  const a2 = newAgent(w, 100n * USDC);
  lockStake(w, a2, 10n * USDC);
  const log = agentLog(a2.agent, a2.seed);
  const honest = batchOf(a2.agent, log);
  const proposeBid = honest.bidValues.findIndex(
    (b) => bytesEqual(b.conversationId, log.envelopes[log.at.propose].conversationId) && b.bidValue === 1_500_000n,
  );
  assert.ok(proposeBid >= 0, 'lib/protocol reports the PROPOSE bid');
  const lying = { ...honest, bidValues: honest.bidValues.filter((_, i) => i !== proposeBid) };
  const batchKey = submitBatch(w, a2, lying);
  const onChain = bl.decodeBatchAccount(getAccount(svm, batchKey)!.data)!;
  assert.deepEqual(onChain.logMerkleRoot, honest.logMerkleRoot);
  assert.equal(onChain.bidCount, honest.bidValues.length - 1);

  const c = newChallenger(w, 30n * USDC);
  sendOk(svm, [submitChallengeIx(c, batchKey, a2.agent, log.leaves[log.at.propose])], [c.kp]);
  assert.equal(tokenBalance(svm, c.usdc), 30n * USDC - CHALLENGE_STAKE);
  const buffer = stageEvidence(w, c.kp, log, log.at.propose, encodeBatch(lying));
  setEpoch(svm, BATCH_EPOCH + 3n, EPOCH_SECONDS);
  const treasuryBefore = tokenBalance(svm, w.treasury);
  sendOk(svm, resolveFor(w, a2, c, batchKey, buffer, log, log.at.propose, 300_000), [c.kp]);

  const reward = (10n * USDC * 5_000n) / 10_000n;
  assert.equal(tokenBalance(svm, c.usdc), 30n * USDC + reward, 'challenger: stake back + 50% of the slash');
  assert.equal(tokenBalance(svm, w.treasury), treasuryBefore + 10n * USDC - reward);
  const s2 = sl.decodeStake(getAccount(svm, sl.findStakePda(a2.agent)[0])!.data)!;
  assert.equal(s2.status, 4);
  assert.equal(tokenBalance(svm, w.stakeVault), 0n);
  const chal = ch.decodeChallenge(getAccount(svm, findChallengePda(batchKey, c.kp.publicKey)[0])!.data)!;
  assert.deepEqual([chal.status, chal.reason], [1, 1]);
  const counters = ch.decodeAgentChallenges(getAccount(svm, findAgentPda(a2.agent)[0])!.data)!;
  assert.deepEqual([counters.pending, counters.total, counters.upheld], [0, 1, 1]);
  // the treasury got agent 1's three leases and half of agent 2's stake
  assert.equal(tokenBalance(svm, w.treasury), treasury0 + 3n * USDC + 10n * USDC - reward);
});

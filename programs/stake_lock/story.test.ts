/**
 * The stake and lease half of the story: register an identity, lock stake, pay leases, miss
 * three epochs, get deactivated, queue unlock, wait, claim, with the indexer's view of the events.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseEvents } from '../../lib/chain/events';
import { agentAddresses, LEASE_STATUS, lease, STAKE_STATUS, stakeLock } from '../../lib/chain/programs';
import { accountData, sendOk, setEpoch, tokenBalance, warpSlots } from '../testing';
import { claimIx, EPOCH_SECONDS, lockIx, newAgent, payLeaseIx, queueIx, setupStake, USDC } from './stake-env';

test('agent lifecycle: lock, lease, lapse, deactivation, unlock, claim', () => {
  const env = setupStake();
  const a = newAgent(env, 30n * USDC);
  const addr = agentAddresses(a.agent);
  const names: string[] = [];
  const run = (ix: Parameters<typeof sendOk>[1], epoch?: bigint) => {
    if (epoch !== undefined) setEpoch(env.svm, epoch, EPOCH_SECONDS, 60n);
    names.push(...parseEvents(sendOk(env.svm, ix, [a.owner]).logs).map((e) => `${e.program}.${e.event.name}`));
  };
  run([lockIx(env, a, 10n * USDC)], 100n);
  run([payLeaseIx(env, a, 1)]);
  run([payLeaseIx(env, a, 1)], 101n); // paid through 101
  run([payLeaseIx(env, a, 1)], 102n); // paid through 102
  for (const epoch of [103n, 104n, 105n]) {
    run([lease.tickLeaseInstruction({ lease: addr.lease })], epoch);
    assert.equal(lease.decodeLease(accountData(env.svm, addr.lease))!.status, LEASE_STATUS.grace);
  }
  run([lease.tickLeaseInstruction({ lease: addr.lease })], 106n); // three epochs missed
  assert.equal(lease.decodeLease(accountData(env.svm, addr.lease))!.status, LEASE_STATUS.deactivated);
  run([queueIx(a)]);
  warpSlots(env.svm, 432_000n);
  run([claimIx(env, a)]);
  const s = stakeLock.decodeStake(accountData(env.svm, addr.stake))!;
  assert.deepEqual([s.status, s.amount], [STAKE_STATUS.claimed, 0n]);
  assert.equal(tokenBalance(env.svm, a.usdc), 27n * USDC);
  assert.equal(tokenBalance(env.svm, env.treasury), 3n * USDC);
  assert.equal(tokenBalance(env.svm, env.vault), 0n);
  assert.deepEqual(names, [
    'stakeLock.StakeLocked',
    'lease.LeasePaid',
    'lease.LeasePaid',
    'lease.LeasePaid',
    'lease.LeaseTicked',
    'lease.LeaseTicked',
    'lease.LeaseTicked',
    'lease.LeaseTicked',
    'stakeLock.UnlockQueued',
    'stakeLock.StakeClaimed',
  ]);
});

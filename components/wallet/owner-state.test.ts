// What an owner may do now and why not (owner-state.ts), and failures in words (explain.ts):
// the reasons the My agents page shows next to disabled buttons and under failed actions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UNLOCK_DELAY_SLOTS } from '../../lib/protocol/constants';
import { challengeWindow, leaseSummary, ownerActions, type AgentNow } from './owner-state';
import { explainTransactionError, isRejection } from './explain';
import { parseUsdc, usdc } from './format';

const base: AgentNow = { stake: null, lease: null, epoch: 100n, slot: 1000n };

test('unlock needs a deactivated lease; the reason names the paid-through epoch', () => {
  const locked = { amount: 10_000_000n, status: 1, unlockRequestedSlot: 0n };
  assert.deepEqual(ownerActions({ ...base, stake: locked }).queueUnlock, { ok: false, reason: 'unlock needs the lease deactivated: no lease yet (pay one epoch, then let it lapse)' });
  const paid = ownerActions({ ...base, stake: locked, lease: { paidThroughEpoch: 101n, status: 0 } });
  assert.deepEqual(paid.queueUnlock, { ok: false, reason: 'unlock needs the lease deactivated: paid through epoch 101 (a tick from epoch 105 deactivates it)' });
  assert.deepEqual(ownerActions({ ...base, stake: locked, lease: { paidThroughEpoch: 95n, status: 2 } }).queueUnlock, { ok: true });
  assert.deepEqual(ownerActions(base).queueUnlock, { ok: false, reason: 'no stake locked' });
});

test('claim waits for the unlock delay; lock is refused while a stake exists', () => {
  const unlocking = { amount: 10_000_000n, status: 2, unlockRequestedSlot: 500n };
  const early = ownerActions({ ...base, stake: unlocking, slot: 600n });
  assert.deepEqual(early.claimStake, { ok: false, reason: `unlock delay: claimable from slot ${500n + UNLOCK_DELAY_SLOTS} (now 600)` });
  assert.deepEqual(ownerActions({ ...base, stake: unlocking, slot: 500n + UNLOCK_DELAY_SLOTS }).claimStake, { ok: true });
  assert.deepEqual(early.lockStake, { ok: false, reason: 'stake already unlocking' });
  assert.deepEqual(ownerActions(base).lockStake, { ok: true });
  assert.deepEqual(ownerActions(base).tickLease, { ok: false, reason: 'no lease yet: pay the first epoch' });
});

test('lease summary: next due epoch, grace and deactivation', () => {
  assert.equal(leaseSummary({ ...base, lease: { paidThroughEpoch: 102n, status: 0 } }), 'active, paid through epoch 102, next due epoch 103');
  assert.equal(leaseSummary({ ...base, lease: { paidThroughEpoch: 98n, status: 1 } }), 'grace, paid through epoch 98, next due epoch 99, unpaid since epoch 99: deactivated at the first tick from epoch 102');
  assert.match(leaseSummary({ ...base, lease: { paidThroughEpoch: 90n, status: 2 } }), /^deactivated \(paid through epoch 90\)/);
});

test('challenge window: open through e + 2, resolvable from e + 3, expirable from e + 5', () => {
  assert.equal(challengeWindow(10n, 12n).phase, 'open');
  assert.equal(challengeWindow(10n, 13n).phase, 'resolvable');
  assert.equal(challengeWindow(10n, 15n).phase, 'expirable');
  assert.equal(challengeWindow(10n, 12n).resolveFrom, 13n);
});

test('failures in words: program errors by name, token shortfall, rejection', () => {
  const x = explainTransactionError({ InstructionError: [0, { Custom: 8200 }] }, []);
  assert.equal(x.name, 'InsufficientUsdc');
  assert.match(x.sentence, /does not hold enough USDC.*program error InsufficientUsdc, code 8200/);
  assert.equal(explainTransactionError(null, ['Program log: Error: insufficient funds', 'custom program error: 0x1']).name, 'InsufficientFunds');
  assert.equal(explainTransactionError({ InstructionError: [0, { Custom: 16395 }] }).name, 'WindowClosed');
  assert.equal(isRejection(new Error('User rejected the request.')), true);
  assert.equal(isRejection(new Error('blockhash not found')), false);
});

test('amounts', () => {
  assert.equal(usdc(12_345_678n), '12.34');
  assert.equal(parseUsdc('12.5'), 12_500_000n);
  assert.equal(parseUsdc('0'), null);
  assert.equal(parseUsdc('1.1234567'), null);
});

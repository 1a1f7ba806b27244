// What an owner may do now and why not (owner-state.ts), and failures in words (explain.ts):
// the reasons the My agents page shows next to disabled buttons and under failed actions.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UNLOCK_DELAY_SLOTS } from '../../lib/protocol/constants';
import { explainTransactionError, isRejection } from './explain';
import { parseUsdc, sol, usdc } from './format';
import { type AgentNow, challengeWindow, leaseSummary, ownerActions } from './owner-state';

const base: AgentNow = { stake: null, lease: null, epoch: 100n, slot: 1000n };

test('unlock needs a deactivated lease; the reason names the paid-through epoch', () => {
  const locked = { amount: 10_000_000n, status: 1, unlockRequestedSlot: 0n };
  assert.deepEqual(ownerActions({ ...base, stake: locked }).queueUnlock, {
    ok: false,
    reason: 'unlock needs the lease deactivated: no lease yet (pay one epoch, then let it lapse)',
  });
  const paid = ownerActions({ ...base, stake: locked, lease: { paidThroughEpoch: 101n, status: 0 } });
  assert.deepEqual(paid.queueUnlock, {
    ok: false,
    reason: 'unlock needs the lease deactivated: paid through epoch 101 (a tick from epoch 105 deactivates it)',
  });
  assert.deepEqual(ownerActions({ ...base, stake: locked, lease: { paidThroughEpoch: 95n, status: 2 } }).queueUnlock, {
    ok: true,
  });
  assert.deepEqual(ownerActions(base).queueUnlock, { ok: false, reason: 'no stake locked' });
});

test('claim waits for the unlock delay; lock is refused while a stake exists', () => {
  const unlocking = { amount: 10_000_000n, status: 2, unlockRequestedSlot: 500n };
  const early = ownerActions({ ...base, stake: unlocking, slot: 600n });
  assert.deepEqual(early.claimStake, {
    ok: false,
    reason: `unlock delay: claimable from slot ${500n + UNLOCK_DELAY_SLOTS} (now 600)`,
  });
  assert.deepEqual(ownerActions({ ...base, stake: unlocking, slot: 500n + UNLOCK_DELAY_SLOTS }).claimStake, {
    ok: true,
  });
  // Locked: the unlock comes first; claimed or slashed: nothing is left to claim.
  assert.deepEqual(ownerActions({ ...base, stake: { ...unlocking, status: 1 } }).claimStake, {
    ok: false,
    reason: 'stake is locked: queue the unlock first',
  });
  assert.deepEqual(ownerActions({ ...base, stake: { ...unlocking, amount: 0n, status: 3 } }).claimStake, {
    ok: false,
    reason: 'stake is claimed: nothing left to claim',
  });
  assert.deepEqual(ownerActions({ ...base, stake: { ...unlocking, amount: 0n, status: 4 } }).claimStake, {
    ok: false,
    reason: 'stake is slashed: nothing left to claim',
  });
  assert.deepEqual(early.lockStake, { ok: false, reason: 'stake already unlocking' });
  assert.deepEqual(ownerActions(base).lockStake, { ok: true });
  assert.deepEqual(ownerActions(base).tickLease, { ok: false, reason: 'no lease yet: pay the first epoch' });
});

test('lease summary: next due epoch, grace and deactivation', () => {
  assert.equal(
    leaseSummary({ ...base, lease: { paidThroughEpoch: 102n, status: 0 } }),
    'active, paid through epoch 102, next due epoch 103',
  );
  assert.equal(
    leaseSummary({ ...base, lease: { paidThroughEpoch: 98n, status: 1 } }),
    'grace, paid through epoch 98, next due epoch 99, unpaid ' +
      'since epoch 99: deactivated at the first tick from epoch 102',
  );
  assert.match(
    leaseSummary({ ...base, lease: { paidThroughEpoch: 90n, status: 2 } }),
    /^deactivated \(paid through epoch 90\)/,
  );
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
  assert.equal(
    explainTransactionError(null, ['Program log: Error: insufficient funds', 'custom program error: 0x1']).name,
    'InsufficientFunds',
  );
  assert.equal(explainTransactionError({ InstructionError: [0, { Custom: 16395 }] }).name, 'WindowClosed');
  assert.equal(isRejection(new Error('User rejected the request.')), true);
  assert.equal(isRejection(new Error('blockhash not found')), false);
});

test('amounts: exact, with the two places a balance is read with (never cut)', () => {
  assert.equal(usdc(12_345_678n), '12.345678');
  assert.equal(usdc(100_000_000n), '100.00');
  assert.equal(usdc('1000'), '0.001');
  assert.equal(sol(2_039_280n), '0.00203928');
  assert.equal(sol(1_000_000_000n), '1.000');
  assert.equal(parseUsdc('12.5'), 12_500_000n);
  assert.equal(parseUsdc('0'), null);
  assert.equal(parseUsdc('1.1234567'), null);
});

test('failures in words for every program of a transaction: System, SPL Token, the runtime', () => {
  const sys = explainTransactionError({ InstructionError: [0, { Custom: 1 }] }, [
    'Program Stak1 invoke [1]',
    'Program 11111111111111111111111111111111 invoke [2]',
    'Transfer: insufficient lamports 900000, need 1614720',
    'Program 11111111111111111111111111111111 failed: custom program error: 0x1',
    'Program Stak1 failed: custom program error: 0x1',
  ]);
  assert.equal(sys.name, 'InsufficientLamports');
  assert.match(sys.sentence, /too little SOL.*System program error InsufficientLamports, code 1/);
  const tok = explainTransactionError({ InstructionError: [1, { Custom: 1 }] }, [
    'Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA failed: custom program error: 0x1',
  ]);
  assert.match(tok.sentence, /fewer tokens.*SPL Token program error InsufficientFunds/);
  assert.equal(explainTransactionError('InsufficientFundsForFee').name, 'InsufficientFundsForFee');
  assert.match(
    explainTransactionError({ InsufficientFundsForRent: { account_index: 0 } }).sentence,
    /rent-exempt minimum/,
  );
  // A Zerox1 program's own code is still named when no System/Token program failed underneath.
  assert.equal(
    explainTransactionError({ InstructionError: [0, { Custom: 8200 }] }, [
      'Program Stak1 failed: custom program error: 0x2008',
    ]).name,
    'InsufficientUsdc',
  );
});

test('lease health in clock time: ok, due soon, grace, lapsed; the reactivation amount', async () => {
  const { leaseHealth } = await import('./owner-state');
  const S = 600n;
  const h = (epoch: bigint, status = 0, into = 10) =>
    leaseHealth({ ...base, epoch, lease: { paidThroughEpoch: 100n, status } }, S, Number(epoch * S) + into);
  assert.equal(h(99n).state, 'ok');
  assert.equal(h(100n).state, 'due-soon');
  assert.equal(h(100n).dueAt, 101 * 600);
  assert.equal(h(100n).deactivatesAt, 104 * 600);
  // Reactivation pays the back-lease, the current epoch and one whole epoch after it (paid through 103).
  assert.deepEqual([h(102n).state, h(102n).backEpochs, h(102n).reactivateEpochs], ['grace', 2n, 3n]);
  // The stored status may still read active: past grace the lease is lapsed all the same.
  assert.deepEqual([h(105n).state, h(105n).backEpochs, h(105n).reactivateEpochs], ['lapsed', 5n, 6n]);
  assert.deepEqual(
    [h(105n, 2, 580).reactivateEpochs],
    [7n],
    'the epoch ends within the margin: the payment may land in the next, so one more',
  );
  assert.equal(h(100n).reactivateEpochs, 0n, 'nothing to reactivate while paid');
  assert.equal(leaseHealth({ ...base, lease: null }, S, 0).state, 'none');
});

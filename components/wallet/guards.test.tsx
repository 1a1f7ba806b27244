// The owner's guards before the wallet (guards.ts): the lease epochs the form proposes and
// refuses around epoch boundaries, the stake minimum and the wallet's USDC with the amounts held
// and needed, a challenge's expected outcome from the target's real stake, and the program logs
// of a failure closed behind "details".

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { CHALLENGE_REWARD_BPS, CHALLENGE_STAKE, LEASE_COST_PER_EPOCH, MIN_STAKE } from '../../lib/protocol/constants';
import {
  challengeOutcome,
  checkLeaseForm,
  checkStakeAmount,
  checkUsdcHeld,
  defaultLeaseEpochs,
  landingMarginSec,
  leasePlan,
  minLeaseEpochs,
} from './guards';
import { ProgramLogs } from './ProgramLogs';

const S = 600n;
const U = 1_000_000n;
const at = (epoch: number, into: number) => epoch * 600 + into;

test(
  'a first lease: the proposal buys the current epoch and ' + 'one whole epoch after it, even 6 s before the boundary',
  () => {
    const now = at(100, 594);
    assert.equal(defaultLeaseEpochs(null, S, now), 2n);
    const p = leasePlan(null, S, now, 2n);
    assert.deepEqual(
      [p.paidThrough, p.untilSec, p.wholeFutureEpochs, p.cost],
      [101n, 102 * 600, 1n, 2n * LEASE_COST_PER_EPOCH],
    );
    assert.ok(p.untilSec - now > 600, 'more than a whole epoch of paid time from now');
    // One epoch would end 6 s from now: refused, naming the end and the fewest epochs that do not.
    const one = checkLeaseForm('1', null, S, now, 100n * U);
    assert.equal(one.ok, false);
    assert.match(
      !one.ok ? one.reason : '',
      new RegExp(
        String.raw`^1 epoch would pay through epoch 100, ending \d{4}-\d\d-\d\d ` +
          String.raw`\d\d:\d\d:\d\d \S+ \(in 6 s\): only time that ends within 60 s, before ` +
          String.raw`the payment can land\. Pay at least 2 epochs\.$`,
      ),
    );
    // Early in the epoch one epoch is allowed, with a note that no whole epoch follows.
    const early = checkLeaseForm('1', null, S, at(100, 5), 100n * U);
    assert.equal(early.ok, true);
    assert.match(
      early.ok ? (early.note ?? '') : '',
      /buys no whole epoch after the current one: the lease is due again .*\(in 9 min\)/,
    );
    // The margin is the boundary: ending exactly `margin` seconds from now is refused, one second more is not.
    assert.equal(landingMarginSec(S), 60);
    assert.equal(checkLeaseForm('1', null, S, at(100, 540), null).ok, false);
    assert.equal(checkLeaseForm('1', null, S, at(100, 539), null).ok, true);
    assert.equal(minLeaseEpochs(null, S, at(100, 540)), 2n);
    assert.equal(minLeaseEpochs(null, S, at(100, 539)), 1n);
  },
);

test(
  'a lapsed lease: the proposal pays every unpaid epoch, the ' +
    'current one and one after; one epoch would buy time already past',
  () => {
    const now = at(100, 300);
    assert.equal(defaultLeaseEpochs(95n, S, now), 6n);
    const p = leasePlan(95n, S, now, 6n);
    assert.deepEqual([p.paidThrough, p.untilSec, p.wholeFutureEpochs], [101n, 102 * 600, 1n]);
    const one = checkLeaseForm('1', 95n, S, now, 100n * U);
    assert.equal(one.ok, false);
    assert.match(
      !one.ok ? one.reason : '',
      new RegExp(
        String.raw`^1 epoch would pay through epoch 96, ending .* \(35 min ago\): ` +
          String.raw`only time already past\. Pay at least 5 epochs\.$`,
      ),
    );
    assert.equal(one.plan?.paidThrough, 96n);
    // Five reach the current epoch: allowed, with the note.
    const five = checkLeaseForm('5', 95n, S, now, 100n * U);
    assert.equal(five.ok, true);
    assert.ok(five.ok && five.note);
    // Within the margin of the boundary the payment may land in the next epoch: one more.
    assert.equal(defaultLeaseEpochs(95n, S, at(100, 550)), 7n);
    assert.equal(minLeaseEpochs(95n, S, at(100, 550)), 6n);
    // Paid well ahead: one epoch extends it.
    assert.equal(defaultLeaseEpochs(110n, S, now), 1n);
    assert.equal(leasePlan(110n, S, now, 1n).paidThrough, 111n);
  },
);

test('short epochs: the margin is at most half an epoch, so a 12 s epoch is not skipped whole', () => {
  assert.equal(landingMarginSec(12n), 6);
  assert.equal(defaultLeaseEpochs(null, 12n, 1200 + 3), 2n);
  assert.equal(defaultLeaseEpochs(99n, 12n, 1200 + 3), 2n, 'epoch 100, 9 s left: through 101');
  assert.equal(defaultLeaseEpochs(99n, 12n, 1200 + 7), 3n, 'epoch 100, 5 s left: it may land in 101, so through 102');
});

test(
  'any clock, any lease: the proposal is accepted and its paid time ends ' +
    'more than a whole epoch from now; fewer than the minimum are refused',
  () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 100_000 }),
        fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
        fc.option(fc.integer({ min: -50, max: 50 }), { nil: null }),
        (sec, now, rel) => {
          const E = BigInt(sec);
          const current = BigInt(now) / E;
          const paid = rel === null ? null : current + BigInt(rel);
          const k = defaultLeaseEpochs(paid, E, now);
          const g = checkLeaseForm(k.toString(), paid, E, now, null);
          if (k > 1000n) return !g.ok; // a back-lease beyond one payment's limit
          const plan = leasePlan(paid, E, now, k);
          assert.ok(g.ok, `proposal refused: ${!g.ok ? g.reason : ''}`);
          assert.ok(plan.untilSec > now + sec, `until ${plan.untilSec} not a whole epoch past ${now}`);
          assert.ok(plan.wholeFutureEpochs >= 1n);
          const min = minLeaseEpochs(paid, E, now);
          assert.ok(min <= k);
          if (min > 1n) assert.equal(checkLeaseForm((min - 1n).toString(), paid, E, now, null).ok, false);
          return true;
        },
      ),
      { numRuns: 500 },
    );
  },
);

test('lease form: whole epochs 1..1000, and the USDC for them', () => {
  for (const t of ['0', '1.5', '', 'x', '1001'])
    assert.match((checkLeaseForm(t, null, S, at(100, 5), null) as { reason: string }).reason, /whole number 1\.\.1000/);
  const poor = checkLeaseForm('3', 110n, S, at(100, 5), 2_500_000n);
  assert.deepEqual(poor.ok ? null : [poor.reason, poor.held, poor.need], [
    'this wallet holds 2.50 USDC; 3.00 USDC needed for 3 epochs of lease (0.50 more)',
    2_500_000n,
    3_000_000n,
  ]);
});

test("stake form: the minimum is the program's, and the wallet must hold the amount; both named exactly", () => {
  // The minimum the form applies is the one stake_lock is compiled with.
  const h = readFileSync(new URL('../../programs/include/gen/constants.h', import.meta.url), 'utf8');
  assert.equal(BigInt(/#define ZX_MIN_STAKE (\d+)ULL/.exec(h)![1]), MIN_STAKE);
  const low = checkStakeAmount(1n * U, 89n * U);
  assert.deepEqual(low.ok ? null : [low.reason, low.held, low.need], [
    'below the minimum stake: 1.00 USDC entered; stake_lock takes at least 10.00 USDC (this wallet holds 89.00 USDC)',
    89n * U,
    MIN_STAKE,
  ]);
  const lowPoor = checkStakeAmount(1n * U, 4_000_001n);
  assert.match(lowPoor.ok ? '' : lowPoor.reason, /\(this wallet holds 4\.000001 USDC: 5\.999999 more needed\)$/);
  const big = checkStakeAmount(1000n * U, 89n * U);
  assert.deepEqual(big.ok ? null : [big.reason, big.held, big.need], [
    'this wallet holds 89.00 USDC; 1,000.00 USDC needed for this stake (911.00 more)',
    89n * U,
    1000n * U,
  ]);
  assert.deepEqual(checkStakeAmount(MIN_STAKE - 1n, null).ok, false);
  assert.deepEqual(checkStakeAmount(MIN_STAKE, MIN_STAKE), { ok: true });
  assert.deepEqual(checkStakeAmount(MIN_STAKE + 1n, MIN_STAKE).ok, false, 'one base unit more than held');
  assert.deepEqual(checkStakeAmount(null, 0n), { ok: false, reason: 'enter a USDC amount (up to 6 decimals)' });
  // An unread balance lets the simulation decide.
  assert.deepEqual(checkUsdcHeld(10n, null, 'x'), { ok: true });
});

test(
  "challenge outcome from the target's real stake: none, locked, " +
    'odd amounts rounded as the program does, unknown, rejected',
  () => {
    const none = challengeOutcome(true, null);
    assert.deepEqual([none.slashable, none.reward, none.gets, none.expected], [0n, 0n, CHALLENGE_STAKE, 'upheld']);
    assert.match(
      none.stakeText,
      /^The agent's stake: 0\.00 USDC \(it never locked one\): an upheld challenge slashes nothing\.$/,
    );
    assert.match(none.outcomeText, /you get 10\.00 USDC, your challenge stake back and nothing more/);
    const locked = challengeOutcome(true, { amount: 25n * U, status: 1 });
    assert.deepEqual([locked.slashable, locked.reward, locked.gets], [25n * U, 12_500_000n, 22_500_000n]);
    assert.match(locked.stakeText, /25\.00 USDC \(locked\); upheld, 50% of it \(12\.50 USDC\)/);
    assert.match(locked.outcomeText, /you get 22\.50 USDC = your 10\.00 USDC back \+ 12\.50 USDC of the agent's stake/);
    // resolve.c: reward = amount × CHALLENGE_REWARD_BPS / 10,000, rounded down.
    const odd = challengeOutcome(true, { amount: 10_000_001n, status: 2 });
    assert.equal(odd.reward, (10_000_001n * CHALLENGE_REWARD_BPS) / 10_000n);
    assert.equal(odd.reward, 5_000_000n);
    for (const status of [3, 4])
      assert.equal(
        challengeOutcome(true, { amount: 5n * U, status }).slashable,
        0n,
        'claimed or slashed: nothing to slash',
      );
    const unknown = challengeOutcome(true, { error: 'fetch failed' });
    assert.deepEqual([unknown.slashable, unknown.gets], [null, null]);
    assert.match(unknown.stakeText, /unknown \(its Stake account could not be read: fetch failed\)/);
    assert.match(unknown.outcomeText, /what you get is unknown/);
    const rejected = challengeOutcome(false, { amount: 25n * U, status: 1 });
    assert.deepEqual([rejected.gets, rejected.expected], [0n, 'rejected']);
    assert.match(rejected.outcomeText, /you get 0\.00 USDC; your 10\.00 USDC goes to the treasury/);
  },
);

test('a failure\'s program logs are closed behind "details"', () => {
  const html = renderToStaticMarkup(
    <ProgramLogs logs={['Program Stak1 invoke [1]', 'Program Stak1 failed: custom program error: 0x2008']} />,
  );
  assert.match(
    html,
    new RegExp(
      '^<details class="action-details" ' +
        String.raw`data-testid="action-details"><summary[^>]*>details: program logs \(2 ` +
        String.raw`lines\)<\/summary>`,
    ),
  );
  assert.doesNotMatch(html, /<details[^>]* open/);
});

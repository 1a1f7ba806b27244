// The economy series from events and accounts: stake events go to the epoch of their block time
// (not to the last lease's), amounts are exact bigints and follow the program (a lock sets the
// amount, a slash or a claim takes all of it), a window that starts late starts on the right
// amount, and the last point is the indexed accounts.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EconomyViewSchema } from '../wire/history';
import { type EconomyAccounts, type EconomyEvent, economySeries, unknownEconomy } from './economy';

const E = 10n;
const AG = '11111111111111111111111111111111';
const at = (epoch: number, s = 1) => new Date((epoch * 10 + s) * 1000);
const ev = (name: string, data: Record<string, unknown>, blockTime: Date | null = null, slot = 1n): EconomyEvent => ({
  name,
  data,
  blockTime,
  slot,
});
const acc = (stake: [bigint, string] | null, lease: [bigint, boolean] | null): EconomyAccounts => ({
  stake: stake ? { amount: stake[0], status: stake[1], slot: 9n } : null,
  lease: lease ? { paidThroughEpoch: lease[0], active: lease[1], slot: 9n } : null,
});
const rows = (v: ReturnType<typeof economySeries>) =>
  v.points.map((p) => [p.epoch, p.stake, p.stakeStatus, p.paidThroughEpoch, p.events.join('+')]);

test('stake events go to their own epoch; a slash takes the whole stake, never below 0', () => {
  const v = economySeries({
    agent: AG,
    epochSeconds: E,
    currentEpoch: 12n,
    accounts: acc([0n, 'slashed'], [8n, false]),
    events: [
      ev('LeasePaid', { epoch: '7', paidThroughEpoch: '7', status: 0 }),
      ev('StakeLocked', { amount: '10000000' }, at(7)),
      ev('LeasePaid', { epoch: '8', paidThroughEpoch: '8', status: 0 }),
      // No lease in epoch 10: lease order would have put the slash in epoch 8.
      ev('StakeSlashed', { amount: '10000000' }, at(10)),
      ev('LeaseTicked', { epoch: '12', paidThroughEpoch: '8', prevStatus: 1, status: 2 }),
    ],
  });
  EconomyViewSchema.parse(v);
  assert.deepEqual(rows(v), [
    [7, '10000000', 'locked', 7, 'lease paid+stake locked'],
    [8, '10000000', 'locked', 8, 'lease paid'],
    [10, '0', 'slashed', 8, 'slashed'],
    [12, '0', 'slashed', 8, 'deactivated'],
  ]);
  assert.equal(v.historyNote, null);
});

test('a window that starts after the lock starts on the amount its first stake event names', () => {
  const v = economySeries({
    agent: AG,
    epochSeconds: E,
    currentEpoch: 5n,
    accounts: acc([0n, 'slashed'], [4n, true]),
    events: [
      ev('LeasePaid', { epoch: '3', paidThroughEpoch: '4', status: 0 }),
      ev('StakeSlashed', { amount: '10000000' }, at(4)),
    ],
  });
  assert.deepEqual(rows(v), [
    [3, '10000000', 'locked', 4, 'lease paid'],
    [4, '0', 'slashed', 4, 'slashed'],
    [5, '0', 'slashed', 4, ''],
  ]);
});

test('no stake event: the stake account holds throughout; a relock sets the amount', () => {
  const quiet = economySeries({
    agent: AG,
    epochSeconds: E,
    currentEpoch: 9n,
    accounts: acc([10_000_000n, 'locked'], [9n, true]),
    events: [ev('LeasePaid', { epoch: '9', paidThroughEpoch: '9', status: 0 })],
  });
  assert.deepEqual(rows(quiet), [[9, '10000000', 'locked', 9, 'lease paid']]);
  const relock = economySeries({
    agent: AG,
    epochSeconds: E,
    currentEpoch: 3n,
    accounts: acc([5n, 'locked'], null),
    events: [
      ev('StakeLocked', { amount: '10' }, at(1)),
      ev('StakeSlashed', { amount: '10' }, at(2)),
      ev('StakeLocked', { amount: '5' }, at(3)),
    ],
  });
  assert.deepEqual(
    rows(relock).map((r) => r[1]),
    ['10', '0', '5'],
  );
  // u64 amounts beyond 2^53 stay exact.
  const big = economySeries({
    agent: AG,
    epochSeconds: E,
    currentEpoch: 1n,
    accounts: acc([18446744073709551615n, 'locked'], null),
    events: [ev('StakeLocked', { amount: '18446744073709551615' }, at(1))],
  });
  assert.equal(big.points.at(-1)!.stake, '18446744073709551615');
});

test('events that do not lead to the accounts: the last point is the accounts, and the note says so', () => {
  const v = economySeries({
    agent: AG,
    epochSeconds: E,
    currentEpoch: 6n,
    accounts: acc([7n, 'locked'], null),
    events: [ev('StakeLocked', { amount: '10' }, at(5))],
  });
  assert.deepEqual(
    rows(v).map((r) => r[1]),
    ['10', '7'],
  );
  assert.match(v.historyNote ?? '', /stake account holds 7/);
});

test('no chain: unknown with a reason', () => {
  const v = unknownEconomy('11111111111111111111111111111111', 'no chain');
  EconomyViewSchema.parse(v);
  assert.deepEqual([v.known, v.reason, v.points.length], [false, 'no chain', 0]);
});

// Stake and lease per epoch from an agent's chain events in chain order: the stake lock before
// the first lease lands in that lease's epoch, a slash lowers the stake in the epoch it happens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EconomyPointSchema } from '../../lib/wire';
import { economyPoints } from './economy-history';

test('stake and lease per epoch', () => {
  const pts = economyPoints([
    { name: 'StakeLocked', data: { amount: '10000000' } },
    { name: 'LeasePaid', data: { epoch: '7', paidThroughEpoch: '7' } },
    { name: 'LeasePaid', data: { epoch: '8', paidThroughEpoch: '8' } },
    { name: 'StakeSlashed', data: { amount: '4000000' } },
    { name: 'LeaseTicked', data: { epoch: '12', paidThroughEpoch: '8', status: 2 } },
  ]);
  for (const p of pts) EconomyPointSchema.parse(p);
  assert.deepEqual(pts.map((p) => [p.epoch, p.stake, p.paidThroughEpoch, p.events.join('+')]), [
    [7, 10_000_000, 7, 'stake locked+lease paid'],
    [8, 6_000_000, 8, 'lease paid+slashed'],
    [12, 6_000_000, 8, 'deactivated'],
  ]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyChainEvent, emptyChainOverview } from './chain-state';

test('chain events update the overview chain section', () => {
  let c = emptyChainOverview();
  c = applyChainEvent(c, { type: 'batch_submitted', at: 1, data: { agentHex: 'aa', status: 'verified' } });
  c = applyChainEvent(c, { type: 'batch_submitted', at: 2, data: { agentHex: 'bb', status: 'unverified' } });
  c = applyChainEvent(c, { type: 'challenge_submitted', at: 3, data: { agentHex: 'bb', challenge: 'C1', epoch: '7' } });
  assert.deepEqual(c.lastChallenge, { address: 'C1', agent: 'bb', epoch: '7', status: 'pending' });
  c = applyChainEvent(c, { type: 'challenge_resolved', at: 4, data: { agentHex: 'bb', challenge: 'C1', epoch: '7', statusName: 'upheld' } });
  c = applyChainEvent(c, { type: 'stake_locked', at: 5, data: {} });
  c = applyChainEvent(c, { type: 'message', at: 6, data: {} });
  assert.deepEqual(c, { batches: 2, verifiedBatches: 1, challenges: 1, resolvedChallenges: 1, lockedStakes: 1, activeLeases: 0, lastChallenge: { address: 'C1', agent: 'bb', epoch: '7', status: 'upheld' } });
});

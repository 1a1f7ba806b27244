import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sampleEvent } from '../lib/wire/testing';
import { applyChainEvent, emptyChainOverview } from './chain-state';

test('chain events update the overview chain section', () => {
  let c = emptyChainOverview();
  c = applyChainEvent(c, sampleEvent('batch_submitted', { agentHex: 'aa', status: 'verified' }, 1));
  c = applyChainEvent(c, sampleEvent('batch_submitted', { agentHex: 'bb', status: 'unverified' }, 2));
  c = applyChainEvent(c, sampleEvent('challenge_submitted', { agentHex: 'bb', challenge: 'C1', epoch: '7' }, 3));
  assert.deepEqual(c.lastChallenge, { address: 'C1', agent: 'bb', epoch: '7', status: 'pending' });
  c = applyChainEvent(
    c,
    sampleEvent('challenge_resolved', { agentHex: 'bb', challenge: 'C1', epoch: '7', statusName: 'upheld' }, 4),
  );
  c = applyChainEvent(c, sampleEvent('stake_locked', {}, 5));
  c = applyChainEvent(c, sampleEvent('message', {}, 6));
  assert.deepEqual(c, {
    batches: 2,
    verifiedBatches: 1,
    challenges: 1,
    resolvedChallenges: 1,
    lockedStakes: 1,
    activeLeases: 0,
    lastChallenge: { address: 'C1', agent: 'bb', epoch: '7', status: 'upheld' },
  });
});

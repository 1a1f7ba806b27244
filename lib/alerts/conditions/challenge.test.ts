// The challenge conditions on plain challenge rows: for the challenged agent and the challenger.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ChallengeRow, challengeConditions } from './challenge';
import { brief, bytes, CUR, EPOCH_START, input, watchOf, whyFor } from './testing';

const ch = (status: string, updatedAt = EPOCH_START): ChallengeRow => ({
  address: 'Ch1',
  agent: bytes(0xa1),
  challenger: bytes(0xb2),
  epoch: CUR - 2n,
  status,
  updatedAt: new Date(updatedAt),
});
const watch = watchOf({
  id: 'w',
  rules: { challenged: {}, challenge_resolved: {} },
  agents: [
    [0xa1, 0],
    [0xb2, EPOCH_START - 1_000],
  ],
});

test('challenged fires while pending, for the target and the challenger, and clears once resolved', () => {
  const pending = challengeConditions([ch('pending')], input(watch));
  assert.deepEqual(brief(pending), ['w:a1:challenged:Ch1=true', 'w:b2:challenged:Ch1=true']);
  assert.match(whyFor(pending, 0xa1, 'challenged'), /^agent-a1's batch of epoch \d+ is challenged \(challenge Ch1\)$/);
  assert.match(whyFor(pending, 0xb2, 'challenged'), /^agent-b2 challenged the batch of epoch \d+ of agent-a1/);
  const done = challengeConditions([ch('upheld')], input(watch));
  assert.deepEqual(brief(done), [
    'w:a1:challenged:Ch1=false',
    'w:a1:challenge_resolved:Ch1=true',
    'w:b2:challenged:Ch1=false',
    'w:b2:challenge_resolved:Ch1=true',
  ]);
  assert.match(whyFor(done, 0xb2, 'challenge_resolved'), /resolved: upheld \(agent-b2 was the challenger\)$/);
});

test('challenge_resolved skips a challenge resolved before the agent was watched', () => {
  const out = challengeConditions([ch('rejected', EPOCH_START - 2_000)], input(watch));
  assert.deepEqual(brief(out), [
    'w:a1:challenged:Ch1=false',
    'w:a1:challenge_resolved:Ch1=true',
    'w:b2:challenged:Ch1=false',
  ]);
});

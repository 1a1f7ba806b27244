import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentLabel, labelPrefix, shortBase58 } from './label';

test('labels are stable, two words, and map back to their hex prefix', () => {
  const hex = `abc${'0'.repeat(61)}`;
  assert.equal(agentLabel(hex), agentLabel(hex));
  assert.match(agentLabel(hex), /^[a-z]+-[a-z]+$/);
  assert.equal(labelPrefix(agentLabel(hex)), 'abc');
  assert.equal(labelPrefix('not a label'), null);
  assert.match(shortBase58(hex), /^.{5}….{4}$/);
});

// First-hand vs reported: ids only one side saw are flagged after the grace period, and the
// observer's reports from before the browser joined are not held against the browser.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareSeen } from './mesh-compare';

test('both, only here and only at the observer, with a grace period', () => {
  const joinedAt = 1_000_000;
  const s = {
    joinedAt,
    browser: new Map([
      ['a', joinedAt + 20_000],
      ['b', joinedAt + 21_000],
      ['c', joinedAt + 39_000],
    ]),
    observer: new Map([
      ['a', joinedAt + 20_100],
      ['old', joinedAt + 1_000],
      ['d', joinedAt + 22_000],
      ['e', joinedAt + 39_500],
    ]),
  };
  const r = compareSeen(s, joinedAt + 40_000);
  assert.equal(r.both, 1);
  assert.deepEqual(r.onlyBrowser, ['b']); // c is within the grace period
  assert.deepEqual(r.onlyObserver, ['d']); // old predates the join, e is within the grace period
});

// Score points (the unit pages, filters and alert thresholds use) to and from the protocol's fixed point, exactly.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pointsToFixed, scorePoints, scorePointsParam } from './score';

test('points and fixed point, both ways, exact', () => {
  assert.equal(scorePoints(62_333_333n), '62.333333');
  assert.equal(scorePoints('62333333', 3), '62.333');
  assert.equal(scorePoints(-500_000n), '-0.5');
  assert.equal(scorePoints(-1n, 3), '0.000');
  assert.equal(pointsToFixed('62.5'), 62_500_000n);
  assert.equal(pointsToFixed('-0.000001'), -1n);
  assert.equal(pointsToFixed('1.0000001'), null);
  assert.equal(scorePointsParam.parse('50'), 50_000_000n);
  // The old fixed-point form of a filter is out of range now, and says which unit it wants.
  const r = scorePointsParam.safeParse('500000');
  assert.equal(r.success, false);
  assert.match(r.error!.issues[0].message, /score points from -100 to 100/);
});

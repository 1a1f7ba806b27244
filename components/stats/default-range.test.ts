import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultStatsRange, spanText } from './default-range';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const ago = (s: number) => NOW - s * 1000;

test('a store younger than half an hour opens on the hour, and says why', () => {
  const c = defaultStatsRange(ago(10 * 60), NOW);
  assert.equal(c.range, '1h');
  assert.match(c.why, /only 10 min observed/);
  assert.equal(defaultStatsRange(null, NOW).range, '1h');
});

test('the longest window the data fills at least half of', () => {
  assert.equal(defaultStatsRange(ago(40 * 60), NOW).range, '1h');
  assert.equal(defaultStatsRange(ago(11 * 3600), NOW).range, '1h');
  assert.equal(defaultStatsRange(ago(12 * 3600), NOW).range, '24h');
  assert.equal(defaultStatsRange(ago(3 * 86_400), NOW).range, '24h');
  assert.equal(defaultStatsRange(ago(4 * 86_400), NOW).range, '7d');
  assert.equal(defaultStatsRange(ago(400 * 86_400), NOW).range, '7d');
  const c = defaultStatsRange(ago(2 * 86_400 + 3 * 3600), NOW);
  assert.equal(c.why, 'Showing 24h by default: data covers 100 % of it (2 d 3 h observed); 7d would be 30 % filled.');
});

test('a first observation in the future (clock skew) counts as nothing observed yet', () => {
  assert.equal(defaultStatsRange(NOW + 60_000, NOW).range, '1h');
});

test('spanText rounds down', () => {
  assert.equal(spanText(59), '0 min');
  assert.equal(spanText(3_660), '1 h 1 min');
  assert.equal(spanText(86_400), '1 d');
});

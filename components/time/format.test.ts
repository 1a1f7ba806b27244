import assert from 'node:assert/strict';
import { test } from 'node:test';
import { epochRange, localText, relativeTime, tickText, utcText, zoneText } from './format';

test('relative, UTC and zoned forms name their zone', () => {
  const ms = Date.UTC(2026, 10, 26, 15, 37, 4, 250);
  assert.equal(relativeTime(ms, ms + 12_400), '12 s ago');
  assert.equal(relativeTime(ms, ms + 3 * 60_000), '3 min ago');
  assert.equal(relativeTime(ms, ms - 5_000), 'in 5 s');
  assert.equal(utcText(ms), '2026-11-26 15:37:04 UTC');
  assert.equal(utcText(ms, true), '2026-11-26 15:37:04.250 UTC');
  assert.equal(localText(ms, { timeZone: 'UTC' }), '2026-11-26 15:37:04 UTC');
  assert.match(localText(ms, { timeZone: 'Europe/Berlin' }), /^2026-11-26 16:37:04 (CET|GMT\+1)$/);
  assert.match(localText(ms, { timeZone: 'Asia/Tokyo', date: false, withMs: true }), /^00:37:04\.250 (JST|GMT\+9)$/);
});

test('an epoch spans [e·len, (e+1)·len)', () => {
  assert.deepEqual(epochRange(10n, 20), { startMs: 200_000, endMs: 220_000 });
  assert.deepEqual(epochRange('3', 86_400), { startMs: 3 * 86_400_000, endMs: 4 * 86_400_000 });
  assert.equal(epochRange('x', 20), null);
  assert.equal(epochRange(1n, 0), null);
});

test('axis ticks and zone names in the zone asked for', () => {
  const ms = Date.UTC(2026, 10, 26, 23, 37, 4);
  assert.equal(tickText(ms, 'clock', 'UTC'), '23:37');
  assert.equal(tickText(ms, 'clock-s', 'UTC'), '23:37:04');
  assert.equal(tickText(ms, 'day-clock', 'UTC'), 'Nov 26 23:37');
  assert.equal(tickText(ms, 'day', 'UTC'), 'Nov 26');
  assert.equal(tickText(ms, 'md', 'UTC'), '11-26');
  // An hour later in Berlin: the next day.
  assert.equal(tickText(ms, 'day-clock', 'Europe/Berlin'), 'Nov 27 00:37');
  assert.equal(tickText(ms, 'md', 'Europe/Berlin'), '11-27');
  assert.equal(zoneText(ms, 'UTC'), 'UTC');
  assert.match(zoneText(ms, 'Europe/Berlin'), /^(CET|GMT\+1)$/);
});

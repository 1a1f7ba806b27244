// A filter's date-time field reads the instant in the zone the page shows: the viewer's own, or UTC.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldInstant, fieldText } from './ZonedDateInput';

test('a field is read in the viewer zone or in UTC, and refused when it is not a time', () => {
  const tz = process.env.TZ;
  process.env.TZ = 'Europe/Berlin';
  try {
    assert.equal(fieldInstant('2026-11-26T15:37', true), Date.UTC(2026, 10, 26, 15, 37));
    // Berlin is an hour ahead of UTC in November.
    assert.equal(fieldInstant('2026-11-26T15:37', false), Date.UTC(2026, 10, 26, 14, 37));
    assert.equal(fieldInstant('2026-07-01T12:00:30', false), Date.UTC(2026, 6, 1, 10, 0, 30));
    for (const bad of ['', '2026-11-26', '15:37', '2026-11-26T15:37Z', 'yesterday'])
      assert.equal(fieldInstant(bad, false), null, bad);
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
});

test('an instant is written back in the zone it is read in, to the minute or the second', () => {
  const at = Date.UTC(2026, 10, 26, 15, 37, 9);
  assert.equal(fieldText(at, true), '2026-11-26T15:37');
  assert.equal(fieldText(at, true, true), '2026-11-26T15:37:09');
  for (const seconds of [false, true])
    assert.equal(fieldInstant(fieldText(at, false, seconds), false), seconds ? at : at - 9_000);
});

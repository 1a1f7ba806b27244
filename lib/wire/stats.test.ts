import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type StatsSeries, statsColumn, statsSeriesCsv } from './stats';

const hash = '3569f62c'.padEnd(64, 'a');
const mint = 'c6fa7af3bedbad3a3d65f36aabc97431b1bbe4c2d2f6e0e47ca60203452f5d61';
const one = (x: Partial<StatsSeries['series'][number]>): StatsSeries['series'][number] => ({
  key: 'volume',
  label: `service ${hash.slice(0, 8)}…`,
  service: hash,
  token: '0'.repeat(64),
  values: ['1', null],
  ...x,
});

test('a CSV column names its service in words and keeps the exact hash and token', () => {
  assert.equal(statsColumn(one({ key: 'envelopes_per_s', service: null, token: null })), 'envelopes_per_s');
  assert.equal(statsColumn(one({})), `volume: unnamed service [service ${hash}, token unspecified]`);
  assert.equal(
    statsColumn(one({ label: 'translate en→de', token: mint })),
    `volume: translate en→de [service ${hash}, token ${mint}]`,
  );
});

test('the CSV quotes a header with commas and leaves an unknown rate empty', () => {
  const csv = statsSeriesCsv({
    metric: 'volume',
    range: '1h',
    from: '2026-11-29T10:00:00Z',
    to: '2026-11-29T10:02:00Z',
    stepSeconds: 60,
    series: [one({ label: 'summarise, briefly' })],
  } as StatsSeries);
  const [head, first, second] = csv.trim().split('\n');
  assert.equal(
    head,
    `interval_start_utc,interval_seconds,"volume: summarise, briefly [service ${hash}, token unspecified]"`,
  );
  assert.equal(first, '2026-11-29T10:00:00Z,60,1');
  assert.equal(second, '2026-11-29T10:01:00Z,60,');
});

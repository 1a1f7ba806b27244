import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countLines, dispositionName, exportUrl, progressFigures } from './progress';

test('export URL from the form: UTC times, type only for envelopes', () => {
  const f = {
    table: 'envelopes',
    format: 'parquet' as const,
    from: '2026-01-01T00:00',
    to: '',
    agent: ' ab ',
    types: ['PROPOSE', 'COUNTER'],
  };
  assert.equal(
    exportUrl(f, { job: 'j1234567' }),
    '/api/export/envelopes?format=parquet&from=2026-01-01T00%3A00%3A00Z&agent=ab&type=PROPOSE%2CCOUNTER&job=j1234567',
  );
  assert.equal(
    exportUrl({ ...f, table: 'offers' }),
    '/api/export/offers?format=parquet&from=2026-01-01T00%3A00%3A00Z&agent=ab',
  );
});

test('progress: percent, rate and ETA', () => {
  assert.deepEqual(progressFigures({ rows: 250, total: 1000, bytes: 0, startedAt: 0, now: 5000 }), {
    percent: 25,
    rate: 50,
    etaSeconds: 15,
  });
  assert.equal(progressFigures({ rows: 1000, total: 1000, bytes: 0, startedAt: 0, now: 1000 }).etaSeconds, 0);
  assert.equal(progressFigures({ rows: 0, total: 10, bytes: 0, startedAt: 0, now: 1000 }).etaSeconds, null);
});

test('line counting and file names', () => {
  assert.equal(countLines(new TextEncoder().encode('a\r\nb\r\n')), 2);
  assert.equal(dispositionName('attachment; filename="zerox1-offers-v1.csv"', 'x'), 'zerox1-offers-v1.csv');
  assert.equal(dispositionName(null, 'x'), 'x');
});

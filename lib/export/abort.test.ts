import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rawQuery, skipWithoutPostgres } from '../store/testing';
import { exportTable } from './export';
import { ParamError, parseExportRequest } from './params';
import { fixtureStore } from './testing';

const pgSkip = skipWithoutPostgres();

// Enough rows that Postgres is still sending when the consumer stops (the COPY path has no pages).
for (const [format, how] of [
  ['jsonl', 'cursor'],
  ['csv', 'binary COPY'],
] as const) {
  test(`an export aborted mid-stream ends its Postgres query (${format}: ${how}; pg_stat_activity)`, {
    skip: pgSkip,
  }, async () => {
    const fs = await fixtureStore('postgres', 1_000);
    const ac = new AbortController();
    try {
      const out = await exportTable({
        source: fs.store.exportSource(),
        table: 'envelopes',
        format,
        pageSize: 50,
        signal: ac.signal,
      });
      const it = out.bytes[Symbol.asyncIterator]();
      await it.next();
      await it.next();
      const running = async () =>
        rawQuery(fs.store)<{ n: string }>(`SELECT count(*)::text AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle' AND backend_type =
          'client backend'
          AND (query LIKE '%zx_export_cursor%' OR query LIKE '/* zx_export */ COPY (SELECT%')`);
      assert.equal(Number((await running())[0].n), 1, 'the export query runs while the export is read');
      ac.abort(new Error('client went away'));
      await it.return?.();
      for (let i = 0; i < 50 && Number((await running())[0].n) > 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(Number((await running())[0].n), 0, 'no export query or open cursor transaction is left');
    } finally {
      ac.abort(); // a failed assertion must not leave the export's connection checked out
      await fs.close();
    }
  });
}

test('bad parameters name the parameter', () => {
  const bad: Array<[string, string, string]> = [
    ['nope', '', 'table'],
    ['envelopes', 'format=xml', 'format'],
    ['envelopes', 'from=yesterday', 'from'],
    ['envelopes', 'from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
    ['envelopes', 'agent=12', 'agent'],
    ['offers', 'type=PROPOSE', 'type'],
    ['envelopes', 'type=HELLO', 'type'],
    ['envelopes', 'limit=0', 'limit'],
    ['envelopes', 'colour=red', 'colour'],
  ];
  for (const [table, qs, param] of bad) {
    assert.throws(
      () => parseExportRequest(table, new URLSearchParams(qs)),
      (e: unknown) => e instanceof ParamError && e.param === param,
      `${table}?${qs}`,
    );
  }
  const ok = parseExportRequest(
    'envelopes',
    new URLSearchParams(`format=parquet&from=2026-01-01T00:00:00.000123Z&type=PROPOSE,0x04&agent=${'ab'.repeat(32)}`),
  );
  assert.equal(ok.filter.fromUs, 1_767_225_600_000_123n);
  assert.deepEqual(ok.filter.types, [3, 4]);
  assert.equal(ok.format, 'parquet');
});

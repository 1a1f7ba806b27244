/**
 * The envelopes CSV fast path on Postgres (envelope-csv.ts, lib/store/export/export-copy.ts) writes
 * exactly the bytes of the generic path (rows decoded in JS, writers.ts), under every filter, for
 * a topic that needs CSV quoting and for a stored timestamp saturated at 2^63-1 (the exact value
 * then comes from `raw`).
 */

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeEnvelope } from '../protocol/envelope';
import { fromHex } from '../protocol/hex';
import { MsgType } from '../protocol/types';
import type { ExportFilter } from '../store/export';
import { rawQuery, skipWithoutPostgres } from '../store/testing';
import { envelopeCopyOptions, envelopeCsv } from './envelope-csv';
import { exportTable, tableRows } from './export';
import { TABLES } from './tables';
import { collect, type FixtureStore, fixtureStore, readBack } from './testing';
import { writeFormat } from './writers';

const skip = skipWithoutPostgres();

describe('envelopes CSV fast path on Postgres', { skip }, () => {
  let fs: FixtureStore;
  before(async () => {
    fs = await fixtureStore('postgres', 30);
    await rawQuery(fs.store)(
      `UPDATE envelope SET topic = 'zerox1/"odd",topic' WHERE seq = (SELECT min(seq) FROM envelope)`,
    );
    await rawQuery(fs.store)(
      `UPDATE envelope SET timestamp = 9223372036854775807 WHERE seq = (SELECT max(seq) FROM envelope)`,
    );
  });
  after(() => fs?.close());

  const generic = async (filter: ExportFilter, limit?: number) => {
    const schema = TABLES.envelopes;
    let rows = tableRows({ source: fs.store.exportSource(), table: 'envelopes', filter, pageSize: 64 });
    if (limit !== undefined) {
      const all: Record<string, unknown>[] = [];
      for await (const p of rows) all.push(...p);
      rows = (async function* () {
        yield all.slice(0, limit);
      })();
    }
    return collect(writeFormat('csv', schema, rows));
  };

  test('same bytes as the generic writer, with and without filters', async () => {
    const agent = fs.fx.agents[1];
    const from = fs.fx.items[40].envelope.timestamp;
    const filters: [ExportFilter, number | undefined][] = [
      [{}, undefined],
      [{}, 7],
      [{ agent }, undefined],
      [{ fromUs: from, toUs: from + 3_600_000_000n }, undefined],
      [{ types: [MsgType.PROPOSE, MsgType.FEEDBACK] }, undefined],
    ];
    for (const [filter, limit] of filters) {
      let reported = 0;
      const out = await exportTable({
        source: fs.store.exportSource(),
        table: 'envelopes',
        format: 'csv',
        filter,
        limit,
        onRows: (n) => {
          reported = n;
        },
      });
      const fast = await collect(out.bytes);
      const want = await generic(filter, limit);
      assert.ok(want.length > 200, 'the filter selects rows');
      assert.equal(
        fast.toString('utf8'),
        want.toString('utf8'),
        JSON.stringify({ filter: Object.keys(filter), limit }),
      );
      assert.equal(reported, out.total);
      assert.equal((await readBack('csv', fast)).length, out.total);
    }
  });

  test("Parquet fast path: every value read back equals the generic path's, with and without filters", async () => {
    const agent = fs.fx.agents[1];
    const from = fs.fx.items[40].envelope.timestamp;
    const filters: [ExportFilter, number | undefined][] = [
      [{}, undefined],
      [{}, 7],
      [{ agent, types: [MsgType.PROPOSE, MsgType.FEEDBACK] }, undefined],
      [{ fromUs: from, toUs: from + 3_600_000_000n }, undefined],
    ];
    for (const [filter, limit] of filters) {
      const out = await exportTable({
        source: fs.store.exportSource(),
        table: 'envelopes',
        format: 'parquet',
        filter,
        limit,
      });
      const fast = await readBack('parquet', await collect(out.bytes));
      let rows = tableRows({ source: fs.store.exportSource(), table: 'envelopes', filter, pageSize: 64 });
      if (limit !== undefined) {
        const all: Record<string, unknown>[] = [];
        for await (const p of rows) all.push(...p);
        rows = (async function* () {
          yield all.slice(0, limit);
        })();
      }
      const want = await readBack('parquet', await collect(writeFormat('parquet', TABLES.envelopes, rows)));
      assert.ok(want.length > 5, 'the filter selects rows');
      assert.equal(fast.length, out.total);
      assert.deepEqual(fast, want, JSON.stringify({ filter: Object.keys(filter), limit }));
    }
    // The fast path is the one taken: a COPY source exists on Postgres.
    assert.ok(fs.store.exportSource().envelopeParquetCopy({}));
  });

  test('tuples cut anywhere across chunks parse the same (1, 7 and 5,000-byte chunks)', async () => {
    const copy = fs.store.exportSource().envelopeCsvCopy({}, envelopeCopyOptions());
    assert.ok(copy);
    const whole = await collect(copy);
    const want = await collect(
      envelopeCsv(
        TABLES.envelopes,
        (async function* () {
          yield whole;
        })(),
      ),
    );
    for (const size of [1, 7, 5_000]) {
      const pieces = (async function* () {
        for (let i = 0; i < whole.length; i += size) yield whole.subarray(i, i + size);
      })();
      assert.ok((await collect(envelopeCsv(TABLES.envelopes, pieces))).equals(want), `chunks of ${size}`);
    }
    const cut = (async function* () {
      yield whole.subarray(0, whole.length - 2);
    })();
    await assert.rejects(collect(envelopeCsv(TABLES.envelopes, cut)), /before its trailer/);
  });

  test('the quoted topic and the saturated timestamp read back', async () => {
    const out = await exportTable({ source: fs.store.exportSource(), table: 'envelopes', format: 'csv' });
    const rows = await readBack('csv', await collect(out.bytes));
    assert.equal(rows[0].gossip_topic, 'zerox1/"odd",topic');
    const [sat] = await rawQuery(fs.store)<{ id: string }>(
      `SELECT encode(id, 'hex') AS id FROM envelope WHERE timestamp = 9223372036854775807`,
    );
    const row = rows.find((r) => r.id === sat.id)!;
    const d = decodeEnvelope(fromHex(String(row.raw)));
    assert.ok(d.ok);
    const us = d.envelope.timestamp;
    assert.ok(us < 9223372036854775807n);
    assert.equal(row.timestamp, us.toString(), 'the sender time from raw, as its integer µs');
  });
});

// The negmas table loads into NegMAS's trace structure without glue. NegMAS itself is not
// installable here, so the shapes are checked against the types it defines (negmas.ts): the
// seven TraceElement fields first, an outcome tuple per offer (a one-item list), ResponseType
// names, NegMAS's state names, the NEG1 round as the step; read by DuckDB from Parquet, JSONL and
// CSV, and by independent readers. The offers table stays the protocol's own trace.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { toHex } from '../protocol/hex';
import { parseNegotiationPayload } from '../protocol/neg1';
import { MsgType } from '../protocol/types';
import { duckQuery, duckSkip, sqlPath } from './duck-testing';
import { countRows, exportTable } from './export';
import { collect, type FixtureStore, fixtureStore } from './testing';

const TRACE = ['time', 'relative_time', 'step', 'negotiator', 'offer', 'responses', 'state'];
const RESPONSES = new Set(['ACCEPT_OFFER', 'REJECT_OFFER', 'END_NEGOTIATION', 'NO_RESPONSE', 'WAIT']);
const STATES = new Set(['continuing', 'agreement', 'timedout', 'ended', 'error']);
const LAST_STATE: Record<string, string> = {
  agreed: 'agreement',
  disputed: 'agreement',
  rejected: 'ended',
  no_deal: 'ended',
  expired: 'timedout',
  open: 'continuing',
};

let fs: FixtureStore;
let dir: string;
const csvRows = async (table: 'offers' | 'negotiations' | 'negmas') =>
  parse(await collect((await exportTable({ source: fs.store.exportSource(), table, format: 'csv' })).bytes), {
    columns: true,
    record_delimiter: '\r\n',
  }) as Record<string, string>[];
before(async () => {
  fs = await fixtureStore('pglite');
  dir = mkdtempSync(join(tmpdir(), 'zx-negmas-'));
});
after(async () => {
  await fs?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test(
  'the offers CSV is the protocol trace: one response name ' +
    'per offer, the final ACCEPT/REJECT row agreement or ended',
  async () => {
    const rows = await csvRows('offers');
    const traces = new Map<string, Record<string, string>[]>();
    for (const r of rows) traces.set(r.conversation_id, [...(traces.get(r.conversation_id) ?? []), r]);
    let agreements = 0;
    for (const [conv, t] of traces) {
      t.forEach((r, i) => {
        assert.equal(Number(r.step), i, `${conv}: steps count rows`);
        assert.ok(r.response === '' || RESPONSES.has(r.response), r.response);
      });
      const last = t[t.length - 1];
      if (last.state === 'continuing') continue;
      assert.equal(last.msg_type_name, last.state === 'agreement' ? 'ACCEPT' : 'REJECT');
      assert.ok(['agreement', 'ended'].includes(last.state));
      const answered = t[t.length - 2];
      if (answered && answered.negotiator !== last.negotiator)
        assert.equal(answered.response, last.state === 'agreement' ? 'ACCEPT_OFFER' : 'END_NEGOTIATION');
      if (last.state === 'agreement') agreements++;
    }
    assert.ok(agreements > 5, `${agreements} agreements`);
  },
);

test('negmas: TraceElement columns, an outcome tuple per offer, ResponseType names, NegMAS states, the round as step', {
  skip: duckSkip,
}, async () => {
  const files: Record<string, string> = {};
  for (const format of ['parquet', 'jsonl', 'csv'] as const) {
    const out = await exportTable({ source: fs.store.exportSource(), table: 'negmas', format, pageSize: 13 });
    files[format] = join(dir, `negmas.${format}`);
    const bytes = await collect(out.bytes);
    writeFileSync(files[format], bytes);
    if (format === 'jsonl') {
      // The outcome is a JSON array of one integer, the exact price digits (no quotes, no float).
      const first = bytes.toString('utf8').split('\n')[0];
      assert.match(first, /"offer":\[-?\d+\],"responses":\["[A-Z_]+"\]/);
    }
  }
  const [types, rows, jsonl, csv] = await duckQuery(
    `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${sqlPath(files.parquet)}))`,
    `SELECT conversation_id, envelope_id, step, state, offer[1]::VARCHAR AS ` +
      `price, len(offer) AS n, responses[1] AS response, len(responses) AS nr, ` +
      `time, relative_time, negotiator FROM read_parquet(${sqlPath(files.parquet)})`,
    // Typed as the Parquet is: DuckDB would guess DOUBLE for a list holding a price beyond int64.
    `SELECT envelope_id, offer[1]::VARCHAR AS price, responses[1] AS response, step FROM
      read_json(${sqlPath(files.jsonl)}, format = 'newline_delimited',
      columns = {time: 'DOUBLE', relative_time: 'DOUBLE', step: 'INTEGER', negotiator: 'VARCHAR', offer: 'HUGEINT[]',
        responses: 'VARCHAR[]', state: 'VARCHAR', conversation_id: 'VARCHAR', envelope_id: 'VARCHAR'})`,
    `SELECT envelope_id, offer, responses, step FROM read_csv(` +
      `${sqlPath(files.csv)}, header = true, all_varchar = true)`,
  );
  const type = Object.fromEntries(types.map((t) => [t.column_name, t.column_type]));
  assert.deepEqual(Object.keys(type).slice(0, TRACE.length), TRACE);
  assert.deepEqual(
    [type.time, type.relative_time, type.step, type.negotiator, type.offer, type.responses, type.state],
    ['DOUBLE', 'DOUBLE', 'INTEGER', 'VARCHAR', 'DECIMAL(38,0)[]', 'VARCHAR[]', 'VARCHAR'],
  );

  const offers = await csvRows('offers');
  const byEnvelope = new Map(offers.map((o) => [o.envelope_id, o]));
  const outcomes = new Map((await csvRows('negotiations')).map((n) => [n.conversation_id, n.outcome]));
  // One row per NEG1 offer: no row of its own for the ACCEPT or REJECT, as NegMAS.
  assert.equal(
    rows.length,
    offers.filter((o) => o.msg_type_name === 'PROPOSE' || o.msg_type_name === 'COUNTER').length,
  );
  assert.equal(rows.length, await countRows(fs.store.exportSource(), 'negmas'));
  const traces = new Map<string, typeof rows>();
  for (const r of rows) {
    const o = byEnvelope.get(String(r.envelope_id))!;
    assert.ok(o, 'every trace row is an offer');
    assert.equal(Number(r.step), Number(o.round), 'step is the NEG1 round');
    assert.equal(String(r.price), o.offer, 'the outcome tuple holds the exact price');
    assert.deepEqual([Number(r.n), Number(r.nr)], [1, 1]);
    assert.ok(RESPONSES.has(String(r.response)) && STATES.has(String(r.state)));
    traces.set(String(r.conversation_id), [...(traces.get(String(r.conversation_id)) ?? []), r]);
  }
  const seen = new Set<string>();
  for (const [conv, t] of traces) {
    t.slice(0, -1).forEach((r) => assert.equal(r.state, 'continuing', conv));
    const last = t[t.length - 1];
    assert.equal(last.state, LAST_STATE[outcomes.get(conv)!], `${conv}: ${outcomes.get(conv)}`);
    if (last.state === 'agreement') assert.equal(last.response, 'ACCEPT_OFFER');
    if (last.state === 'ended') assert.equal(last.response, 'END_NEGOTIATION');
    seen.add(String(last.state));
  }
  assert.ok(seen.has('agreement') && seen.has('ended'), [...seen].join());
  // JSONL and CSV carry the same outcome and response as the Parquet.
  const pq = new Map(rows.map((r) => [String(r.envelope_id), r]));
  assert.equal(jsonl.length, rows.length);
  for (const j of jsonl)
    assert.deepEqual(
      [String(j.price), j.response, Number(j.step)],
      [
        String(pq.get(String(j.envelope_id))!.price),
        pq.get(String(j.envelope_id))!.response,
        Number(pq.get(String(j.envelope_id))!.step),
      ],
    );
  assert.equal(csv.length, rows.length);
  for (const c of csv) {
    const p = pq.get(String(c.envelope_id))!;
    assert.deepEqual([c.offer, c.responses], [`[${String(p.price)}]`, JSON.stringify([p.response])]);
  }
  // An agreement's last offer is the ACCEPT's price.
  const accept = fs.fx.items.find(
    (i) => i.envelope.msgType === MsgType.ACCEPT && parseNegotiationPayload(i.envelope.payload).kind === 'neg1',
  )!;
  const p = parseNegotiationPayload(accept.envelope.payload);
  const t = traces.get(toHex(accept.envelope.conversationId))!;
  assert.equal(String(t.at(-1)!.price), p.kind === 'neg1' ? p.neg1.bidValue.toString() : '');
});

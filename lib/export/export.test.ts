import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toHex } from '../protocol/hex';
import { parseNegotiationPayload } from '../protocol/neg1';
import { MsgType } from '../protocol/types';
import { rawQuery } from '../store/testing';
import { countRows, exportTable } from './export';
import { isoMicros, TABLE_NAMES, type TableName } from './schema';
import { TABLES } from './tables';
import { BACKENDS, collect, type FixtureStore, fixtureStore, parquetKv, type ReadRow, readBack } from './testing';
import { FORMATS } from './writers';

const hexOf = (v: unknown) => (v instanceof Uint8Array ? toHex(v) : String(v));
const str = (v: unknown) => (typeof v === 'bigint' ? v.toString() : String(v));

test('isoMicros keeps microseconds, before 1970 too', () => {
  assert.equal(isoMicros(1_767_225_600_123_456n), '2026-01-01T00:00:00.123456Z');
  assert.equal(isoMicros(-1n), '1969-12-31T23:59:59.999999Z');
});

for (const kind of BACKENDS) {
  describe(`exports on ${kind}`, () => {
    let fs: FixtureStore;
    const expected: Partial<Record<TableName, number>> = {};
    before(async () => {
      fs = await fixtureStore(kind);
      const items = fs.fx.items;
      const q = async (sql: string) => Number((await rawQuery(fs.store)<{ n: string }>(sql))[0].n);
      expected.envelopes = await q('SELECT count(*)::text AS n FROM envelope');
      assert.equal(expected.envelopes, items.length);
      expected.feedback = await q('SELECT count(*)::text AS n FROM feedback');
      expected.batches = await q('SELECT count(*)::text AS n FROM batch');
      expected.challenges = await q('SELECT count(*)::text AS n FROM challenge');
      expected.reconciliation = await q('SELECT count(*)::text AS n FROM reconciliation');
      expected.disputes = items.filter((i) => i.envelope.msgType === MsgType.DISPUTE).length;
      expected.negotiations = new Set(
        items.filter((i) => i.envelope.msgType === MsgType.PROPOSE).map((i) => toHex(i.envelope.conversationId)),
      ).size;
      // NEG1 offers, plus one final-action row per negotiation that has an ACCEPT or a REJECT.
      const ended = new Set(
        items
          .filter((i) => i.envelope.msgType === MsgType.ACCEPT || i.envelope.msgType === MsgType.REJECT)
          .map((i) => toHex(i.envelope.conversationId)),
      ).size;
      // negmas: the NEG1 offers alone (the ACCEPT or REJECT is the last offer's response).
      expected.negmas = items.filter(
        (i) =>
          (i.envelope.msgType === MsgType.PROPOSE || i.envelope.msgType === MsgType.COUNTER) &&
          parseNegotiationPayload(i.envelope.payload).kind === 'neg1',
      ).length;
      expected.offers = expected.negmas + ended;
      assert.ok(
        expected.negotiations > 30 &&
          expected.offers > 100 &&
          expected.feedback > 30 &&
          expected.batches > 5 &&
          expected.challenges === 1 &&
          expected.reconciliation === expected.batches &&
          expected.disputes > 0,
        JSON.stringify(expected),
      );
    });
    after(() => fs?.close());

    for (const table of TABLE_NAMES) {
      for (const format of FORMATS) {
        test(`${table} as ${format}: every row, header/schema from the column list`, async () => {
          const source = fs.store.exportSource();
          const total = await countRows(source, table);
          assert.equal(total, expected[table]);
          const out = await exportTable({ source, table, format, pageSize: 97 });
          assert.equal(out.total, expected[table]);
          const bytes = await collect(out.bytes);
          const rows = await readBack(format, bytes);
          assert.equal(rows.length, expected[table]);
          if (format === 'csv')
            assert.equal(bytes.toString('utf8').split('\r\n')[0], TABLES[table].columns.map((c) => c.name).join(','));
          if (rows.length)
            assert.deepEqual(
              Object.keys(rows[0]),
              TABLES[table].columns.map((c) => c.name),
            );
          if (format === 'parquet') {
            const kv = parquetKv(bytes);
            assert.deepEqual(
              { ...kv, 'zerox1.table_schema': undefined },
              {
                'zerox1.table': table,
                'zerox1.schema_version': String(TABLES[table].version),
                'zerox1.table_schema': undefined,
              },
            );
            // The file describes its own columns (Frictionless Table Schema: types, units, descriptions).
            const ts = JSON.parse(kv['zerox1.table_schema']) as {
              fields: { name: string; type: string; description: string }[];
            };
            assert.deepEqual(
              ts.fields.map((f) => f.name),
              TABLES[table].columns.map((c) => c.name),
            );
            assert.ok(ts.fields.every((f) => f.type && f.description));
          }
        });
      }
    }

    for (const format of FORMATS) {
      test(`known values survive ${format}: int128 price, bytes as hex, µs timestamps`, async () => {
        const source = fs.store.exportSource();
        const { bigPrice, bigPriceConversation, items, agents } = fs.fx;
        const propose = items.find(
          (i) =>
            i.envelope.msgType === MsgType.PROPOSE && toHex(i.envelope.conversationId) === toHex(bigPriceConversation),
        )!;
        const read = async (table: TableName, filter = {}) =>
          readBack(format, await collect((await exportTable({ source, table, format, filter })).bytes));
        const env = (await read('envelopes', { agent: agents[0], types: [MsgType.PROPOSE] })).find(
          (r) => hexOf(r.id) === toHex(propose.id),
        ) as ReadRow;
        assert.ok(env, 'the big-price PROPOSE is exported');
        assert.equal(str(env.neg1_bid_value), bigPrice.toString());
        assert.equal(str(env.neg1_bid_value), '1180591620717411303424');
        assert.equal(hexOf(env.sender), toHex(agents[0]));
        assert.equal(hexOf(env.raw), toHex(propose.raw));
        assert.equal(str(env.nonce), propose.envelope.nonce.toString());
        const ts = propose.envelope.timestamp;
        // The sender's µs, the same integer in every format (Parquet UINT_64, a decimal in CSV and JSONL).
        assert.equal(str(env.timestamp), ts.toString());
        const offer = (await read('offers')).filter((r) => hexOf(r.conversation_id) === toHex(bigPriceConversation));
        assert.equal(offer.length, 2, 'the PROPOSE and the final REJECT');
        assert.equal(str(offer[0].offer), bigPrice.toString());
        assert.equal(Number(offer[0].time), 0);
        assert.equal(Number(offer[0].relative_time), 1 / 5, '(round 0 + 1) / (max_rounds 4 + 1)');
        assert.equal(offer[0].side, 'proposer');
        assert.equal(offer[0].state, 'continuing');
        assert.equal(offer[0].response, 'END_NEGOTIATION');
        assert.deepEqual([offer[1].msg_type_name, offer[1].state, str(offer[1].step)], ['REJECT', 'ended', '1']);
        assert.ok(Number(offer[1].time) > 0);
        const negs = await read('negotiations');
        const neg = negs.find((r) => hexOf(r.conversation_id) === toHex(bigPriceConversation))!;
        assert.equal(neg.outcome, 'rejected');
        assert.equal(str(neg.opening_offer), bigPrice.toString());
        // An agreed deal: its price is the ACCEPT's NEG1 bid.
        const accept = items.find((i) => i.envelope.msgType === MsgType.ACCEPT)!;
        const p = parseNegotiationPayload(accept.envelope.payload);
        assert.equal(p.kind, 'neg1');
        const agreed = negs.find((r) => hexOf(r.conversation_id) === toHex(accept.envelope.conversationId))!;
        assert.ok(['agreed', 'disputed'].includes(String(agreed.outcome)));
        assert.equal(str(agreed.agreed_price), p.kind === 'neg1' ? p.neg1.bidValue.toString() : '');
        assert.ok(
          negs.some((r) => ['boulware', 'linear', 'conceder'].includes(String(r.buyer_concession_class))),
          'concession classes are filled',
        );
      });
    }

    test('filters: agent, type and time range select exactly the matching envelopes', async () => {
      const source = fs.store.exportSource();
      const { items, agents } = fs.fx;
      const a = agents[2];
      const mid = items[Math.floor(items.length / 2)].envelope.timestamp;
      const f = { agent: a, types: [MsgType.FEEDBACK, MsgType.COUNTER] as number[], fromUs: mid };
      const want = items.filter(
        (i) =>
          (toHex(i.envelope.sender) === toHex(a) || toHex(i.envelope.recipient) === toHex(a)) &&
          f.types.includes(i.envelope.msgType) &&
          i.envelope.timestamp >= mid,
      ).length;
      assert.ok(want > 0);
      assert.equal(await countRows(source, 'envelopes', f), want);
      const rows = await readBack(
        'jsonl',
        await collect(
          (await exportTable({ source, table: 'envelopes', format: 'jsonl', filter: f, pageSize: 7 })).bytes,
        ),
      );
      assert.equal(rows.length, want);
    });
  });
}

// A NegMAS-style loader reads the offers table without glue. NegMAS itself is not installable
// here, so this loader is written against NegMAS's documented negotiation-trace columns
// (`full_trace`: time, relative_time, step, negotiator, offer, responses, state; ResponseType
// names; states continuing / agreement / broken): it takes the CSV as it comes, with no renaming,
// no unit conversion and no joins, and checks what a NegMAS analysis relies on.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { MsgType } from '../protocol/types';
import { parseNegotiationPayload } from '../protocol/neg1';
import { toHex } from '../protocol/hex';
import { exportTable } from './export';
import { collect, fixtureStore, type FixtureStore } from './testing';

const TRACE = ['time', 'relative_time', 'step', 'negotiator', 'offer', 'responses', 'state'];
const RESPONSES = new Set(['REJECT_OFFER', 'ACCEPT_OFFER', 'END_NEGOTIATION']);

let fs: FixtureStore;
before(async () => { fs = await fixtureStore('pglite'); });
after(() => fs?.close());

test('the offers CSV is a NegMAS trace per negotiation: columns, seconds, relative time, responses, final state', async () => {
  const bytes = await collect((await exportTable({ source: fs.store.exportSource(), table: 'offers', format: 'csv' })).bytes);
  const rows = parse(bytes, { columns: true, record_delimiter: '\r\n', cast: false }) as Record<string, string>[];
  assert.deepEqual(Object.keys(rows[0]).slice(0, TRACE.length), TRACE);
  const traces = new Map<string, Record<string, string>[]>();
  for (const r of rows) traces.set(r.conversation_id, [...(traces.get(r.conversation_id) ?? []), r]);
  let agreements = 0;
  for (const [conv, t] of traces) {
    t.forEach((r, i) => {
      assert.equal(Number(r.step), i, `${conv}: steps count rows`);
      assert.ok(Number.isFinite(Number(r.time)) && Number(r.time) >= 0, `${conv}: time is seconds from the start`);
      assert.ok(r.relative_time === '' || (Number(r.relative_time) >= 0 && Number(r.relative_time) <= 1));
      assert.match(r.negotiator, /^[0-9a-f]{64}$/);
      if (r.responses) for (const v of Object.values(JSON.parse(r.responses) as Record<string, string>)) assert.ok(RESPONSES.has(v), v);
    });
    const last = t[t.length - 1];
    const offers = t.filter((r) => r.state === 'continuing');
    assert.ok(offers.every((r, i) => i === 0 || Number(r.time) >= 0), conv);
    if (last.state !== 'continuing') {
      assert.ok(['agreement', 'broken'].includes(last.state));
      assert.equal(last.msg_type_name, last.state === 'agreement' ? 'ACCEPT' : 'REJECT');
      // The offer the final action answers was responded to accordingly.
      const answered = offers[offers.length - 1];
      if (answered && answered.negotiator !== last.negotiator && answered.responses) {
        assert.equal(Object.values(JSON.parse(answered.responses) as Record<string, string>)[0], last.state === 'agreement' ? 'ACCEPT_OFFER' : 'END_NEGOTIATION');
      }
      if (last.state === 'agreement') agreements++;
    }
  }
  assert.ok(agreements > 5, `${agreements} agreements`);
  // An agreement's final row carries the agreed price, as the ACCEPT's NEG1 says.
  const accept = fs.fx.items.find((i) => i.envelope.msgType === MsgType.ACCEPT && parseNegotiationPayload(i.envelope.payload).kind === 'neg1')!;
  const p = parseNegotiationPayload(accept.envelope.payload);
  const final = traces.get(toHex(accept.envelope.conversationId))!.at(-1)!;
  assert.equal(final.offer, p.kind === 'neg1' ? p.neg1.bidValue.toString() : '');
});

test('negotiations carry the terms NegMAS needs: max_rounds, deadline, service_hash, token_mint', async () => {
  const bytes = await collect((await exportTable({ source: fs.store.exportSource(), table: 'negotiations', format: 'csv' })).bytes);
  const rows = parse(bytes, { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];
  const big = rows.find((r) => r.conversation_id === toHex(fs.fx.bigPriceConversation))!;
  assert.deepEqual([big.max_rounds, big.deadline, big.service_hash, big.token_mint], ['4', '0', '09'.repeat(32), '00'.repeat(32)]);
  assert.ok(rows.every((r) => r.max_rounds === '' ? r.service_hash === '' : /^\d+$/.test(r.max_rounds) && /^[0-9a-f]{64}$/.test(r.service_hash)));
  assert.ok(rows.filter((r) => r.max_rounds !== '').length > rows.length / 2);
});

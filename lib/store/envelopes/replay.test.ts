/**
 * Replay reads page a window in exactly the store's (timestamp, id) order: small pages, ties on
 * the timestamp that straddle page boundaries, rows in several partitions (the current week's,
 * the next one's and the default), and rows just outside the window, on PGlite and Postgres.
 */
import assert from 'node:assert/strict';
import { toHex } from '../../protocol/hex';
import { encodeNotarizeBid } from '../../protocol/payloads';
import { MsgType } from '../../protocol/types';
import { testOnEachStore } from '../backends-testing';
import { epochsPerPartition } from '../engine/partitions';
import type { Store } from '../index';
import { bytes32, conv16, makeItem, rawQuery } from '../testing';
import type { ReplayRow } from './replay';

const EPOCH = 60;
const epochUs = BigInt(EPOCH) * 1_000_000n;
const agents = [1, 2, 3, 4, 5].map((i) => bytes32(i, 0x10 + i));

/** Envelopes in groups that share a timestamp (1, 2, 3, 4 or 7 per group), across three partitions. */
function fixtures(nowUs: bigint) {
  const nextPartition =
    (nowUs / epochUs / BigInt(epochsPerPartition(EPOCH)) + 1n) * BigInt(epochsPerPartition(EPOCH)) * epochUs;
  const starts = [nowUs - 3_600_000_000n, nextPartition - 1n, nextPartition, nowUs + 400n * 86_400_000_000n];
  const sizes = [1, 2, 3, 4, 7, 1, 3];
  const items = [];
  let n = 0;
  for (const start of starts) {
    let ts = start;
    for (const size of sizes) {
      for (let k = 0; k < size; k++, n++) {
        const sender = agents[n % agents.length],
          recipient = agents[(n + 1) % agents.length];
        const bid = n % 9 === 0;
        items.push(
          makeItem({
            msgType: bid ? MsgType.NOTARIZE_BID : MsgType.PROPOSE,
            sender,
            recipient: bid ? undefined : recipient,
            conversationId: conv16(n),
            nonce: BigInt(n),
            timestamp: ts,
            payload: bid
              ? encodeNotarizeBid({ bidType: n % 2, conversationId: conv16(n), terms: new Uint8Array([1]) })
              : undefined,
          }),
        );
      }
      ts += 1000n;
    }
  }
  return { items, first: starts[0], last: starts[3] + BigInt(sizes.length - 1) * 1000n };
}

async function pageAll(
  s: Store,
  fromUs: bigint,
  toUs: bigint,
  limit: number,
): Promise<{ rows: ReplayRow[]; pages: number }> {
  const rows: ReplayRow[] = [];
  let after: { timestampUs: bigint; id: Uint8Array } | undefined;
  let pages = 0;
  for (;;) {
    const page = await s.replayEnvelopes({ fromUs, toUs, after, limit });
    pages++;
    assert.ok(page.length <= limit);
    rows.push(...page);
    if (page.length < limit) break;
    const last = page[page.length - 1];
    after = { timestampUs: last.timestamp, id: last.id };
    assert.ok(pages < 1000, 'paging ends');
  }
  return { rows, pages };
}

testOnEachStore(
  "replay pages give exactly the store's (timestamp, id) order, ties across page boundaries included",
  async (s, backend) => {
    const nowUs = BigInt(Date.now()) * 1000n;
    const { items, first, last } = fixtures(nowUs);
    // Rows just outside the window on both sides.
    const outside = [first - 1n, last + 1n].map((ts, i) =>
      makeItem({
        msgType: MsgType.ACCEPT,
        sender: agents[0],
        recipient: agents[1],
        conversationId: conv16(900 + i),
        nonce: 900n + BigInt(i),
        timestamp: ts,
      }),
    );
    await s.ingestEnvelopes([...items, ...outside].reverse());

    const direct = await rawQuery(s)<{ id: Uint8Array; ts: string }>(
      'SELECT id, timestamp::text AS ts FROM envelope WHERE timestamp ' +
        '>= $1::int8 AND timestamp <= $2::int8 ORDER BY timestamp, id',
      [String(first), String(last)],
    );
    assert.equal(direct.length, items.length);
    const want = direct.map((r) => `${r.ts}:${toHex(r.id)}`);
    // The partitions really are several: the store's order must hold across them.
    const parts = await rawQuery(s)<{ p: string }>('SELECT DISTINCT tableoid::regclass::text AS p FROM envelope');
    assert.ok(parts.length >= 3, `rows in ${parts.map((p) => p.p).join(', ')}`);

    for (const limit of [1, 2, 3, 5, 7, 1000]) {
      const { rows, pages } = await pageAll(s, first, last, limit);
      assert.deepEqual(
        rows.map((r) => `${r.timestamp}:${toHex(r.id)}`),
        want,
        `${backend}, pages of ${limit}`,
      );
      assert.ok(pages >= Math.ceil(want.length / limit), `${pages} pages of ${limit}`);
    }

    // The fields are what the store holds for each envelope, the bid type of a NOTARIZE_BID too.
    const { rows } = await pageAll(s, first, last, 4);
    const byId = new Map(items.map((i) => [toHex(i.id), i]));
    for (const r of rows) {
      const it = byId.get(toHex(r.id))!;
      assert.equal(r.msgType, it.envelope.msgType);
      assert.equal(toHex(r.sender), toHex(it.envelope.sender));
      assert.equal(toHex(r.recipient), toHex(it.envelope.recipient));
      assert.equal(toHex(r.conversationId), toHex(it.envelope.conversationId));
      assert.equal(r.nonce, it.envelope.nonce);
      assert.equal(r.timestamp, it.envelope.timestamp);
      assert.equal(r.payloadLen, it.envelope.payloadLen);
      assert.equal(r.receivedAt.getTime(), it.receivedAt.getTime());
      assert.equal(r.bidType, it.envelope.msgType === MsgType.NOTARIZE_BID ? it.envelope.payload[0] : undefined);
    }

    // A cursor in the middle of a tie starts right after that row, inside the same timestamp.
    const tieStart = direct.findIndex((r, i) => i + 6 < direct.length && direct[i + 6].ts === r.ts);
    assert.ok(tieStart >= 0, 'a group of seven equal timestamps');
    const mid = direct[tieStart + 2];
    const rest = await s.replayEnvelopes({
      fromUs: first,
      toUs: last,
      after: { timestampUs: BigInt(mid.ts), id: mid.id },
      limit: 3,
    });
    assert.deepEqual(
      rest.map((r) => toHex(r.id)),
      direct.slice(tieStart + 3, tieStart + 6).map((r) => toHex(r.id)),
    );

    // A window of one timestamp, an empty window, a reversed one.
    const one = await pageAll(s, BigInt(mid.ts), BigInt(mid.ts), 2);
    assert.deepEqual(
      one.rows.map((r) => toHex(r.id)),
      direct.filter((r) => r.ts === mid.ts).map((r) => toHex(r.id)),
    );
    assert.deepEqual(await s.replayEnvelopes({ fromUs: last + 10n, toUs: last + 20n, limit: 10 }), []);
    assert.deepEqual(await s.replayEnvelopes({ fromUs: last, toUs: first, limit: 10 }), []);
    await assert.rejects(s.replayEnvelopes({ fromUs: first, toUs: last, limit: 0 }), RangeError);

    if (backend === 'PGlite') {
      // One session: the planner setting holds for the EXPLAIN. With sequential scans priced out
      // (the test table is tiny), the page must come from the (timestamp, id) index.
      await rawQuery(s)('SET enable_seqscan = off');
      const plan = (
        await rawQuery(s)<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT id FROM envelope WHERE timestamp >= $1::int8 AND timestamp <= $2::int8 ` +
            `AND (timestamp, id) > ($1::int8, '\\x00'::bytea) ORDER BY timestamp, id LIMIT 5`,
          [String(first), String(last)],
        )
      )
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      await rawQuery(s)('RESET enable_seqscan');
      assert.match(plan, /timestamp_id_idx/, plan);
      assert.doesNotMatch(plan, /^\s*(?:->\s*)?Sort {2}\(/m, plan);
    }
  },
  { dbPrefix: 'zx_replay', epochSeconds: EPOCH, timeout: 60_000 },
);

// An agent's counterparties on a real store: the other side of its negotiation envelopes, a deal
// once the conversation reached ACCEPT; a notary bidding on the conversation is not a
// counterparty. The stored `conversation.negotiators` read is checked against the definition
// read straight from the envelopes, after shuffled batches and after the migration's backfill.

import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { buildEnvelope } from '../../protocol/envelope';
import { encodeNotarizeBid } from '../../protocol/payloads';
import { MsgType } from '../../protocol/types';
import { testOnEachStore } from '../backends-testing';
import { MIGRATIONS_DIR } from '../engine/migrate';
import { openStore, type Store } from '../index';
import { rawQuery } from '../testing';
import type { IngestItem } from '../types';

let n = 0n;
function env(
  msgType: number,
  from: Uint8Array,
  to: Uint8Array,
  conv: Uint8Array,
  payload: Uint8Array = new Uint8Array([1]),
): IngestItem {
  n++;
  const b = buildEnvelope(
    {
      msgType,
      sender: from,
      recipient: to,
      timestamp: 1_790_000_000_000_000n + n,
      nonce: n,
      conversationId: conv,
      payload,
    },
    new Uint8Array(32).fill(from[0]),
  );
  return { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'stream', receivedAt: new Date() };
}
const agent = (i: number) => new Uint8Array(32).fill(i);
const BROADCAST = new Uint8Array(32);

/** The definition, from every negotiation envelope of the agent (what the read used to scan). */
async function fromEnvelopes(store: Store, a: Uint8Array): Promise<Array<[number, number, number]>> {
  const rows = await rawQuery(store)<{ other: Uint8Array; conversations: number; deals: number }>(
    `SELECT t.other, count(*)::int AS conversations,
      count(*) FILTER (WHERE c.outcome IN ('agreed', 'disputed'))::int AS deals
    FROM (SELECT DISTINCT conversation_id, CASE WHEN sender = $1 THEN recipient ELSE sender END AS other
          FROM envelope WHERE msg_type IN (3, 4, 5, 6) AND (sender = $1 OR recipient = $1)) t
    JOIN conversation c ON c.id = t.conversation_id
    GROUP BY t.other ORDER BY deals DESC, conversations DESC, t.other`,
    [a],
  );
  return rows.map((r) => [r.other[0], r.conversations, r.deals]);
}
const stored = async (store: Store, a: Uint8Array) =>
  (await store.counterpartiesOf(a)).map((r): [number, number, number] => [r.agent[0], r.conversations, r.deals]);

test('counterparties with conversations and deals', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  try {
    const [A, B, C, N] = [agent(1), agent(2), agent(3), agent(4)];
    const c1 = new Uint8Array(16).fill(1),
      c2 = new Uint8Array(16).fill(2),
      c3 = new Uint8Array(16).fill(3);
    await store.ingestEnvelopes([
      env(MsgType.PROPOSE, A, B, c1),
      env(MsgType.COUNTER, B, A, c1),
      env(MsgType.ACCEPT, A, B, c1),
      env(
        MsgType.NOTARIZE_BID,
        N,
        BROADCAST,
        c1,
        encodeNotarizeBid({ bidType: 1, conversationId: c1, terms: new Uint8Array(0) }),
      ),
      env(MsgType.DELIVER, B, N, c1),
      env(MsgType.PROPOSE, C, A, c2),
      env(MsgType.REJECT, A, C, c2),
      env(MsgType.PROPOSE, C, C, c3),
    ]);
    assert.deepEqual(await stored(store, A), [
      [2, 1, 1],
      [3, 1, 0],
    ]);
    assert.deepEqual(await stored(store, N), []);
    assert.deepEqual(
      await stored(store, C),
      [
        [1, 1, 0],
        [3, 1, 0],
      ],
      'an agent negotiating with itself is its own counterparty',
    );
  } finally {
    await store.close();
  }
});

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

testOnEachStore(
  'stored negotiators give what the envelopes give, in any batching, and after the backfill',
  async (store) => {
    const r = rng(7);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const types = [
      MsgType.PROPOSE,
      MsgType.COUNTER,
      MsgType.ACCEPT,
      MsgType.REJECT,
      MsgType.DELIVER,
      MsgType.NOTARIZE_ASSIGN,
      MsgType.VERDICT,
      MsgType.FEEDBACK,
      MsgType.DISPUTE,
    ];
    const items: IngestItem[] = [];
    for (let c = 0; c < 60; c++) {
      const conv = new Uint8Array(16).fill(c + 1);
      const [x, y] = [agent(1 + Math.floor(r() * 6)), agent(1 + Math.floor(r() * 6))];
      const k = 1 + Math.floor(r() * 6);
      for (let i = 0; i < k; i++) {
        const t = i === 0 ? MsgType.PROPOSE : pick(types);
        const to = r() < 0.1 ? BROADCAST : i % 2 ? x : y;
        items.push(env(t, i % 2 ? y : x, to, conv));
      }
    }
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    for (let i = 0; i < items.length; ) {
      const k = 1 + Math.floor(r() * 40);
      await store.ingestEnvelopes(items.slice(i, i + k));
      i += k;
    }
    await store.ingestEnvelopes(items.slice(0, 30)); // re-seen: changes nothing
    const everyone = [1, 2, 3, 4, 5, 6].map(agent);
    // Broadcast recipients are not negotiators; the envelope-side definition drops them here.
    const reference = async (a: Uint8Array) => (await fromEnvelopes(store, a)).filter(([o]) => o !== 0);
    for (const a of everyone) assert.deepEqual(await stored(store, a), await reference(a), `agent ${a[0]}`);
    assert.ok((await stored(store, agent(1))).length > 0);

    const name = (await readdir(MIGRATIONS_DIR)).find((d) => d.endsWith('_conversation_negotiators'));
    assert.ok(name, 'the negotiators migration');
    const backfill = (await readFile(`${MIGRATIONS_DIR}/${name}/migration.sql`, 'utf8'))
      .split(';')
      .find((s) => s.includes('UPDATE'))!;
    await rawQuery(store)(`UPDATE conversation SET negotiators = '{}'`);
    assert.deepEqual(await stored(store, agent(1)), []);
    await rawQuery(store)(backfill);
    for (const a of everyone)
      assert.deepEqual(await stored(store, a), await reference(a), `agent ${a[0]} after the backfill`);
  },
  { dbPrefix: 'counterparties' },
);

/**
 * GET /api/replay on a real store (PGlite): paging a window through the route with `next` as
 * `after` gives every stored envelope of it once, in (timestamp, id) order, each a valid `message`
 * event of the live stream; bad input is a 400 naming the parameter, never a 500.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toHex } from '../../../lib/protocol/hex';
import { MsgType } from '../../../lib/protocol/types';
import { openStore } from '../../../lib/store';
import { bytes32, conv16, makeItem } from '../../../lib/store/testing';
import { LiveEventSchema } from '../../../lib/wire';
import { type ReplayEvent, ReplayPageSchema } from '../../../lib/wire/replay';
import { registerServices, type Services } from '../../_lib/services';
import { GET } from './route';

test('pages of the window in store order, as live message events; 400s name the parameter', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  const A = bytes32(1, 0xa),
    B = bytes32(2, 0xb);
  const t0 = BigInt(Date.now() - 60_000) * 1000n;
  // 30 envelopes, three to a timestamp, 1 ms apart.
  const items = Array.from({ length: 30 }, (_, i) =>
    makeItem({
      msgType: MsgType.PROPOSE,
      sender: i % 2 ? A : B,
      recipient: i % 2 ? B : A,
      conversationId: conv16(i),
      nonce: BigInt(i + 1),
      timestamp: t0 + BigInt(Math.floor(i / 3)) * 1000n,
    }),
  );
  await store.ingestEnvelopes(items);
  registerServices({ observatory: { store }, reads: store, config: { epochSeconds: 86_400 } } as unknown as Services);
  try {
    const get = (q: string) => GET(new Request(`http://observatory.test/api/replay?${q}`));
    const from = Number(t0 / 1000n),
      to = from + 10;
    const got: ReplayEvent[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const res = await get(`from=${from}&to=${to}&limit=4${after ? `&after=${after}` : ''}`);
      assert.equal(res.status, 200);
      const page = ReplayPageSchema.parse(await res.json());
      assert.deepEqual([page.from, page.to], [from, to]);
      for (const e of page.events) assert.ok(LiveEventSchema.safeParse(e).success, 'a live message event');
      got.push(...page.events);
      after = page.next;
      pages++;
    } while (after && pages < 50);
    const want = items
      .map((it) => ({ ts: it.envelope.timestamp, id: toHex(it.id) }))
      .sort((a, b) => (a.ts === b.ts ? (a.id < b.id ? -1 : 1) : a.ts < b.ts ? -1 : 1));
    assert.deepEqual(
      got.map((e) => `${e.data.timestamp}:${e.data.id}`),
      want.map((w) => `${w.ts}:${w.id}`),
    );
    assert.equal(new Set(got.map((e) => e.data.id)).size, 30);

    // Defaults: the last five minutes.
    const recent = ReplayPageSchema.parse(await (await get('')).json());
    assert.equal(recent.to - recent.from, 300_000);
    assert.equal(recent.events.length, 30);

    for (const [q, name] of [
      ['from=x', 'from'],
      ['to=-1', 'to'],
      ['from=10&to=5', 'from'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['after=12:zz', 'after'],
      [`from=${from}&to=${to}&after=1:${'00'.repeat(32)}`, 'after'],
      ['speed=2', 'speed'],
      [`after=99999999999999999999:${'00'.repeat(32)}`, 'after'],
    ] as const) {
      const res = await get(q);
      assert.equal(res.status, 400, `${q}: ${res.status}`);
      const body = (await res.json()) as { error: string };
      assert.match(body.error, new RegExp(`"${name}"`), `${q}: ${body.error}`);
    }
  } finally {
    registerServices(undefined);
    await store.close();
  }
});

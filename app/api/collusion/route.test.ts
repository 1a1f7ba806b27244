// GET /api/collusion over a real store (PGlite in memory): a ring's answer validates against the
// documented schema with exact figures and links; bad query parameters are a 400 naming the
// parameter, never a 500.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildEnvelope } from '../../../lib/protocol/envelope';
import { toHex } from '../../../lib/protocol/hex';
import { encodeFeedback } from '../../../lib/protocol/payloads';
import { MsgType } from '../../../lib/protocol/types';
import { openStore, type Store } from '../../../lib/store';
import { type CollusionView, CollusionViewSchema } from '../../../lib/wire/collusion';
import { registerServices, type Services } from '../../_lib/services';
import { GET } from './route';

const T = 1_790_000_000_000_000n;
const id = (b: number) => new Uint8Array(32).fill(b);
let store: Store;
let nonce = 0n;
const ids: string[] = [];

function feedback(from: Uint8Array, target: Uint8Array, score: number, at: bigint) {
  nonce++;
  const c = new Uint8Array(16).fill(Number(nonce));
  const payload = encodeFeedback({
    conversationId: c,
    targetAgent: target,
    score,
    outcome: 2,
    isDispute: false,
    role: 0,
  });
  const b = buildEnvelope(
    {
      msgType: MsgType.FEEDBACK,
      sender: from,
      recipient: new Uint8Array(32),
      timestamp: T + at,
      nonce,
      conversationId: c,
      payload,
    },
    new Uint8Array(32).fill(from[0]),
  );
  ids.push(toHex(b.id));
  return { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'stream' as const, receivedAt: new Date() };
}

before(async () => {
  store = await openStore({ dataDir: ':memory:' });
  const [A, B] = [id(0x61), id(0x62)];
  await store.ingestEnvelopes([feedback(A, B, 99, 0n), feedback(B, A, 97, 2_500_000n)]);
  await store.upsertStake({ agentId: A, amount: 10_000_000n, status: 'locked', slot: 1n });
  registerServices({ observatory: {}, reads: store, config: {} } as unknown as Services);
});

after(async () => {
  registerServices(undefined);
  await store.close();
});

const get = async (query: string) => {
  const res = await GET(new Request(`http://localhost/api/collusion${query}`));
  return { status: res.status, body: (await res.json()) as unknown };
};

test(
  'a ring of two: reciprocal without a deal, raters ' + 'without deals, stake exact, in the documented shape',
  async () => {
    const r = await get('');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const v: CollusionView = CollusionViewSchema.parse(r.body);
    const [a, b] = [toHex(id(0x61)), toHex(id(0x62))];
    assert.deepEqual(
      v.reciprocal.map((x) => [
        x.agent,
        x.counterparts,
        x.counterpartsWithoutDeal,
        x.meanGiven,
        x.meanReceived,
        x.medianGapMs,
      ]),
      [
        [a, 1, 1, 99, 97, 2500],
        [b, 1, 1, 97, 99, 2500],
      ],
    );
    assert.deepEqual(
      v.reciprocal[0].pairs.map((p) => [p.latestGiven, p.latestReceived]),
      [[ids[0], ids[1]]],
    );
    assert.deepEqual(
      v.dealless.map((x) => [x.agent, x.fromDealless, x.meanScore, x.latest]),
      [
        [a, 1, 97, [ids[1]]],
        [b, 1, 99, [ids[0]]],
      ],
    );
    assert.deepEqual(v.concentration, []);
    assert.deepEqual(v.stakes, { [a]: { amount: '10000000', status: 'locked' } });
    assert.deepEqual(v.windows.feedback, { limit: 5_000, read: 2, truncated: false, oldestMs: Number(T / 1000n) });
    const one = CollusionViewSchema.parse((await get(`?agent=${b}&limit=1`)).body);
    assert.equal(one.agent, b);
    assert.deepEqual(
      one.reciprocal.map((x) => x.agent),
      [b],
    );
  },
);

test('bad query parameters are a 400 naming the parameter', async () => {
  for (const [q, name] of [
    ['?limit=0', 'limit'],
    ['?limit=abc', 'limit'],
    ['?window=99', 'window'],
    ['?window=100001', 'window'],
    ['?agent=xyz', 'agent'],
    ['?agent=0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl', 'agent'],
    ['?nope=1', 'nope'],
    ['?limit=1&limit=2', 'limit'],
  ] as const) {
    const r = await get(q);
    assert.equal(r.status, 400, `${q}: ${JSON.stringify(r.body)}`);
    assert.match((r.body as { error: string }).error, new RegExp(`"${name}"`), q);
  }
});

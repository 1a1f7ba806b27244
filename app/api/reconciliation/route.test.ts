// GET /api/reconciliation and /api/reconciliation/{agent}/{epoch} over a real store (PGlite in
// memory): answers validate against the schemas documented in lib/api/routes.ts with exact
// figures and the envelope ids behind them; bad input is a 400 naming the parameter, never a 500.

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { API_ROUTES } from '../../../lib/api/routes';
import { buildEnvelope } from '../../../lib/protocol/envelope';
import { toHex } from '../../../lib/protocol/hex';
import { MsgType } from '../../../lib/protocol/types';
import { openStore, type Store } from '../../../lib/store';
import { registerServices, type Services } from '../../_lib/services';
import { GET as detail } from './[agent]/[epoch]/route';
import { GET as list } from './route';

const T = 1_790_000_000_000_000n;
const E = 20717n;
const id = (b: number) => new Uint8Array(32).fill(b);
const [A, B] = [id(0x41), id(0x42)];
let store: Store;
let nonce = 0n;

function env(from: Uint8Array, to: Uint8Array, source: 'gossip' | 'stream' | 'upload', topic?: string) {
  nonce++;
  const b = buildEnvelope(
    {
      msgType: topic ? MsgType.ADVERTISE : MsgType.PROPOSE,
      sender: from,
      recipient: to,
      timestamp: T + nonce,
      nonce,
      conversationId: new Uint8Array(16).fill(Number(nonce)),
      payload: new Uint8Array([1]),
    },
    new Uint8Array(32).fill(from[0]),
  );
  return { id: b.id, envelope: b.envelope, raw: b.bytes, source, topic, receivedAt: new Date() };
}
const logged = env(A, B, 'stream');
const unlogged = env(A, new Uint8Array(32), 'gossip', '/0x01/v1/broadcast');
const unseen = env(B, A, 'upload');

before(async () => {
  store = await openStore({ dataDir: ':memory:' });
  await store.ingestEnvelopes([logged, unlogged, unseen]);
  await store.saveEpochLog(A, E, [logged.id, unseen.id]);
  await store.upsertBatch({ agentId: A, epoch: E, batchHash: id(0xee), root: id(1), slot: 1n });
  await store.setBatchStatus(A, E, 'verified', id(1));
  await store.saveEpochLog(B, E, [logged.id]);
  await store.upsertBatch({ agentId: B, epoch: E, batchHash: id(0xee), root: id(2), slot: 2n });
  await store.setBatchStatus(B, E, 'mismatch', id(3));
  registerServices({ observatory: {}, reads: store, config: {} } as unknown as Services);
});

after(async () => {
  registerServices(undefined);
  await store.close();
});

const schemaOf = (path: string) => API_ROUTES.find((r) => r.path === path)!.ok;
const getList = async (query: string) => {
  const res = await list(new Request(`http://localhost/api/reconciliation${query}`));
  return { status: res.status, body: (await res.json()) as unknown };
};
const getDetail = async (agent: string, epoch: string, query = '') => {
  const res = await detail(new Request(`http://localhost/api/reconciliation/${agent}/${epoch}${query}`), {
    params: Promise.resolve({ agent, epoch }),
  });
  return { status: res.status, body: (await res.json()) as unknown };
};

test('every route file here has a documented row', () => {
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const files = (function walk(d: string): string[] {
    return readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : e.name === 'route.ts' ? [join(d, e.name)] : [],
    );
  })(dir);
  const paths = files
    .map(
      (f) =>
        `/api/reconciliation${relative(dir, f)
          .replace(/\/?route\.ts$/, '')
          .replace(/\[(\w+)\]/g, '{$1}')
          .replace(/^(.)/, '/$1')}`,
    )
    .sort();
  assert.deepEqual(paths, ['/api/reconciliation', '/api/reconciliation/{agent}/{epoch}']);
  for (const p of paths)
    assert.ok(
      API_ROUTES.some((r) => r.path === p && r.method === 'get'),
      p,
    );
});

test('totals and rows: exact figures in the documented shape; a mismatch is unknown, not compared', async () => {
  const r = await getList('');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const v = schemaOf('/api/reconciliation').parse(
    r.body,
  ) as import('../../../lib/wire/reconciliation').ReconciliationView;
  assert.deepEqual(
    [v.totals.verified, v.totals.mismatch, v.totals.seen, v.totals.seenNotLogged, v.totals.loggedNotSeen],
    [1, 1, 2, 1, 1],
  );
  assert.deepEqual(v.totals.topics.broadcast, { seen: 1, committed: 0, share: 0 });
  assert.deepEqual(v.totals.topics.stream, { seen: 1, committed: 1, share: 1 });
  assert.deepEqual(v.totals.topics.notary, { seen: 0, committed: 0, share: null });
  const b = v.rows.find((x) => x.agent === toHex(B))!;
  assert.deepEqual([b.status, b.seen, b.seenNotLogged, b.topics], ['mismatch', null, null, null]);
  assert.match(b.unknownReason ?? '', /not match/);
  const one = schemaOf('/api/reconciliation').parse(
    (await getList(`?agent=${toHex(A)}&limit=1`)).body,
  ) as import('../../../lib/wire/reconciliation').ReconciliationView;
  assert.deepEqual(
    one.rows.map((x) => [x.agent, x.epoch, x.seenNotLogged, x.loggedNotSeen, x.unknownReason]),
    [[toHex(A), E.toString(), 1, 1, null]],
  );
});

test('one agent-epoch live: the ids behind each figure', async () => {
  const r = await getDetail(toHex(A), E.toString());
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const d = schemaOf('/api/reconciliation/{agent}/{epoch}').parse(
    r.body,
  ) as import('../../../lib/wire/reconciliation').ReconciliationDetailView;
  assert.equal(d.status, 'verified');
  assert.deepEqual(
    d.live?.seenNotLoggedIds.map((x) => x.id),
    [toHex(unlogged.id)],
  );
  assert.deepEqual(
    d.live?.loggedNotSeenIds.map((x) => [x.id, x.via]),
    [[toHex(unseen.id), 'upload']],
  );
  assert.deepEqual(
    d.live?.topics.broadcast.notCommittedIds.map((x) => x.id),
    [toHex(unlogged.id)],
  );
  const none = schemaOf('/api/reconciliation/{agent}/{epoch}').parse(
    (await getDetail(toHex(A), '5')).body,
  ) as import('../../../lib/wire/reconciliation').ReconciliationDetailView;
  assert.deepEqual([none.status, none.live, none.stored], [null, null, null]);
  assert.match(none.unknownReason ?? '', /no batch/);
});

test('bad input is a 400 naming the parameter', async () => {
  for (const [q, name] of [
    ['?limit=0', 'limit'],
    ['?limit=501', 'limit'],
    ['?limit=x', 'limit'],
    ['?agent=xyz', 'agent'],
    ['?nope=1', 'nope'],
    ['?agent=0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl', 'agent'],
  ] as const) {
    const r = await getList(q);
    assert.equal(r.status, 400, `${q}: ${JSON.stringify(r.body)}`);
    assert.match((r.body as { error: string }).error, new RegExp(`"${name}"`), q);
  }
  for (const [agent, epoch, query, name] of [
    ['xyz', '1', '', 'agent'],
    [toHex(A), '-1', '', 'epoch'],
    [toHex(A), '9223372036854775808', '', 'epoch'],
    [toHex(A), 'abc', '', 'epoch'],
    [toHex(A), '1', '?x=1', 'x'],
  ] as const) {
    const r = await getDetail(agent, epoch, query);
    assert.equal(r.status, 400, `${agent} ${epoch} ${query}: ${JSON.stringify(r.body)}`);
    assert.match((r.body as { error: string }).error, new RegExp(`"${name}"`));
  }
});

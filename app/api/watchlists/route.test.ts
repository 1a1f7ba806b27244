// The watchlist and alert routes over a real store (PGlite in memory) and the real alert service:
// the token gates every call (403 with a sentence), items take agent ids in hex or base58, caps
// answer 409, rules and webhooks are checked (a loopback webhook is refused), a wallet binds with
// a real ed25519 signature of the exact message and brings its agents, the list follows the
// wallet to another browser, alerts list, count and mark read; bad input is a 4xx naming the
// problem, never a 500, and answers match the documented schemas (lib/api/routes.ts).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import bs58 from 'bs58';
import { createAlertService, DEFAULT_CAPS, walletMessage } from '../../../lib/alerts/service';
import { API_ROUTES } from '../../../lib/api/routes';
import { ed25519Sign, publicKeyFromSeed } from '../../../lib/protocol/crypto';
import { openStore, type Store } from '../../../lib/store';
import { registerServices, type Services } from '../../_lib/services';
import { POST as markRead } from '../alerts/read/route';
import { GET as listAlerts } from '../alerts/route';
import { GET as unread } from '../alerts/unread/route';
import { DELETE as deleteItem, PUT as putItem } from './[id]/items/route';
import { GET as getList } from './[id]/route';
import { PUT as putRule } from './[id]/rules/[kind]/route';
import { POST as bindWallet } from './[id]/wallet/route';
import { DELETE as deleteWebhook } from './[id]/webhooks/[webhookId]/route';
import { POST as addWebhook } from './[id]/webhooks/route';
import { POST as byWallet } from './by-wallet/route';
import { POST as create } from './route';

let store: Store;
const OWNED = new Uint8Array(32).fill(0x77);
const SEED = new Uint8Array(32).fill(9);
const WALLET = bs58.encode(publicKeyFromSeed(SEED));

before(async () => {
  store = await openStore({ dataDir: ':memory:' });
  const alerts = createAlertService({
    store: store.alerts,
    signatures: store.usedSignatures,
    caps: { ...DEFAULT_CAPS, agents: 3, rules: 7 },
    allowPrivateWebhooks: false,
    ownedAgents: async (w) => (bs58.encode(w) === WALLET ? [OWNED] : []),
  });
  registerServices({ observatory: { store }, reads: {}, config: {}, alerts } as unknown as Services);
});

after(async () => {
  registerServices(undefined);
  await store.close();
});

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
async function call(
  h: Handler,
  method: string,
  path: string,
  o: { token?: string; body?: unknown; raw?: string; params?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = {};
  if (o.token) headers['x-watchlist-token'] = o.token;
  if (o.body !== undefined || o.raw !== undefined) headers['content-type'] = 'application/json';
  const res = await h(
    new Request(`http://localhost${path}`, {
      method,
      headers,
      body: o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body)),
    }),
    { params: Promise.resolve(o.params ?? {}) },
  );
  const body = (await res.json()) as Record<string, unknown>;
  assert.ok(res.status < 500, `${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return { status: res.status, body };
}
const schema = (method: string, path: string) => API_ROUTES.find((r) => r.method === method && r.path === path)!.ok;

test('a watchlist from creation to alerts, through every route, and refusals with sentences', async () => {
  const made = await call(create as unknown as Handler, 'POST', '/api/watchlists');
  assert.equal(made.status, 201);
  schema('post', '/api/watchlists').parse(made.body);
  const { id, token } = made.body as { id: string; token: string };
  assert.match(id, /^[A-Za-z0-9_-]{22}$/);
  const p = { id };

  // The token gates the list.
  for (const [tok, re] of [
    [undefined, /needs its token/],
    ['wrong', /not a token of this watchlist/],
  ] as const) {
    const r = await call(getList as unknown as Handler, 'GET', `/api/watchlists/${id}`, { token: tok, params: p });
    assert.equal(r.status, 403);
    assert.match(r.body.error as string, re);
  }
  assert.equal(
    (await call(getList as unknown as Handler, 'GET', '/api/watchlists/short', { token, params: { id: 'short' } }))
      .status,
    400,
  );

  // Items: the same agent in hex and base58 is one item; a conversation; the cap.
  const agentHex = 'ab'.repeat(32);
  const agent58 = bs58.encode(Buffer.from(agentHex, 'hex'));
  assert.deepEqual(
    (
      await call(putItem as unknown as Handler, 'PUT', `/api/watchlists/${id}/items`, {
        token,
        params: p,
        body: { kind: 'agent', target: agentHex },
      })
    ).body,
    { added: true },
  );
  assert.deepEqual(
    (
      await call(putItem as unknown as Handler, 'PUT', `/api/watchlists/${id}/items`, {
        token,
        params: p,
        body: { kind: 'agent', target: agent58 },
      })
    ).body,
    { added: false },
  );
  assert.deepEqual(
    (
      await call(putItem as unknown as Handler, 'PUT', `/api/watchlists/${id}/items`, {
        token,
        params: p,
        body: { kind: 'conversation', target: 'cd'.repeat(16) },
      })
    ).body,
    { added: true },
  );
  const badTarget = await call(putItem as unknown as Handler, 'PUT', `/api/watchlists/${id}/items`, {
    token,
    params: p,
    body: { kind: 'agent', target: 'nope' },
  });
  assert.equal(badTarget.status, 400);
  assert.match(badTarget.body.error as string, /target.*64 hex characters or a base58/);
  assert.match(
    (
      await call(putItem as unknown as Handler, 'PUT', `/api/watchlists/${id}/items`, {
        token,
        params: p,
        body: { kind: 'robot', target: agentHex },
      })
    ).body.error as string,
    /field "kind"/,
  );
  assert.match(
    (
      await call(putItem as unknown as Handler, 'PUT', `/api/watchlists/${id}/items`, {
        token,
        params: p,
        raw: '{"kind":',
      })
    ).body.error as string,
    /not JSON/,
  );
  for (const b of [0x01, 0x02])
    await call(putItem as unknown as Handler, 'PUT', `/api/watchlists/${id}/items`, {
      token,
      params: p,
      body: { kind: 'agent', target: Buffer.alloc(32, b).toString('hex') },
    });
  const capped = await call(putItem as unknown as Handler, 'PUT', `/api/watchlists/${id}/items`, {
    token,
    params: p,
    body: { kind: 'agent', target: Buffer.alloc(32, 3).toString('hex') },
  });
  assert.equal(capped.status, 409);
  assert.match(capped.body.error as string, /already watches 3 agents/);
  assert.deepEqual(
    (
      await call(
        deleteItem as unknown as Handler,
        'DELETE',
        `/api/watchlists/${id}/items?kind=agent&target=${Buffer.alloc(32, 2).toString('hex')}`,
        { token, params: p },
      )
    ).body,
    { removed: true },
  );

  // Rules: kinds and params are checked; the cap of enabled rules (6 are on by default, cap 7).
  const rule = (kind: string, body: unknown) =>
    call(putRule as unknown as Handler, 'PUT', `/api/watchlists/${id}/rules/${kind}`, {
      token,
      params: { id, kind },
      body,
    });
  assert.deepEqual((await rule('offline', { enabled: true, params: { minutes: 3 } })).body, {
    kind: 'offline',
    enabled: true,
    params: { minutes: 3 },
  });
  assert.match(
    (await rule('sleepy', { enabled: true })).body.error as string,
    /rule kind "sleepy": must be one of offline, lease_due/,
  );
  assert.match(
    (await rule('offline', { enabled: true, params: { minutes: 0 } })).body.error as string,
    /rule offline: parameter "minutes"/,
  );
  assert.match(
    (await rule('offline', { enabled: true, params: { hours: 1 } })).body.error as string,
    /unknown parameter hours/,
  );
  assert.match((await rule('offline', { params: {} })).body.error as string, /field "enabled"/);
  assert.equal((await rule('dispute', { enabled: true })).status, 200);
  const over = await rule('slashed', { enabled: true });
  assert.equal(over.status, 200, 'already on: not a new rule');
  const tooMany = await rule('drops_rate', { enabled: true });
  assert.equal(tooMany.status, 409);
  assert.match(tooMany.body.error as string, /already has 7 rules on/);

  // Webhooks: loopback refused, bad format refused, a public address accepted, then deleted.
  const hook = (body: unknown) =>
    call(addWebhook as unknown as Handler, 'POST', `/api/watchlists/${id}/webhooks`, { token, params: p, body });
  const loop = await hook({ url: 'http://127.0.0.1:8080/x', format: 'json' });
  assert.equal(loop.status, 400);
  assert.match(loop.body.error as string, /^url: 127\.0\.0\.1 is not a public address; loopback, private/);
  assert.match(
    (await hook({ url: 'http://169.254.169.254/latest', format: 'json' })).body.error as string,
    /non-public/,
  );
  assert.match(
    (await hook({ url: 'https://93.184.216.34/x', format: 'teams' })).body.error as string,
    /field "format"/,
  );
  assert.match(
    (await hook({ url: 'https://93.184.216.34/x', format: 'json', secret: 'short' })).body.error as string,
    /secret: must be a string of 16 to 256/,
  );
  const added = await hook({ url: 'https://93.184.216.34/x', format: 'slack', secret: 's'.repeat(20) });
  assert.equal(added.status, 201);
  schema('post', '/api/watchlists/{id}/webhooks').parse(added.body);

  const view = await call(getList as unknown as Handler, 'GET', `/api/watchlists/${id}`, { token, params: p });
  assert.equal(view.status, 200);
  const v = schema('get', '/api/watchlists/{id}').parse(view.body) as {
    items: Array<{ kind: string; target: string }>;
    rules: Array<{ kind: string; enabled: boolean }>;
    webhooks: Array<{ id: string; status: string; hasSecret: boolean }>;
    caps: unknown;
    wallet: string | null;
  };
  assert.deepEqual(
    v.items.map((i) => `${i.kind}:${i.target.slice(0, 4)}`),
    ['agent:abab', 'conversation:cdcd', 'agent:0101'],
  );
  assert.equal(v.rules.length, 12);
  assert.deepEqual(
    v.webhooks.map((w) => [w.status, w.hasSecret]),
    [['new', true]],
  );
  assert.deepEqual(v.caps, { agents: 3, rules: 7, deliveriesPerHour: 60 });
  const webhookId = v.webhooks[0].id;
  assert.deepEqual(
    (
      await call(deleteWebhook as unknown as Handler, 'DELETE', `/api/watchlists/${id}/webhooks/${webhookId}`, {
        token,
        params: { id, webhookId },
      })
    ).body,
    { removed: true },
  );
  assert.equal(
    (
      await call(deleteWebhook as unknown as Handler, 'DELETE', `/api/watchlists/${id}/webhooks/${webhookId}`, {
        token,
        params: { id, webhookId },
      })
    ).status,
    404,
  );

  // A wallet binds with its signature and brings its agent (the list has room for one more).
  const sign = (m: string) => bs58.encode(ed25519Sign(new TextEncoder().encode(m), SEED));
  const msg = walletMessage(id, WALLET, new Date());
  const stale = walletMessage(id, WALLET, new Date(Date.now() - 11 * 60_000));
  const bind = (body: unknown) =>
    call(bindWallet as unknown as Handler, 'POST', `/api/watchlists/${id}/wallet`, { token, params: p, body });
  assert.match(
    (await bind({ address: WALLET, message: stale, signature: sign(stale) })).body.error as string,
    /more than 10 minutes from now/,
  );
  const forged = await bind({ address: WALLET, message: msg, signature: sign(msg.replace('owned', 'owed')) });
  assert.equal(forged.status, 403);
  assert.match(forged.body.error as string, /does not verify/);
  assert.match(
    (await bind({ address: WALLET, message: walletMessage('A'.repeat(22), WALLET, new Date()), signature: 'x' })).body
      .error as string,
    /names watchlist AAAA/,
  );
  const bound = await bind({ address: WALLET, message: msg, signature: sign(msg) });
  assert.deepEqual(bound.body, { wallet: WALLET, agentsOwned: 1, agentsAdded: 1 });
  assert.equal(
    (await bind({ address: WALLET, message: msg, signature: sign(msg) })).status,
    409,
    'a signature buys one binding',
  );
  const after = schema('get', '/api/watchlists/{id}').parse(
    (await call(getList as unknown as Handler, 'GET', `/api/watchlists/${id}`, { token, params: p })).body,
  ) as typeof v;
  assert.equal(after.wallet, WALLET);
  assert.ok(after.items.some((i) => i.target === Buffer.from(OWNED).toString('hex')));

  // Another browser: the list follows the wallet, with a token of its own.
  const adopt = walletMessage('*', WALLET, new Date());
  const other = await call(byWallet as unknown as Handler, 'POST', '/api/watchlists/by-wallet', {
    body: { address: WALLET, message: adopt, signature: sign(adopt) },
  });
  assert.equal(other.status, 200);
  assert.equal(other.body.id, id);
  assert.notEqual(other.body.token, token);
  assert.equal(
    (
      await call(getList as unknown as Handler, 'GET', `/api/watchlists/${id}`, {
        token: other.body.token as string,
        params: p,
      })
    ).status,
    200,
  );
  assert.equal(
    (await call(getList as unknown as Handler, 'GET', `/api/watchlists/${id}`, { token, params: p })).status,
    200,
    'the first browser keeps its token',
  );
  assert.equal(
    (await call(byWallet as unknown as Handler, 'POST', '/api/watchlists/by-wallet', { body: { address: 'x' } }))
      .status,
    400,
  );

  // Alerts: listed with the token, counted, marked read.
  const [a1, a2] = await store.alerts.insertAlerts([
    {
      watchlistId: id,
      agent: Buffer.from(agentHex, 'hex'),
      kind: 'offline',
      subject: '',
      dedupeKey: '',
      why: 'no envelope for 11 min',
      throttled: false,
      at: new Date(1_790_000_000_000),
    },
    {
      watchlistId: id,
      agent: Buffer.from(agentHex, 'hex'),
      kind: 'slashed',
      subject: 'sig',
      dedupeKey: 'sig',
      why: 'slashed 10',
      throttled: false,
      at: new Date(1_790_000_001_000),
    },
  ]);
  await store.alerts.clearAlerts([{ id: a1.id, why: 'spoke again', at: new Date(1_790_000_002_000), keepKey: false }]);
  const listed = await call(listAlerts as unknown as Handler, 'GET', `/api/alerts?watchlist=${id}`, { token });
  const l = schema('get', '/api/alerts').parse(listed.body) as {
    alerts: Array<{ id: string; kind: string; state: string; clearedWhy: string | null }>;
    unread: number;
  };
  assert.deepEqual(
    l.alerts.map((a) => [a.kind, a.state, a.clearedWhy]),
    [
      ['slashed', 'open', null],
      ['offline', 'cleared', 'spoke again'],
    ],
  );
  assert.equal(l.unread, 2);
  const open = await call(
    listAlerts as unknown as Handler,
    'GET',
    `/api/alerts?watchlist=${id}&state=open&agent=${agent58}&limit=5`,
    { token },
  );
  assert.deepEqual(
    (open.body.alerts as Array<{ id: string }>).map((a) => a.id),
    [a2.id.toString()],
  );
  assert.deepEqual(
    Array.isArray(
      (await call(listAlerts as unknown as Handler, 'GET', `/api/alerts?watchlist=${id}&before=${a2.id}`, { token }))
        .body.alerts,
    ),
    true,
  );
  assert.match(
    (await call(listAlerts as unknown as Handler, 'GET', `/api/alerts?watchlist=${id}&state=shut`, { token })).body
      .error as string,
    /query parameter "state"/,
  );
  assert.equal((await call(listAlerts as unknown as Handler, 'GET', `/api/alerts?watchlist=${id}`)).status, 403);
  assert.deepEqual(
    (await call(unread as unknown as Handler, 'GET', `/api/alerts/unread?watchlist=${id}`, { token })).body,
    { unread: 2 },
  );
  assert.match(
    (await call(markRead as unknown as Handler, 'POST', '/api/alerts/read', { token, body: { watchlist: id } })).body
      .error as string,
    /either "ids"/,
  );
  assert.deepEqual(
    (
      await call(markRead as unknown as Handler, 'POST', '/api/alerts/read', {
        token,
        body: { watchlist: id, ids: [a2.id.toString()] },
      })
    ).body,
    { marked: 1, unread: 1 },
  );
  assert.deepEqual(
    (
      await call(markRead as unknown as Handler, 'POST', '/api/alerts/read', {
        token,
        body: { watchlist: id, all: true },
      })
    ).body,
    { marked: 1, unread: 0 },
  );
  assert.equal(
    (
      await call(markRead as unknown as Handler, 'POST', '/api/alerts/read', {
        token: 'nope',
        body: { watchlist: id, all: true },
      })
    ).status,
    403,
  );
});

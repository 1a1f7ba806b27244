/**
 * The API against a running demo (store, embedded chain, observer, indexer, three demo agents on
 * 5-second epochs), every app/api route file served over HTTP (./api-testing.ts):
 * - each route file and method is in the OpenAPI document, and each documented route has a file;
 * - real answers validate against the document's own JSON Schemas (ajv, draft 2020-12, the
 *   dialect of OpenAPI 3.1), not against the zod schemas they were generated from;
 * - search finds agents by hex, base58 and prefix, conversations, envelopes, batches, challenges;
 * - bad input gets a 4xx naming the problem;
 * - the SDK's own MCP client lists and calls every tool, answers checked against the REST API;
 * - `npm run mcp`'s stdio bridge serves the same tools to a stdio client.
 */

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_TOOLS } from '../lib/mcp/server';
import { buildEnvelope } from '../lib/protocol/envelope';
import { MsgType } from '../lib/protocol/types';
import type {
  AgentList,
  BatchList,
  ChallengeList,
  ConversationList,
  ConversationView,
  DatasetReleaseList,
  EnvelopePage,
  HealthReport,
  SearchResult,
} from '../lib/wire';
import type { DisputeListView } from '../lib/wire/disputes';
import type { MeshHealthView } from '../lib/wire/mesh-health';
import { scorePoints } from '../lib/wire/score';
import { checkDownloadRoute, documentedMediaTypeOf } from './api-downloads-testing';
import {
  type ApiDocument,
  type ApiHarness,
  documentChecker,
  ROOT,
  stable,
  startApiHarness,
  until,
} from './api-testing';

let h: ApiHarness;
let doc: ApiDocument;
let conforms: ReturnType<typeof documentChecker>;
let documentedMediaType: ReturnType<typeof documentedMediaTypeOf>;

before(async () => {
  h = await startApiHarness({ RATE_LIMIT_API: '1000:100000', RATE_LIMIT_MCP: '1000:100000' });
  doc = (await h.getJson<ApiDocument>('/api/openapi.json')).body;
  conforms = documentChecker(doc);
  documentedMediaType = documentedMediaTypeOf(doc);
  await until('a verified batch, a negotiation and a challenge', 150_000, async () => {
    const [b, c, ch] = await Promise.all([
      h.getJson<BatchList>('/api/batches?status=verified'),
      h.getJson<ConversationList>('/api/conversations'),
      h.getJson<ChallengeList>('/api/challenges'),
    ]);
    return (
      b.body.batches.length > 0 &&
      c.body.conversations.filter((x) => x.state?.startsWith('completed')).length >= 2 &&
      ch.body.challenges.length > 0
    );
  });
});

after(async () => {
  await h?.stop();
});

test('every route file and method is in the OpenAPI document, and every documented route has a file', () => {
  const files = new Set<string>();
  for (const r of h.routes) {
    for (const m of r.methods) {
      files.add(`${m.toLowerCase()} ${r.path}`);
      assert.ok(doc.paths[r.path]?.[m.toLowerCase()], `${m} ${r.path} (${r.file}) is missing from /api/openapi.json`);
    }
  }
  for (const [path, item] of Object.entries(doc.paths))
    for (const m of Object.keys(item))
      assert.ok(files.has(`${m} ${path}`), `${m} ${path} is documented but has no route file`);
});

test('real answers of every route validate against their documented schema', async () => {
  const agents = (await h.getJson<AgentList>('/api/agents')).body.agents;
  const conv = (await h.getJson<ConversationList>('/api/conversations')).body.conversations[0];
  const batch = (await h.getJson<BatchList>('/api/batches?status=verified')).body.batches[0];
  const envelopeId = (await h.getJson<EnvelopePage>('/api/envelopes?limit=1')).body.envelopes[0].id;
  const job = 'walker-export-1';
  // A DISPUTE for /api/disputes/{id}: the demo's (a failing verdict contested), else one stored for
  // the walk, a seller contesting the first conversation (the route reads the store, not the mesh).
  let disputeId = (await h.getJson<DisputeListView>('/api/disputes')).body.disputes[0]?.id;
  if (!disputeId) {
    const seed = new Uint8Array(32).fill(0xd1);
    const b = buildEnvelope(
      {
        msgType: MsgType.DISPUTE,
        sender: seed,
        recipient: new Uint8Array(32).fill(0xd2),
        conversationId: Buffer.from(conv.id, 'hex'),
        nonce: 1n,
        timestamp: BigInt(Date.now()) * 1000n,
        payload: new Uint8Array([1]),
      },
      seed,
    );
    await h.runtime.store.ingestEnvelopes([
      { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'upload', receivedAt: new Date() },
    ]);
    disputeId = Buffer.from(b.id).toString('hex');
  }
  const fill: Record<string, string> = { '{id}': agents[0].id, '{agent}': batch.agentAddress, '{epoch}': batch.epoch };
  const urls: Record<string, string> = {
    '/api/conversations/{id}': `/api/conversations/${conv.id}`,
    '/api/conversations/{id}/negotiation': `/api/conversations/${conv.id}/negotiation`,
    '/api/envelopes/{id}/raw': `/api/envelopes/${envelopeId}/raw`,
    '/api/envelopes/{id}/inclusion': `/api/envelopes/${envelopeId}/inclusion`,
    '/api/batches/challengeable': `/api/batches/challengeable?agent=${batch.agentAddress}&epoch=${batch.epoch}`,
    '/api/search': `/api/search?q=${agents[0].id.slice(0, 6)}`,
    '/api/export/progress': `/api/export/progress?job=${job}`,
    '/api/stats/series': '/api/stats/series?metric=negotiations&range=1h',
    '/api/disputes/{id}': `/api/disputes/${disputeId}`,
  };
  // A finished epoch's release (written one epoch after it ends) for the datasets file route.
  const releases = await until('a dataset release', 60_000, async () => {
    const l = (await h.getJson<DatasetReleaseList>('/api/datasets')).body.releases;
    return l.length > 0 && l;
  });
  // An export with a job id first, so the progress route below has one to report.
  await (await fetch(`${h.base}/api/export/offers?format=jsonl&job=${job}`)).arrayBuffer();
  // Watchlist and alert reads carry the list's token in a header (getJson sends none); by-wallet
  // needs a wallet's signature and is checked in app/api/watchlists/route.test.ts.
  const wl = (await (await fetch(`${h.base}/api/watchlists`, { method: 'POST' })).json()) as {
    id: string;
    token: string;
  };
  const withToken: Record<string, string> = {
    '/api/watchlists/{id}': `/api/watchlists/${wl.id}`,
    '/api/alerts': `/api/alerts?watchlist=${wl.id}`,
    '/api/alerts/unread': `/api/alerts/unread?watchlist=${wl.id}`,
  };
  const getWithToken = async (path: string) => {
    const res = await fetch(h.base + path, { headers: { 'x-watchlist-token': wl.token } });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  let checked = 0;
  for (const r of h.routes.filter((x) => x.methods.includes('GET'))) {
    if (r.path === '/api/watchlists/by-wallet') continue;
    if (await checkDownloadRoute(r.path, { h, convId: conv.id, releases, documentedMediaType, conforms })) {
      checked++;
      continue;
    }
    const url = withToken[r.path] ?? urls[r.path] ?? r.path.replace(/\{\w+\}/g, (p) => fill[p]);
    const res = withToken[r.path] ? await getWithToken(url) : await h.getJson(url);
    if (r.path === '/api/mcp') {
      assert.equal(res.status, 405);
    }
    const status = r.path === '/api/health' && res.status === 503 ? 503 : res.status;
    assert.ok(
      status === 200 || r.path === '/api/mcp',
      `${url} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
    );
    conforms('get', r.path, status, res.body);
    checked++;
  }
  assert.ok(checked >= 14, `checked ${checked} GET routes`);
  const health = (await h.getJson<HealthReport>('/api/health')).body;
  assert.ok(
    health.memory && health.memory.rss > 0 && health.memory.heapUsed > 0,
    `memory: ${JSON.stringify(health.memory)}`,
  );
  assert.equal(
    Boolean(health.memory.chainThread),
    Boolean(h.runtime.chain?.threadMemory),
    'the chain thread reported where there is one',
  );
  // One process on PGlite leads every run-once role it runs (lib/store/leader/leader.ts).
  assert.deepEqual(
    health.leaders?.map((l) => `${l.role}:${l.leading}`),
    [...(h.runtime.chain ? ['indexer:true'] : []), 'alerts:true', 'releases:true'],
  );
  // POST routes: a re-upload of a stored envelope, a log that is not CBOR, a raw MCP initialize.
  const stored = (await h.getJson<EnvelopePage>('/api/envelopes?limit=1')).body.envelopes[0];
  const raw = (await h.runtime.store.getEnvelope(Uint8Array.from(Buffer.from(stored.id, 'hex'))))!.raw;
  const post = async (path: string, body: Uint8Array | string, type: string) => {
    const res = await fetch(h.base + path, {
      method: 'POST',
      headers: { 'content-type': type, accept: 'application/json, text/event-stream' },
      body: typeof body === 'string' ? body : Buffer.from(body),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const upload = await post(
    '/api/ingest/envelopes',
    Uint8Array.from([0x81, 0x59, raw.length >> 8, raw.length & 0xff, ...raw]),
    'application/cbor',
  );
  assert.equal(upload.status, 200, JSON.stringify(upload.body));
  conforms('post', '/api/ingest/envelopes', 200, upload.body);
  assert.deepEqual((upload.body as { results: unknown[] }).results, [
    { index: 0, ok: true, id: stored.id, duplicate: true },
  ]);
  const badLog = await post('/api/ingest/log', Uint8Array.from([0xff]), 'application/cbor');
  assert.equal(badLog.status, 400);
  conforms('post', '/api/ingest/log', 400, badLog.body);
  const init = await post(
    '/api/mcp',
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
    'application/json',
  );
  assert.equal(init.status, 200);
  conforms('post', '/api/mcp', 200, init.body);
  // Lists with filters and cursors: two pages of one conversation each never repeat a row.
  const p1 = (await h.getJson<ConversationList>('/api/conversations?limit=1&range=24h')).body;
  conforms('get', '/api/conversations', 200, p1);
  assert.ok(p1.next, 'a first page of one has a next cursor');
  const p2 = (await h.getJson<ConversationList>(`/api/conversations?limit=1&range=24h&before=${p1.next}`)).body;
  assert.notEqual(p2.conversations[0]?.id, p1.conversations[0].id);
  const env = (await h.getJson<EnvelopePage>(`/api/envelopes?type=PROPOSE&limit=2`)).body;
  conforms('get', '/api/envelopes', 200, env);
  assert.ok(env.envelopes.every((e) => e.type === 'PROPOSE'));
});

test('lists filter, sort and page: agents by stake, reputation, envelopes; envelopes by time window', async () => {
  type Agents = AgentList & {
    next: string | null;
    agents: Array<AgentList['agents'][number] & { stake?: { status: string } | null }>;
  };
  const all = (await h.getJson<Agents>('/api/agents')).body;
  conforms('get', '/api/agents', 200, all);
  // Each sort pages with its own cursor: two pages of one never repeat a row.
  for (const [path, items] of [
    ['/api/batches?sort=slot', 'batches'],
    ['/api/challenges?order=desc', 'challenges'],
    ['/api/conversations?sort=messages', 'conversations'],
  ] as const) {
    const key = (x: { id?: string; address?: string; agent?: string; epoch?: string }) =>
      x.id ?? x.address ?? `${x.agent}/${x.epoch}`;
    const p1 = (await h.getJson<Record<string, unknown[]> & { next: string | null }>(`${path}&limit=1`)).body;
    conforms('get', path.split('?')[0], 200, p1);
    if (!p1.next) continue; // a single challenge so far: nothing to page
    const p2 = (
      await h.getJson<Record<string, unknown[]> & { next: string | null }>(`${path}&limit=1&before=${p1.next}`)
    ).body;
    assert.notEqual(key(p2[items][0] as never), key(p1[items][0] as never), `${path}: page 2 moves on`);
  }
  const p1 = (await h.getJson<Agents>('/api/agents?sort=envelopes&limit=2')).body;
  conforms('get', '/api/agents', 200, p1);
  assert.ok(p1.next && p1.agents.length === 2);
  const p2 = (await h.getJson<Agents>(`/api/agents?sort=envelopes&limit=2&before=${p1.next}`)).body;
  const seen = [...p1.agents, ...p2.agents];
  assert.equal(new Set(seen.map((a) => a.id)).size, seen.length, 'pages do not overlap');
  for (let i = 1; i < seen.length; i++)
    assert.ok((seen[i - 1].envelopes ?? 0) >= (seen[i].envelopes ?? 0), 'descending by envelopes');

  const locked = (await h.getJson<Agents>('/api/agents?stake=locked')).body.agents;
  assert.ok(locked.length > 0 && locked.every((a) => a.stake?.status === 'locked'));
  assert.ok((await h.getJson<Agents>('/api/agents?stake=none')).body.agents.every((a) => !a.stake));
  await stable(async () => {
    const now = (await h.getJson<Agents>('/api/agents')).body.agents;
    const rated = now
      .filter((a) => a.reputation)
      .sort((a, b) => Number(BigInt(b.reputation!.reliabilityScore) - BigInt(a.reputation!.reliabilityScore)));
    assert.ok(rated.length >= 2, 'the demo agents rated each other (the gossip fold of their FEEDBACK)');
    const min = rated[1].reputation!.reliabilityScore;
    const top = (await h.getJson<Agents>(`/api/agents?minReliability=${scorePoints(min)}&sort=reliability`)).body
      .agents;
    assert.deepEqual(
      top.map((a) => a.id).sort(),
      rated
        .filter((a) => BigInt(a.reputation!.reliabilityScore) >= BigInt(min))
        .map((a) => a.id)
        .sort(),
    );
    const r1 = (await h.getJson<Agents>('/api/agents?sort=reliability&limit=1')).body;
    const r2 = (await h.getJson<Agents>(`/api/agents?sort=reliability&limit=1&before=${r1.next}`)).body;
    assert.equal(
      r1.agents[0].reputation?.reliabilityScore,
      rated[0].reputation!.reliabilityScore,
      'highest reliability first',
    );
    assert.ok(
      BigInt(r2.agents[0].reputation?.reliabilityScore ?? -1) <= BigInt(r1.agents[0].reputation!.reliabilityScore) &&
        r2.agents[0].id !== r1.agents[0].id,
    );
  });
  assert.ok((await h.getJson<Agents>('/api/agents?online=true')).body.agents.every((a) => a.online));

  const recent = (await h.getJson<EnvelopePage>('/api/envelopes?range=1h&limit=5')).body;
  conforms('get', '/api/envelopes', 200, recent);
  assert.equal(recent.envelopes.length, 5);
  const future = (await h.getJson<EnvelopePage>(`/api/envelopes?from=${Date.now() + 3_600_000}`)).body;
  assert.deepEqual(future.envelopes, []);
  const t = recent.envelopes[4].timestampMs;
  const window = (await h.getJson<EnvelopePage>(`/api/envelopes?from=${t}&to=${t}&limit=500`)).body.envelopes;
  assert.ok(window.length >= 1 && window.every((e) => Math.floor(e.timestampMs) === Math.floor(t)));
});

test('search: hex, prefix, base58, agent epoch, envelope, challenge; a direct hit names its page', async () => {
  const batch = (await h.getJson<BatchList>('/api/batches?status=verified')).body.batches[0];
  const s = async (q: string) => {
    const r = await h.getJson<SearchResult>(`/api/search?q=${encodeURIComponent(q)}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    conforms('get', '/api/search', 200, r.body);
    return r.body;
  };
  const full = await s(batch.agent);
  assert.equal(full.direct, `/agents/${batch.agent}`);
  assert.equal((await s(batch.agentAddress)).direct, `/agents/${batch.agent}`, 'a base58 address finds the same agent');
  assert.ok(
    (await s(batch.agent.slice(0, 5))).hits.some((x) => x.kind === 'agent' && x.id === batch.agent),
    'a hex prefix suggests the agent',
  );
  const pair = await s(`${batch.agentAddress} ${batch.epoch}`);
  assert.deepEqual(
    pair.hits.filter((x) => x.kind === 'batch').map((x) => x.id),
    [`${batch.agent}/${batch.epoch}`],
  );
  assert.equal(pair.direct, `/batches/${batch.agentAddress}/${batch.epoch}`);
  const conv = (await h.getJson<ConversationList>('/api/conversations')).body.conversations[0];
  assert.equal((await s(conv.id)).direct, `/conversations/${conv.id}`);
  const view = (await h.getJson<ConversationView>(`/api/conversations/${conv.id}`)).body;
  const e = view.envelopes[0];
  assert.equal((await s(e.id)).direct, `/conversations/${conv.id}#envelope-${e.id}`);
  const ch = (await h.getJson<ChallengeList>('/api/challenges')).body.challenges[0];
  assert.ok((await s(ch.address.slice(0, 8))).hits.some((x) => x.kind === 'challenge' && x.id === ch.address));
  if (batch.signature)
    assert.ok((await s(batch.signature)).hits.some((x) => x.kind === 'transaction' && x.id === batch.signature));
  assert.deepEqual((await s('zzzz-no-such-thing')).hits, []);
});

test("GET /api/mesh/health: this observer's rows; a bad range is a 400 naming it", async () => {
  // The Prometheus scrape of /metrics is checked against a real `npm start` (e2e/overview.test.ts):
  // this harness serves the app/api route files only.
  const v = (await h.getJson<MeshHealthView>('/api/mesh/health?range=1h')).body;
  assert.equal(v.res, 60);
  assert.equal(v.observer, v.self);
  for (const r of v.rows) assert.equal(r.observer, v.self);
  const bad = await h.getJson<{ error: string }>('/api/mesh/health?range=2h');
  assert.equal(bad.status, 400);
  assert.match(bad.body.error, /"range"/);
});

test('bad input answers 4xx naming the problem', async () => {
  const cases: Array<[string, number, RegExp]> = [
    ['/api/stats/series', 400, /"metric"/],
    ['/api/stats/series?metric=envelopes&range=2d', 400, /"range"/],
    ['/api/stats/series/csv?metric=price', 400, /"metric"/],
    ['/api/search', 400, /"q"/],
    ['/api/search?q=', 400, /"q"/],
    ['/api/search?q=abc&limit=0', 400, /"limit"/],
    ['/api/search?q=abc&bogus=1', 400, /unknown query parameter "bogus"/],
    ['/api/search?q=%E0%A4%A', 400, /percent-encoding in "q"/],
    ['/api/reputation/%E0%A4%A', 400, /percent-encoding/],
    ['/api/conversations?range=2d', 400, /"range"/],
    ['/api/conversations?range=1h&from=1', 400, /range/],
    ['/api/conversations?before=nonsense', 400, /"before"/],
    ['/api/conversations?outcome=won', 400, /"outcome"/],
    ['/api/openapi.json?x=1', 400, /"x"/],
    ['/api/agents?sort=rank', 400, /"sort"/],
    [
      `/api/agents?sort=envelopes&before=2026-01-01T00:00:00.000Z~${'ab'.repeat(32)}`,
      400,
      /not a cursor of sort=envelopes/,
    ],
    ['/api/agents?minReliability=high', 400, /"minReliability"/],
    ['/api/envelopes?range=1h&to=5', 400, /range/],
    ['/api/batches?sort=newest', 400, /"sort"/],
    ['/api/batches?before=nonsense', 400, /"before"/],
    [`/api/batches?sort=slot&before=epoch.3.${'ab'.repeat(32)}`, 400, /"before": not a cursor of sort=slot/],
    ['/api/challenges?order=up', 400, /"order"/],
    ['/api/challenges?order=desc&before=opened_slot.asc.5.Abc', 400, /"before": not a cursor of order=desc/],
    ['/api/conversations?sort=size', 400, /"sort"/],
    [`/api/conversations?sort=messages&before=123-${'ab'.repeat(16)}`, 400, /"before": not a cursor of sort=messages/],
  ];
  for (const [url, status, re] of cases) {
    const r = await h.getJson<{ error: string }>(url);
    assert.equal(r.status, status, `${url}: ${JSON.stringify(r.body)}`);
    assert.match(r.body.error, re, url);
    conforms('get', url.startsWith('/api/reputation/') ? '/api/reputation/{agent}' : url.split('?')[0], status, r.body);
  }
});

test('MCP: the SDK client lists and calls every tool; answers agree with the REST API', async () => {
  const client = new Client({ name: 'api-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.base}/api/mcp`)));
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...MCP_TOOLS].sort());
    assert.ok(
      tools.every((t) => t.annotations?.readOnlyHint === true),
      'every tool is read-only',
    );
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const r = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: Array<{ type: string; text: string }>;
      };
      return {
        isError: r.isError === true,
        text: r.content[0].text,
        json: () => JSON.parse(r.content[0].text) as Record<string, unknown>,
      };
    };
    const batch = (await h.getJson<BatchList>('/api/batches?status=verified')).body.batches[0];

    const search = (await call('search', { query: batch.agentAddress })).json();
    assert.equal(search.direct, `/agents/${batch.agent}`);

    const agent = (await call('get_agent', { agent: batch.agentAddress })).json() as {
      agent: { id: string; envelopes: number };
    };
    const rest = (await h.getJson<{ agent: { id: string } }>(`/api/agents/${batch.agent}`)).body;
    assert.equal(agent.agent.id, rest.agent.id);

    let list = { conversations: [], next: null } as ConversationList;
    await stable(async () => {
      list = (await call('list_negotiations', { limit: 2, range: '24h' })).json() as ConversationList;
      const restList = (await h.getJson<ConversationList>('/api/conversations?limit=2&range=24h')).body;
      assert.deepEqual(
        list.conversations.map((c) => c.id),
        restList.conversations.map((c) => c.id),
      );
    });
    const page2 = (
      await call('list_negotiations', { limit: 2, range: '24h', cursor: list.next })
    ).json() as ConversationList;
    assert.ok(!page2.conversations.some((c) => list.conversations.some((d) => d.id === c.id)), 'the cursor moves on');

    const neg = (await h.getJson<ConversationList>('/api/conversations?limit=50')).body.conversations.find(
      (c) => c.messages >= 3,
    )!;
    // The conversation may still be going on (uploads land late): compare with the REST answer
    // read right before and after the call, until no message lands in between.
    let digest: { trace: Array<{ id: string }>; analytics: { rounds: number } | null } = { trace: [], analytics: null };
    let view: ConversationView | undefined;
    for (let attempt = 0; attempt < 10; attempt++) {
      view = (await h.getJson<ConversationView>(`/api/conversations/${neg.id}`)).body;
      digest = (await call('get_negotiation', { id: neg.id })).json() as typeof digest;
      const after = (await h.getJson<ConversationView>(`/api/conversations/${neg.id}`)).body;
      if (after.envelopes.length === view.envelopes.length) break;
    }
    // Past 25 messages (demo deals run 6–9 offers a side) the tool cuts the list and says so in a last string item.
    const rows = digest.trace.filter((t) => typeof t === 'object');
    assert.deepEqual(
      rows.map((t) => t.id),
      view!.envelopes.slice(0, 25).map((e) => e.id),
    );
    if (view!.envelopes.length > 25)
      assert.match(String(digest.trace.at(-1)), new RegExp(`^… ${view!.envelopes.length - 25} more items`));
    assert.ok(digest.analytics === null || typeof digest.analytics.rounds === 'number');

    const b = (await call('get_batch', { agent: batch.agent, epoch: batch.epoch })).json();
    assert.equal(b.logMerkleRoot, batch.logMerkleRoot);
    assert.equal(b.status, 'verified');

    const log = await h.runtime.store.epochLog(Uint8Array.from(Buffer.from(batch.agent, 'hex')), BigInt(batch.epoch));
    const envelope = Buffer.from(log[0].id).toString('hex');
    const proof = (await call('verify_inclusion', { agent: batch.agent, epoch: batch.epoch, envelope })).json();
    assert.equal(proof.included, true, JSON.stringify(proof));
    assert.equal(proof.rootMatchesBatch, true);
    const notIn = (
      await call('verify_inclusion', { agent: batch.agent, epoch: batch.epoch, envelope: 'ab'.repeat(32) })
    ).json();
    assert.equal(notIn.included, false);

    const stake = (await call('get_stake_status', { agent: batch.agentAddress })).json() as {
      stake: { amount: string } | null;
      batches: number;
    };
    assert.ok(stake.stake && BigInt(stake.stake.amount) >= 0n);
    const restBatches = (await h.getJson<BatchList>(`/api/batches?agent=${batch.agent}`)).body.batches;
    assert.ok(stake.batches >= 1 && stake.batches <= restBatches.length + 5);

    const stats = (await call('mesh_stats')).json() as { byType: Record<string, number> };
    const restStats = (await h.getJson<{ byType: Record<string, number> }>('/api/stats')).body;
    assert.ok((stats.byType.PROPOSE ?? 0) <= (restStats.byType.PROPOSE ?? 0) && (stats.byType.PROPOSE ?? 0) > 0);

    const bad = await call('get_agent', { agent: 'not-an-agent' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /agent: must be 64 hex characters or a base58 address/);
    const missing = await call('get_negotiation', { id: 'ab'.repeat(16) });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /not found/);
  } finally {
    await client.close();
  }
});

test('MCP over stdio (npm run mcp): the bridge lists the same tools and answers from the running server', async () => {
  const client = new Client({ name: 'api-test-stdio', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', '--import', './scripts/setup-node.mjs', 'scripts/mcp-stdio.ts', h.base],
      cwd: ROOT,
      stderr: 'ignore',
    }),
  );
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...MCP_TOOLS].sort());
    const r = (await client.callTool({
      name: 'search',
      arguments: { query: (await h.getJson<AgentList>('/api/agents')).body.agents[0].id },
    })) as { content: Array<{ text: string }> };
    assert.match(JSON.parse(r.content[0].text).direct, /^\/agents\/[0-9a-f]{64}$/);
  } finally {
    await client.close();
  }
});

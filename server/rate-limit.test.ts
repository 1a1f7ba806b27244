/**
 * Fair limits (./rate-limit.ts) on a real HTTP server with the gate main.ts uses: a client gets
 * its burst, then 429 with Retry-After; classes have separate budgets; uploads and the stream are
 * not counted; config strings map to buckets.
 */

import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { test } from 'node:test';
import { createRateLimiter, limitClassOf } from './rate-limit';

async function withServer(limits: Parameters<typeof createRateLimiter>[0], fn: (base: string) => Promise<void>) {
  const limiter = createRateLimiter(limits);
  const server = createServer((req, res) => {
    if (limiter.reject(req, res)) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  } finally {
    limiter.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

test('paths map to classes; uploads, the stream and pages are not limited here', () => {
  assert.equal(limitClassOf('/api/agents'), 'api');
  assert.equal(limitClassOf('/api/search'), 'api');
  assert.equal(limitClassOf('/api/mcp'), 'mcp');
  assert.equal(limitClassOf('/api/export/envelopes.csv'), 'export');
  assert.equal(limitClassOf('/api/export/envelopes'), 'export');
  assert.equal(limitClassOf('/api/export/progress'), 'api');
  assert.equal(limitClassOf('/api/ingest/envelopes'), null);
  assert.equal(limitClassOf('/api/ingest/log'), null);
  assert.equal(limitClassOf('/api/stream'), null);
  assert.equal(limitClassOf('/agents'), null);
  assert.equal(limitClassOf('/apix'), null);
  assert.equal(limitClassOf('/metrics'), 'api');
  assert.equal(limitClassOf('/x/../metrics'), 'api');
  assert.equal(limitClassOf('/metricsx'), null);
});

test('a client gets its burst, then 429 with Retry-After and a JSON error', async () => {
  // 0.5 tokens/s: an empty bucket needs 2 s for the next token.
  await withServer({ api: { perSecond: 0.5, burst: 3 } }, async (base) => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await fetch(`${base}/api/agents`);
      statuses.push(last.status);
      if (last.status === 200) await last.arrayBuffer();
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    assert.equal(last!.headers.get('retry-after'), '2');
    const body = (await last!.json()) as { error: string };
    assert.match(body.error, /rate limit: too many api requests/);
    // Another class has its own budget; unlimited paths pass.
    assert.equal((await fetch(`${base}/api/ingest/envelopes`, { method: 'POST', body: 'x' })).status, 200);
    assert.equal((await fetch(`${base}/agents`)).status, 200);
  });
});

test('classes and clients have separate buckets; an absent class is not limited', async () => {
  const l = createRateLimiter({ mcp: { perSecond: 1, burst: 1 }, export: { perSecond: 0.1, burst: 2 } });
  try {
    assert.equal(l.take('mcp', 'a'), 0);
    assert.ok(l.take('mcp', 'a') >= 1);
    assert.equal(l.take('mcp', 'b'), 0, 'another client has its own bucket');
    assert.equal(l.take('export', 'a'), 0);
    assert.equal(l.take('export', 'a'), 0);
    assert.equal(l.take('export', 'a'), 10, 'an empty export bucket refills one token in 10 s');
    for (let i = 0; i < 1000; i++) assert.equal(l.take('api', 'a'), 0, 'no api limit configured');
    assert.equal(l.size(), 3);
  } finally {
    l.close();
  }
});

/** GET with the request target exactly as written (fetch would resolve dot segments itself). */
function rawGet(base: string, target: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: target, method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

test('every spelling of a path Next serves is limited as that path', () => {
  for (const t of [
    '/x/../api/stats',
    '/x/%2e%2e/api/stats',
    '/x/%2E./api/stats',
    '/x/.%2e/api/stats',
    '//api//stats',
    '/api/stats/',
    '/api\\stats',
    '/api/./stats',
    '/api/ingest/%2e%2e/stats',
    '/api/stream/../stats',
    'http://h/api/stats',
  ]) {
    assert.equal(limitClassOf(t), 'api', t);
  }
  for (const t of [
    '/x/../api/export/envelopes',
    '/a/%2e%2e/api/export/envelopes?format=csv',
    '//api/export//envelopes/',
  ])
    assert.equal(limitClassOf(t), 'export', t);
  for (const t of ['/x/../api/mcp', '/x/%2e%2e/api/mcp/', '/api/agents/%2e%2e/mcp'])
    assert.equal(limitClassOf(t), 'mcp', t);
  // Percent-encoded letters and slashes are not decoded for routing: Next answers 404 there.
  assert.equal(limitClassOf('/api/x/../ingest/log'), null, 'an upload, under its own caps');
  assert.equal(limitClassOf('/x/../agents'), null);
});

test('dot segments share the budget of the path they reach', async () => {
  await withServer({ api: { perSecond: 0.5, burst: 2 }, mcp: { perSecond: 0.5, burst: 1 } }, async (base) => {
    assert.equal(await rawGet(base, '/api/stats'), 200);
    assert.equal(await rawGet(base, '/x/../api/stats'), 200);
    assert.equal(await rawGet(base, '/x/%2e%2e/api/stats'), 429, 'the third api request from this client');
    assert.equal(await rawGet(base, '//api//stats/'), 429);
    assert.equal(await rawGet(base, '/y/%2E%2e/api/mcp'), 200);
    assert.equal(await rawGet(base, '/api/mcp/'), 429);
  });
});

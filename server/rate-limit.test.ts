/**
 * Fair limits (./rate-limit.ts) on a real HTTP server with the gate main.ts uses: a client gets
 * its burst, then 429 with Retry-After; classes have separate budgets; uploads and the stream are
 * not counted; config strings map to buckets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
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

// No parameter makes a 500: every documented GET route and every MCP tool, against the real
// runtime, with a NUL, a lone surrogate, non-UTF-8 bytes and times past year 9999; and the heavy
// routes take their client's slots.

import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openApiDocument } from '../lib/api/openapi';
import { type ApiHarness, startApiHarness } from './api-testing';
import { paramProbes, probeFailure, YEAR_10000_MS } from './param-probes';

let h: ApiHarness;

before(async () => {
  h = await startApiHarness({
    DEMO_AGENTS: '0',
    RATE_LIMIT_API: 'off',
    RATE_LIMIT_MCP: 'off',
    RATE_LIMIT_EXPORT: 'off',
    HEAVY_PER_CLIENT: '2',
    HEAVY_QUEUE: '1',
    ALERT_WEBHOOK_ALLOW_PRIVATE: '1',
  });
});
after(async () => {
  await h?.stop();
});

/** A GET with the target sent exactly as written (fetch would re-encode it). */
function raw(
  target: string,
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const u = new URL(h.base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: target, agent: false }, (res) => {
      let body = '';
      res.on('data', (b: Buffer) => (body += b));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('the reported cases: year 10000 and NUL are 400s naming the parameter', async () => {
  const cases: Array<[string, RegExp]> = [
    [
      `/api/conversations?from=0&to=${YEAR_10000_MS}`,
      /"to": out of range: must be unix milliseconds from 0 to 253402300799999/,
    ],
    ['/api/mesh/health?topic=%00', /"topic": holds a NUL/],
    ['/api/mesh/health?observer=%00', /"observer": holds a NUL/],
    [`/api/replay?from=0&to=${YEAR_10000_MS}`, /"to": out of range/],
    [`/api/envelopes?from=${YEAR_10000_MS}`, /"from": out of range/],
    [`/api/export/envelopes?to=${YEAR_10000_MS}`, /"to": out of range/],
    ['/api/search?q=%ED%A0%80', /malformed percent-encoding in "q"/],
  ];
  for (const [target, re] of cases) {
    const r = await raw(target);
    assert.equal(r.status, 400, `${target}: ${r.body}`);
    assert.match(JSON.parse(r.body).error, re, target);
  }
});

test('every documented GET route answers bad parameters with a 4xx, never a 500', async () => {
  const probes = paramProbes(openApiDocument() as never);
  assert.ok(probes.length > 150, `${probes.length} probes`);
  const failures: string[] = [];
  for (const p of probes) {
    const r = await raw(p.target);
    const f = probeFailure(p, r.status, r.body);
    if (f) failures.push(f);
  }
  assert.deepEqual(failures, []);
});

test('MCP tools: NUL, lone surrogates and year 10000 are tool errors naming the argument', async () => {
  const client = new Client({ name: 'params-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.base}/api/mcp`)));
  try {
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      return { isError: r.isError === true, text: r.content[0].text };
    };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['list_negotiations', { from_ms: 0, to_ms: Number(YEAR_10000_MS) }, 'to_ms'],
      ['list_negotiations', { cursor: 'a\u0000' }, 'cursor'],
      ['list_negotiations', { agent: '\uD800' }, 'agent'],
      ['search', { query: 'a\u0000b' }, 'query'],
      ['get_agent', { agent: '\u0000' }, 'agent'],
      ['get_negotiation', { id: '\uDC00' }, 'id'],
      ['get_batch', { agent: '11'.repeat(32), epoch: '99999999999999999999' }, 'epoch'],
      ['verify_inclusion', { agent: '11'.repeat(32), epoch: '1', envelope: 'x\u0000' }, 'envelope'],
      ['get_stake_status', { agent: 'a\u0000' }, 'agent'],
    ];
    for (const [name, args, arg] of cases) {
      const r = await call(name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}: ${r.text}`);
      assert.ok(r.text.includes(arg), `${name}: the error names ${arg}: ${r.text}`);
      assert.doesNotMatch(r.text, /displacement|invalid byte sequence|prisma|postgres|SQL/i, name);
    }
  } finally {
    await client.close();
  }
});

test("heavy routes take their client's slots: two run, one waits, the next is a 429 with Retry-After", async () => {
  const before = h.heavy.stats();
  const flood = await Promise.all(
    Array.from({ length: 8 }, () => raw('/api/replay?from=0&to=253402300799999&limit=1000')),
  );
  const refused = flood.filter((r) => r.status === 429);
  const served = flood.filter((r) => r.status === 200);
  assert.equal(refused.length + served.length, 8, flood.map((r) => r.status).join(','));
  assert.ok(served.length >= 3, `${served.length} served`);
  // Whether a read finishes before the last one arrives depends on timing; some always wait.
  if (refused.length) {
    assert.ok(Number(refused[0].headers['retry-after']) >= 1);
    assert.match(JSON.parse(refused[0].body).error, /too many heavy reads from this client/);
  }
  assert.equal(h.heavy.stats().refusedBusy - before.refusedBusy, refused.length);
  assert.deepEqual([h.heavy.stats().running, h.heavy.stats().waiting], [0, 0], 'every slot is back');
  assert.ok([200, 503].includes((await raw('/api/health')).status), '/api/health is never held');
});

test('JSON bodies: a NUL or lone surrogate in any field is a 400 naming the field', async () => {
  const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
    const r = await fetch(h.base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    return {
      status: r.status,
      body: (await r.json().catch(() => ({}))) as { error?: string; id?: string; token?: string },
    };
  };
  const created = await post('/api/watchlists', '{}');
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const token = { 'x-watchlist-token': created.body.token! };
  const secret = await post(
    `/api/watchlists/${created.body.id}/webhooks`,
    JSON.stringify({ url: 'http://127.0.0.1:9/hook', format: 'json', secret: `abc\u0000${'d'.repeat(20)}` }),
    token,
  );
  assert.equal(secret.status, 400, JSON.stringify(secret.body));
  assert.match(secret.body.error ?? '', /field "secret": holds a NUL/);
  const surrogate = await post(
    `/api/watchlists/${created.body.id}/webhooks`,
    '{"url":"http://127.0.0.1:9/hook","format":"json","secret":"\\ud800abcdefghijklmnopqrstu"}',
    token,
  );
  assert.equal(surrogate.status, 400, JSON.stringify(surrogate.body));
  assert.match(surrogate.body.error ?? '', /field "secret": holds a lone UTF-16 surrogate/);
  const opinion = await post(
    `/api/disputes/${'ab'.repeat(32)}/opinions`,
    JSON.stringify({ reviewer: 'x', message: 'a\u0000', signature: '00' }),
  );
  assert.equal(opinion.status, 400, JSON.stringify(opinion.body));
  assert.match(opinion.body.error ?? '', /field "message": holds a NUL/);
});

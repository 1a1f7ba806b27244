// Malformed percent-encodings and NULs in the target are refused before Next decodes them (it would 500).

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { clientKey, refuseBadTarget, requestTargetProblem, servedPath } from './request-target';

test('paths that do not percent-decode are named; good ones and odd queries pass', () => {
  for (const bad of ['/agents/%ff%fe', '/conversations/%ff', '/api/agents/%ff%fe', '/x/%e2%82', '/%', '/a%zz']) {
    assert.match(requestTargetProblem(bad) ?? '', /malformed percent-encoding/, bad);
  }
  for (const good of [
    '/',
    '/agents/abc',
    '/a%20b',
    '/%E2%82%AC',
    '/x#%ff',
    '/api/search?q=a+b&limit=5',
    '/api/search?q=%F0%9F%98%80',
    '/api/x?flag&=1',
  ]) {
    assert.equal(requestTargetProblem(good), null, good);
  }
  assert.match(requestTargetProblem(undefined) ?? '', /no target/);
});

test('a NUL in the path, and a NUL, lone surrogate or bad encoding in a query parameter, are named', () => {
  assert.match(requestTargetProblem('/api/disputes/%00') ?? '', /path holds a NUL/);
  const cases: Array<[string, RegExp]> = [
    ['/api/mesh/health?topic=%00', /"topic": holds a NUL/],
    ['/api/mesh/health?range=1h&observer=a%00b', /"observer": holds a NUL/],
    ['/api/envelopes?limit=%ff', /malformed percent-encoding in "limit"/],
    // U+D800 encoded as UTF-8 is not UTF-8 (a lone surrogate has no UTF-8 form).
    ['/api/search?q=%ED%A0%80', /malformed percent-encoding in "q"/],
    ['/api/search?q%00=1', /query parameter name holds a NUL/],
  ];
  for (const [target, re] of cases) assert.match(requestTargetProblem(target) ?? '', re, target);
});

test('a real HTTP server answers 400 with the problem as JSON and lets good requests through', async () => {
  const server = createServer((req, res) => {
    if (refuseBadTarget(req, res)) return;
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  try {
    for (const path of ['/agents/%ff%fe', '/conversations/%ff', '/api/agents/%ff%fe']) {
      const r = await fetch(`http://127.0.0.1:${port}${path}`);
      assert.equal(r.status, 400, path);
      assert.match(((await r.json()) as { error: string }).error, /percent-encoding/);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/agents/abc`);
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), 'ok');
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('the served path resolves dot segments (encoded ones too), backslashes, repeated and trailing slashes', () => {
  const cases: Array<[string, string]> = [
    ['/x/../api/stats', '/api/stats'],
    ['/x/%2e%2e/api/stats', '/api/stats'],
    ['/x/%2E./api/stats?y=1', '/api/stats'],
    ['/../../api/mcp', '/api/mcp'],
    ['//api//stats', '/api/stats'],
    ['/api\\stats', '/api/stats'],
    ['/api/stats/', '/api/stats'],
    ['/a/..//api/export/x', '/api/export/x'],
    ['//evil.example/api/stats', '/evil.example/api/stats'],
    ['http://host/api/stats?x', '/api/stats'],
    ['/%61pi/stats', '/%61pi/stats'],
    ['/', '/'],
  ];
  for (const [target, path] of cases) assert.equal(servedPath(target), path, target);
});

test('clients are keyed by address, IPv4-mapped folded to IPv4, IPv6 by its /64', () => {
  assert.equal(clientKey('127.0.0.1'), '127.0.0.1');
  assert.equal(clientKey('::ffff:10.1.2.3'), '10.1.2.3');
  assert.equal(clientKey('::1'), '::1');
  assert.equal(clientKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:db8:1:2::9'), clientKey('2001:db8:1:2:ffff::1'));
  assert.notEqual(clientKey('2001:db8:1:3::1'), clientKey('2001:db8:1:2::1'));
  assert.equal(clientKey(undefined), 'unknown');
});

test('a target that is neither a path nor an absolute URL is refused (Next would 500)', () => {
  assert.match(requestTargetProblem('*') ?? '', /must be a path/);
  assert.match(requestTargetProblem('api/stats') ?? '', /must be a path/);
  assert.equal(requestTargetProblem('http://h/api/stats'), null);
});

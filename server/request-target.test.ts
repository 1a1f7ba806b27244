// Malformed percent-encodings in the path are refused before Next decodes them (it would 500).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { refuseBadTarget, requestTargetProblem } from './request-target';

test('paths that do not percent-decode are named; good ones and odd queries pass', () => {
  for (const bad of ['/agents/%ff%fe', '/conversations/%ff', '/api/agents/%ff%fe', '/x/%e2%82', '/%', '/a%zz']) {
    assert.match(requestTargetProblem(bad) ?? '', /malformed percent-encoding/, bad);
  }
  for (const good of ['/', '/agents/abc', '/a%20b', '/%E2%82%AC', '/api/envelopes?limit=%ff', '/x#%ff']) {
    assert.equal(requestTargetProblem(good), null, good);
  }
  assert.match(requestTargetProblem(undefined) ?? '', /no target/);
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

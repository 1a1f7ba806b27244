// SATI registration files are hostile input: parsed into a bounded, sanitised profile (no SVG or
// javascript: image, at most 32 services, the zerox1-mesh endpoint only as a multiaddr) and read
// only from data: and http(s) URIs, within a size cap and a deadline, each failure named. The
// http cases run against a real local HTTP server.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  MAX_REGISTRATION_BYTES,
  parseRegistrationFile,
  registrationDataUri,
  sanitiseImage,
} from '../registration-file';
import { fetchRegistrationFile, REGISTRATION_FAILURES } from './registration-fetch';

const MESH = '/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWQYhTNQdmr3ArTeUHRYzFg94BKyTkoWBDWez9kSCVe2Xo';

describe('parseRegistrationFile', () => {
  test('keeps the fields, services and the mesh endpoint; drops what is unsafe', () => {
    const p = parseRegistrationFile(
      JSON.stringify({
        name: ' weather\u0000bot ',
        description: 'x'.repeat(5000),
        image: 'javascript:alert(1)',
        services: [
          { name: 'zerox1-mesh', endpoint: MESH, version: '1' },
          { name: 'A2A', endpoint: 'https://a.example/agent' },
          { name: 'bad' },
        ],
        endpoints: Array.from({ length: 50 }, (_, i) => ({ name: `e${i}`, endpoint: `https://e${i}.example` })),
      }),
    );
    assert.ok(p);
    assert.equal(p.name, 'weatherbot');
    assert.equal(p.description?.length, 1024);
    assert.equal(p.image, undefined);
    assert.equal(p.services.length, 32);
    assert.deepEqual(p.services[0], { name: 'zerox1-mesh', endpoint: MESH, version: '1' });
    assert.equal(p.meshEndpoint, MESH);
    assert.equal(
      parseRegistrationFile(JSON.stringify({ services: [{ name: 'zerox1-mesh', endpoint: 'tcp://1.2.3.4:1' }] }))
        ?.meshEndpoint,
      undefined,
      'not a multiaddr',
    );
    for (const bad of ['', '[]', 'null', '"x"', '{', 'x'.repeat(MAX_REGISTRATION_BYTES + 1)])
      assert.equal(parseRegistrationFile(bad), null, bad.slice(0, 10));
  });

  test('images: http(s) URLs and raster data: URIs only', () => {
    assert.equal(sanitiseImage('https://img.example/a.png'), 'https://img.example/a.png');
    assert.equal(sanitiseImage('data:image/png;base64,iVBORw0KGgo='), 'data:image/png;base64,iVBORw0KGgo=');
    for (const bad of [
      'data:image/svg+xml;base64,PHN2Zz4=',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'ipfs://x',
      42,
    ])
      assert.equal(sanitiseImage(bad), undefined, String(bad));
  });
});

describe('fetchRegistrationFile', () => {
  let server: Server;
  let base = '';
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ok')
        return void res.end(JSON.stringify({ name: 'served', services: [{ name: 'zerox1-mesh', endpoint: MESH }] }));
      if (req.url === '/big') {
        res.write('{"name":"');
        res.end('x'.repeat(MAX_REGISTRATION_BYTES));
        return;
      }
      if (req.url === '/slow') return void setTimeout(() => res.end('{}'), 2_000);
      if (req.url === '/to-file') {
        res.statusCode = 302;
        res.setHeader('location', 'file:///etc/passwd');
        return void res.end();
      }
      if (req.url === '/loop') {
        res.statusCode = 302;
        res.setHeader('location', '/loop');
        return void res.end();
      }
      if (req.url === '/hop') {
        res.statusCode = 301;
        res.setHeader('location', '/ok');
        return void res.end();
      }
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('data: URIs, base64 or plain', async () => {
    const a = await fetchRegistrationFile(
      registrationDataUri({ name: 'inline', services: [{ name: 'zerox1-mesh', endpoint: MESH }] }),
    );
    assert.ok(a.ok && a.profile.name === 'inline' && a.profile.meshEndpoint === MESH);
    const b = await fetchRegistrationFile(`data:application/json,{"name":"plain"}`);
    assert.ok(b.ok && b.profile.name === 'plain');
    assert.deepEqual(await fetchRegistrationFile('data:application/json,nope'), {
      ok: false,
      reason: 'not_json',
      detail: 'not a JSON object',
    });
  });

  test('http(s) with a cap, a deadline, checked redirects; every failure named', async () => {
    const ok = await fetchRegistrationFile(`${base}/ok`);
    assert.ok(ok.ok && ok.profile.name === 'served');
    const hop = await fetchRegistrationFile(`${base}/hop`);
    assert.ok(hop.ok && hop.profile.name === 'served', 'one redirect followed');
    const reason = async (uri: string, o = {}) => {
      const r = await fetchRegistrationFile(uri, o);
      return r.ok ? 'ok' : r.reason;
    };
    assert.equal(await reason(`${base}/big`), 'too_large');
    assert.equal(await reason(`${base}/slow`, { timeoutMs: 200 }), 'timeout');
    assert.equal(await reason(`${base}/to-file`), 'scheme');
    assert.equal(await reason(`${base}/loop`), 'redirects');
    assert.equal(await reason(`${base}/missing`), 'http_status');
    assert.equal(await reason(`${base}/ok`, { publicOnly: true }), 'private_host');
    assert.equal(await reason('ftp://example.org/a.json'), 'scheme');
    assert.equal(await reason('http://127.0.0.1:9/x'), 'network');
  });

  test('publicOnly: private addresses refused in every spelling and behind names, before any request', async () => {
    const hits: string[] = [];
    const inside = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end(JSON.stringify({ name: 'inside' }));
    });
    await new Promise<void>((r) => inside.listen(0, '127.0.0.1', r));
    const port = (inside.address() as AddressInfo).port;
    try {
      const reason = async (uri: string, resolve?: (h: string) => Promise<string[]>) => {
        const r = await fetchRegistrationFile(uri, { publicOnly: true, resolve });
        return r.ok ? 'ok' : r.reason;
      };
      for (const host of [
        '127.0.0.1',
        '[::1]',
        '[::ffff:127.0.0.1]',
        '[::127.0.0.1]',
        '[::ffff:0:127.0.0.1]',
        '[64:ff9b:1::7f00:1]',
        '[2002:7f00:1::1]',
        'localhost',
      ]) {
        assert.equal(await reason(`http://${host}:${port}/file`), 'private_host', host);
      }
      // A name that resolves to loopback (the resolver answers what a hostile DNS zone would).
      assert.equal(await reason(`http://files.agent.invalid:${port}/file`, async () => ['127.0.0.1']), 'private_host');
      assert.equal(
        await reason(`http://files.agent.invalid:${port}/file`, async () => ['93.184.216.34', '10.0.0.1']),
        'private_host',
      );
      assert.equal(hits.length, 0, 'nothing reached the loopback server');
      // The same file is read with publicOnly off (the embedded demo's own agents).
      const r = await fetchRegistrationFile(`http://[::ffff:127.0.0.1]:${port}/file`);
      assert.ok(r.ok && r.profile.name === 'inside');
    } finally {
      await new Promise<void>((r) => inside.close(() => r()));
    }
    assert.deepEqual(
      Object.keys(REGISTRATION_FAILURES).sort(),
      ['network', 'not_json', 'private_host', 'redirects', 'scheme', 'timeout', 'too_large', 'http_status'].sort(),
    );
  });
});

// The outbound guard against real node:http servers on loopback: one deadline for the whole
// request (a receiver that drips bytes cannot hold it), at most N answer bytes read (a huge answer
// is cut off, not downloaded), the connection made to the checked address only (never a second
// resolution), every redirect checked again, and failures reported as a class, never the
// system's text. Loopback stands in for "outside" through the injected address rule.

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import {
  FAILURES,
  failureClass,
  OutboundError,
  type OutboundOptions,
  outboundRequest,
  resolveChecked,
} from './outbound';

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, host = '127.0.0.1') {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.headers.host} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as AddressInfo).port;
  return {
    hits,
    port,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const base: OutboundOptions = { deadlineMs: 2_000, maxBodyBytes: 4_096, overflow: 'truncate', allowPrivate: true };
/** Only 127.0.0.1 counts as outside; every other address (127.0.0.2 included) as inside. */
const onlyLoopbackOne = (ip: string) => (ip === '127.0.0.1' ? null : `${ip} is inside`);

const kindOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof OutboundError, String(e));
    return e.kind;
  }
};

test(
  'one deadline covers headers and body: a receiver ' + 'dripping a byte every 200 ms is cut off at the deadline',
  async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const t = setInterval(() => res.write('x'), 200);
      res.on('close', () => clearInterval(t));
    });
    try {
      const t0 = Date.now();
      assert.equal(await kindOf(outboundRequest(`${s.url}/drip`, { ...base, deadlineMs: 700 })), 'timeout');
      const took = Date.now() - t0;
      assert.ok(took >= 650 && took < 1_200, `ended after ${took} ms`);
      // Headers that never come end the same way.
      const silent = await serve(() => undefined);
      try {
        assert.equal(await kindOf(outboundRequest(silent.url, { ...base, deadlineMs: 300 })), 'timeout');
      } finally {
        await silent.close();
      }
    } finally {
      await s.close();
    }
  },
);

test('at most maxBodyBytes are read: a huge answer is cut off and the socket closed', async () => {
  let written = 0;
  const s = await serve((_req, res) => {
    res.writeHead(200);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      // Up to 256 MiB, unless the reader goes away first.
      while (written < 256 * 1024 * 1024 && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  try {
    const t0 = Date.now();
    const r = await outboundRequest(s.url, { ...base, maxBodyBytes: 4_096, overflow: 'truncate' });
    assert.equal(r.status, 200);
    assert.equal(r.body.length, 4_096);
    assert.equal(r.truncated, true);
    assert.ok(Date.now() - t0 < 1_000, `took ${Date.now() - t0} ms`);
    await new Promise((res) => setTimeout(res, 200));
    assert.ok(written < 16 * 1024 * 1024, `the server could write only ${written} bytes before the socket closed`);
    assert.equal(await kindOf(outboundRequest(s.url, { ...base, overflow: 'fail' })), 'too_large');
  } finally {
    await s.close();
  }
});

test('the socket connects to the checked address only: the name is resolved once, by the guard', async () => {
  const s = await serve((_req, res) => res.end('pinned'));
  try {
    let calls = 0;
    // A name the system cannot resolve: only the guard's answer can have led the socket here.
    const resolve = async (h: string) => {
      calls++;
      assert.equal(h, 'hooks.pinned.invalid');
      return calls === 1 ? ['127.0.0.1'] : ['127.0.0.2'];
    };
    const r = await outboundRequest(`http://hooks.pinned.invalid:${s.port}/x`, {
      ...base,
      allowPrivate: false,
      resolve,
      refuse: onlyLoopbackOne,
    });
    assert.equal(r.body.toString(), 'pinned');
    assert.equal(calls, 1, 'no second resolution between check and connect');
    assert.deepEqual(s.hits, [`hooks.pinned.invalid:${s.port} /x`]);
    // The same name resolving inside is refused before any connection.
    const inside = async () => ['127.0.0.1', '127.0.0.2'];
    assert.equal(
      await kindOf(
        outboundRequest(`http://hooks.pinned.invalid:${s.port}/y`, {
          ...base,
          allowPrivate: false,
          resolve: inside,
          refuse: onlyLoopbackOne,
        }),
      ),
      'private_address',
    );
    assert.equal(s.hits.length, 1);
  } finally {
    await s.close();
  }
});

test('every redirect is checked like the first URL; redirects are refused unless allowed', async () => {
  const inner = await serve((_req, res) => res.end('secret'), '127.0.0.2');
  const outer = await serve((req, res) => {
    const to =
      req.url === '/to-ip'
        ? `${inner.url}/secret`
        : req.url === '/to-name'
          ? `http://inside.invalid:${inner.port}/secret`
          : req.url === '/to-mapped'
            ? `http://[::ffff:127.0.0.2]:${inner.port}/`
            : '/end';
    if (req.url === '/end') return void res.end('end');
    res.writeHead(302, { location: to }).end();
  });
  try {
    const o = {
      ...base,
      allowPrivate: false,
      refuse: onlyLoopbackOne,
      maxRedirects: 3,
      resolve: async () => ['127.0.0.2'],
    };
    for (const path of ['/to-ip', '/to-name', '/to-mapped'])
      assert.equal(await kindOf(outboundRequest(`${outer.url}${path}`, o)), 'private_address', path);
    assert.equal(inner.hits.length, 0, 'nothing reached the inside server');
    assert.equal((await outboundRequest(`${outer.url}/hop`, o)).body.toString(), 'end');
    const noFollow = await outboundRequest(`${outer.url}/to-ip`, { ...o, maxRedirects: 0 });
    assert.equal(noFollow.status, 302, 'without maxRedirects a 3xx is answered as it is');
  } finally {
    await outer.close();
    await inner.close();
  }
});

test('failures are classes: a closed port is "could not connect", never ECONNREFUSED and its address', async () => {
  const s = await serve(() => undefined);
  const port = s.port;
  await s.close();
  try {
    await outboundRequest(`http://127.0.0.1:${port}/`, base);
    assert.fail('connected to a closed port');
  } catch (e) {
    assert.equal((e as Error).message, FAILURES.connect);
    assert.equal(failureClass(e), 'could not connect');
    assert.doesNotMatch((e as Error).message, /ECONNREFUSED|127\.0\.0\.1/);
    assert.match((e as OutboundError).detail, /ECONNREFUSED/, 'the system text stays in detail, for logs');
  }
  assert.equal(failureClass(new Error('Unexpected EOF - 46/72 bytes')), 'could not connect');
  assert.equal(
    failureClass(Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' })),
    'timed out',
  );
  assert.equal(await kindOf(outboundRequest('file:///etc/passwd', base)), 'scheme');
  assert.equal(
    await kindOf(resolveChecked('no-such-host.invalid', { allowPrivate: false, resolve: async () => [] })),
    'unresolved',
  );
  assert.equal(await kindOf(resolveChecked('[::ffff:127.0.0.1]', { allowPrivate: false })), 'private_address');
});

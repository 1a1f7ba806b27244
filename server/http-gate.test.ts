/**
 * The HTTP server's gate (./http-gate.ts) on a real server: every upgrade request is answered and
 * its socket closed unless the stream takes it, a flood of them leaves no socket open, and one
 * client cannot hold more than its cap of connections while another still gets in.
 */

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { createLiveBus } from '../lib/observer/bus';
import { capConnections, routeUpgrades } from './http-gate';
import { createStreamHub } from './stream';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as { port: number }).port;
}

/** Sends `request` on a raw socket and collects everything until the server closes it (or `ms`). */
function exchange(
  port: number,
  request: string,
  opts: { localAddress?: string; ms?: number } = {},
): Promise<{ text: string; closed: boolean; socket: Socket }> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: opts.localAddress });
    let text = '';
    // A socket the server leaves open is given up on (and closed from this side) after `ms`.
    const timer = setTimeout(() => {
      resolve({ text, closed: false, socket });
      socket.destroy();
    }, opts.ms ?? 2_000);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true, socket });
    });
    socket.write(request);
  });
}

const upgrade = (path: string) =>
  `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: ` +
  `websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;

async function withGate(
  opts: { perClient?: number | null; dev?: boolean },
  fn: (p: {
    port: number;
    server: Server;
    gate: ReturnType<typeof capConnections>;
    upgrades: ReturnType<typeof routeUpgrades>;
  }) => Promise<void>,
) {
  const hub = createStreamHub(createLiveBus());
  const server = createServer((_req, res) => res.end('ok'));
  // Upgrade sockets leave the HTTP server's books: closed here so a failing test cannot hang.
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  const gate = capConnections(server, opts.perClient ?? null);
  const upgrades = routeUpgrades(server, {
    stream: (q, s, h) => hub.handleUpgrade(q, s, h),
    dev: opts.dev,
    refusedSocket: (s) => gate.refusedSocket(s),
  });
  const port = await listen(server);
  try {
    await fn({ port, server, gate, upgrades });
  } finally {
    await hub.close();
    for (const s of sockets) s.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

const until = async (cond: () => boolean, what: string, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('an upgrade to any path but the stream is answered 404 with Connection: close and closed', async () => {
  await withGate({}, async ({ port, gate, upgrades }) => {
    for (const path of ['/', '/api/stats', '/x/../api/stream', '/_next/hmr', '/api/stream/x']) {
      const r = await exchange(port, upgrade(path));
      assert.ok(r.closed, `${path}: the server closed the socket`);
      assert.match(r.text, /^HTTP\/1\.1 404 Not Found\r\n/, path);
      assert.match(r.text, /\r\nConnection: close\r\n/i, path);
      assert.match(r.text, /no WebSocket at .*the live stream is \/api\/stream/, path);
    }
    const bad = await exchange(port, upgrade('/a%zz'));
    assert.ok(bad.closed);
    assert.match(bad.text, /^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*malformed percent-encoding/);
    assert.equal(upgrades.stats().refused, 6);
    // The stream itself still upgrades.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/stream`);
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve());
      ws.once('error', reject);
    });
    ws.close();
    await until(() => gate.stats().open === 0, 'every connection to close');
  });
});

test('a flood of upgrade requests leaves no socket open', async () => {
  await withGate({}, async ({ port, gate }) => {
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => exchange(port, upgrade(`/flood/${i}`))));
    assert.equal(results.filter((r) => r.closed && r.text.startsWith('HTTP/1.1 404')).length, 300);
    await until(() => gate.stats().open === 0, 'the server side of every socket to close');
  });
});

test('in development the HMR socket is left to Next only when Next listens for it', async () => {
  await withGate({ dev: true }, async ({ port, server }) => {
    // Before Next registered its listener nobody would take it: answered here.
    assert.match((await exchange(port, upgrade('/_next/hmr'))).text, /^HTTP\/1\.1 404/);
    const seen: string[] = [];
    server.on('upgrade', (req, socket) => {
      if (!req.url?.startsWith('/_next/hmr')) return;
      seen.push(req.url);
      socket.end('HTTP/1.1 101 Switching Protocols\r\n\r\n');
    });
    assert.match((await exchange(port, upgrade('/_next/hmr?id=1'))).text, /^HTTP\/1\.1 101/);
    assert.deepEqual(seen, ['/_next/hmr?id=1']);
    assert.match(
      (await exchange(port, upgrade('/other'))).text,
      /^HTTP\/1\.1 404/,
      'other paths are still answered here',
    );
  });
});

test(
  'one client holds at most its cap of connections; one ' + 'more is answered 503 and closed; others still get in',
  async () => {
    await withGate({ perClient: 3 }, async ({ port, gate }) => {
      const held: Socket[] = [];
      for (let i = 0; i < 3; i++) {
        const s = connect({ port, host: '127.0.0.1' });
        await new Promise((r) => s.once('connect', r));
        held.push(s);
      }
      await until(() => gate.stats().open === 3, 'three open connections');
      const fourth = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.ok(fourth.closed);
      assert.match(
        fourth.text,
        new RegExp(
          String.raw`^HTTP\/1\.1 503 Service Unavailable\r\n[\s\S]*Connection: ` +
            String.raw`close[\s\S]*too many connections from this client: 3 are open already`,
        ),
      );
      const up = await exchange(port, upgrade('/api/stream'));
      assert.match(up.text, /^HTTP\/1\.1 503/, 'an upgrade over the cap too');
      assert.equal(gate.stats().refused, 2);
      // Another address (127.0.0.2 is loopback too) is not affected.
      const other = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', {
        localAddress: '127.0.0.2',
      });
      assert.match(other.text, /^HTTP\/1\.1 200 OK/);
      // A closed connection frees its place.
      held.pop()!.destroy();
      await until(() => gate.stats().open === 2, 'the slot to free');
      const again = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.match(again.text, /^HTTP\/1\.1 200 OK/);
      for (const s of held) s.destroy();
      await until(() => gate.stats().open === 0 && gate.stats().clients === 0, 'every connection to close');
    });
  },
);

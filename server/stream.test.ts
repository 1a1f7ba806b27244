import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { WebSocket } from 'ws';
import { createLiveBus } from '../lib/observer/bus';
import type { LiveEvent } from '../lib/observer/types';

/** The hub forwards whatever the bus carries: these tests publish minimal frames, not schema-valid events. */
const loose = (e: { type: string; at: number; data: Record<string, unknown> }) => e as unknown as LiveEvent;

import { createStreamHub, STREAM_PATH, serializeEvent } from './stream';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as AddressInfo).port;
}

/** Opens a client and collects its frames; resolves once the hub's `hello` arrived. */
async function connect(port: number, path = STREAM_PATH) {
  const frames: Record<string, unknown>[] = [];
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data) => {
      const f = JSON.parse(String(data)) as Record<string, unknown>;
      frames.push(f);
      if (f.type === 'hello') resolve();
    });
  });
  return { ws, frames };
}

const until = async (cond: () => boolean, what: string, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('stream hub (/api/stream)', () => {
  test('serializeEvent turns bigint into decimal and bytes into hex', () => {
    const s = serializeEvent(
      loose({ type: 'message', at: 5, data: { n: 2n ** 70n, b: new Uint8Array([0, 255, 16]) } }),
    );
    assert.equal(s, '{"type":"message","at":5,"data":{"n":"1180591620717411303424","b":"00ff10"}}');
  });

  test('delivers every bus event in order to every client; other paths are not taken', async () => {
    const bus = createLiveBus();
    const hub = createStreamHub(bus);
    const server = createServer((_q, res) => res.end());
    const others: string[] = [];
    server.on('upgrade', (req, socket, head) => {
      if (!hub.handleUpgrade(req, socket, head)) {
        others.push(req.url ?? '');
        socket.destroy();
      }
    });
    const port = await listen(server);
    try {
      const a = await connect(port);
      const b = await connect(port, `${STREAM_PATH}?x=1`);
      assert.equal(hub.stats().clients, 2);
      for (let i = 0; i < 20; i++) bus.publish(loose({ type: 'message', at: i, data: { id: `e${i}` } }));
      bus.publish(loose({ type: 'drop', at: 99, data: { reason: 'signature' } }));
      await until(() => a.frames.length === 22 && b.frames.length === 22, '22 frames on both clients');
      for (const c of [a, b]) {
        assert.deepEqual(
          c.frames.slice(1, 21).map((f) => (f.data as { id: string }).id),
          Array.from({ length: 20 }, (_, i) => `e${i}`),
        );
        assert.deepEqual(c.frames[21], { type: 'drop', at: 99, data: { reason: 'signature' } });
      }
      const bad = new WebSocket(`ws://127.0.0.1:${port}/_next/hmr`);
      await new Promise<void>((r) => bad.once('error', () => r()));
      assert.deepEqual(others, ['/_next/hmr']);
      a.ws.close();
      b.ws.close();
      await until(() => hub.stats().clients === 0, 'clients to leave');
      assert.equal(hub.stats().sent, 42);
      assert.equal(hub.stats().dropped, 0);
    } finally {
      await hub.close();
      server.close();
    }
  });

  test('a client that stops reading loses events (counted), never blocks, and is told how many', async () => {
    const bus = createLiveBus();
    const hub = createStreamHub(bus, { highWaterBytes: 256 << 10, lowWaterBytes: 16 << 10 });
    const server = createServer();
    server.on('upgrade', (req, socket, head) => hub.handleUpgrade(req, socket, head));
    const port = await listen(server);
    try {
      const slow = await connect(port);
      const fast = await connect(port);
      const socket = (slow.ws as unknown as { _socket: import('node:net').Socket })._socket;
      socket.pause();
      // 400 events of ~64 KiB in one synchronous burst: far beyond any loopback socket buffer.
      const blob = 'x'.repeat(64 << 10);
      let published = 0;
      for (let i = 0; i < 400; i++, published++)
        bus.publish(loose({ type: 'message', at: i, data: { id: `e${i}`, blob } }));
      assert.ok(hub.stats().dropped > 0, 'the burst must have overflowed at least the paused client');
      socket.resume();
      // Keep publishing small events until both clients got one: by then every lag episode has
      // been reported to its client with a `lagged` frame.
      const gotAfter = (c: { frames: Record<string, unknown>[] }) =>
        c.frames.some((f) => String((f.data as { id?: string })?.id).startsWith('after'));
      for (let k = 0; !(gotAfter(slow) && gotAfter(fast)); k++, published++) {
        if (k > 500) throw new Error('clients never caught up');
        bus.publish(loose({ type: 'message', at: 1000 + k, data: { id: `after${k}` } }));
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 100));
      const account = (c: { frames: Record<string, unknown>[] }) => {
        const delivered = c.frames.filter((f) => f.type === 'message').length;
        const lost = c.frames
          .filter((f) => f.type === 'lagged')
          .reduce((n, f) => n + (f.data as { dropped: number }).dropped, 0);
        return { delivered, lost };
      };
      const s = account(slow);
      const f = account(fast);
      assert.ok(s.lost > 0, 'the paused client was told it lost events');
      assert.equal(s.delivered + s.lost, published, 'slow: delivered + reported lost = published');
      assert.equal(f.delivered + f.lost, published, 'fast: delivered + reported lost = published');
      assert.equal(hub.stats().dropped, s.lost + f.lost);
      // A lag notice always comes right before a delivered event, never at the end.
      assert.equal(slow.frames.at(-1)?.type, 'message');
      slow.ws.close();
      fast.ws.close();
    } finally {
      await hub.close();
      server.close();
    }
  });

  test(
    'one client takes at most its share of the slots ' + '(1013 with a reason, counted); others still get one',
    async () => {
      const bus = createLiveBus();
      const hub = createStreamHub(bus, { maxPerClient: 3, maxClients: 10 });
      const server = createServer();
      server.on('upgrade', (req, socket, head) => hub.handleUpgrade(req, socket, head));
      const port = await listen(server);
      const closeOf = (ws: WebSocket) =>
        new Promise<{ code: number; reason: string }>((r) => {
          const timer = setTimeout(() => r({ code: 0, reason: 'still open after 3 s' }), 3_000);
          ws.once('close', (code, reason) => {
            clearTimeout(timer);
            r({ code, reason: String(reason) });
          });
        });
      try {
        const mine = [await connect(port), await connect(port), await connect(port)];
        const fourth = new WebSocket(`ws://127.0.0.1:${port}${STREAM_PATH}`);
        const closed = await closeOf(fourth);
        fourth.terminate();
        assert.equal(closed.code, 1013);
        assert.match(closed.reason, /too many streams from this client: 3 are open already/);
        assert.equal(hub.stats().refused, 1);
        assert.equal(hub.stats().clients, 3);
        // Another address still gets a slot.
        const other = new WebSocket(`ws://127.0.0.1:${port}${STREAM_PATH}`, { localAddress: '127.0.0.2' });
        await new Promise<void>((resolve, reject) => {
          other.once('message', () => resolve());
          other.once('error', reject);
        });
        assert.equal(hub.stats().clients, 4);
        // A closed stream frees its client's slot.
        mine[0].ws.close();
        await until(() => hub.stats().clients === 3, 'the slot to free');
        const again = await connect(port);
        assert.equal(hub.stats().clients, 4);
        for (const c of [...mine.slice(1), again]) c.ws.close();
        other.close();
      } finally {
        await hub.close();
        server.close();
      }
    },
  );

  test('rejects a bus that is not one', () => {
    assert.throws(() => createStreamHub(undefined as never), TypeError);
  });
});

export type { LiveEvent };

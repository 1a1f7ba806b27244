// The heavy-read gate on a real HTTP server: slots per client, a short queue then 429, slots
// given back on abort, time charged to the client's budget, light reads never held.

import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createHeavyGate, type HeavyGate, type HeavyLimits, heavyClassOf } from './heavy-gate';

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
  ms: number;
}

function get(port: number, path: string, localAddress = '127.0.0.1', signal?: AbortSignal): Promise<Reply> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress, agent: false, signal }, (res) => {
      let body = '';
      res.on('data', (b: Buffer) => (body += b));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: performance.now() - t0 }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Serves through `gate` (or without one); a heavy path's handler runs `work` (wall-clock time
 * spent on the event loop, or a wait for `hold`) before it answers, as a database read would.
 */
async function serve(gate: HeavyGate | null, work: { busyMs?: number; hold?: Promise<void> } = {}) {
  let started = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (!heavyClassOf(req.url)) return void res.end('light');
    started++;
    setImmediate(async () => {
      if (work.hold) await work.hold;
      const end = Date.now() + (work.busyMs ?? 0);
      while (Date.now() < end) {
        /* the read's CPU time */
      }
      if (!res.destroyed) res.end('heavy');
    });
  };
  const server = createServer((req, res) => (gate ? gate.run(req, res, () => handler(req, res)) : handler(req, res)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    started: () => started,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

const limits = (o: Partial<HeavyLimits>): HeavyLimits => ({
  perClient: 2,
  queue: 4,
  waitMs: 5_000,
  budget: null,
  ...o,
});

test('heavy reads are classified by the path Next serves; health, the stream and light reads are not', () => {
  for (const p of [
    '/api/replay?from=0',
    '/api/envelopes',
    '/x/../api/collusion?window=100000',
    '/api/reconciliation/ab/1',
    '/api/search?q=a',
    '/api/mcp',
    '/collusion',
    '/api/conversations/',
  ])
    assert.equal(heavyClassOf(p), 'read', p);
  assert.equal(heavyClassOf('/api/export/envelopes?format=csv'), 'export');
  for (const p of [
    '/api/health',
    '/api/stream',
    '/api/export/progress?job=abcdefgh',
    '/api/envelopes/ab/raw',
    '/agents/ab',
    '/',
  ])
    assert.equal(heavyClassOf(p), null, p);
});

test('a client gets its slots, then a short queue, then 429 with Retry-After and a sentence', async () => {
  let release!: () => void;
  const hold = new Promise<void>((r) => (release = r));
  const gate = createHeavyGate(limits({ perClient: 2, queue: 1 }));
  const s = await serve(gate, { hold });
  try {
    const pending = [0, 1, 2].map(() => get(s.port, '/api/replay?from=0&to=999'));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(s.started(), 2, 'two run at once');
    assert.equal(gate.stats().waiting, 1);
    const refused = await get(s.port, '/api/replay?from=0&to=999');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '1');
    assert.match(JSON.parse(refused.body).error, /too many heavy reads from this client: 2 are running and 1 waiting/);
    // Another client is not held by the first one's reads: its read starts at once.
    const other = get(s.port, '/api/replay?from=0&to=999', '127.0.0.2');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(s.started(), 3);
    release();
    assert.deepEqual(
      (await Promise.all([...pending, other])).map((r) => r.status),
      [200, 200, 200, 200],
    );
    assert.equal(gate.stats().refusedBusy, 1);
  } finally {
    gate.close();
    await s.close();
  }
});

test('a slot is given back when its client goes away, and a waiting client that leaves frees its place', async () => {
  const gate = createHeavyGate(limits({ perClient: 1, queue: 1 }));
  const s = await serve(gate, { hold: new Promise(() => {}) });
  try {
    const a = new AbortController();
    const b = new AbortController();
    const first = get(s.port, '/api/envelopes?limit=500', '127.0.0.1', a.signal).catch(() => null);
    await new Promise((r) => setTimeout(r, 100));
    const second = get(s.port, '/api/envelopes?limit=500', '127.0.0.1', b.signal).catch(() => null);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual([gate.stats().running, gate.stats().waiting], [1, 1]);
    b.abort();
    await second;
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual([gate.stats().running, gate.stats().waiting], [1, 0], 'the waiting one left the queue');
    a.abort();
    await first;
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual([gate.stats().running, gate.stats().waiting], [0, 0], 'the running one gave its slot back');
    // The client can read again: it gets a slot, not a 429.
    const third = get(s.port, '/api/envelopes?limit=500').catch(() => null);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(gate.stats().running, 1);
    assert.equal(s.started(), 2, 'the first and the third ran; the second left before its turn');
    void third;
  } finally {
    gate.close();
    await s.close();
  }
});

test('a heavy read is charged the time it took; a spent budget is a 429 for heavy reads only', async () => {
  // 50 ms of heavy reads banked, 10 ms earned per second: one 120 ms read spends it.
  const gate = createHeavyGate(limits({ budget: { perSecond: 10, burst: 50 } }));
  const s = await serve(gate, { busyMs: 120 });
  try {
    assert.equal((await get(s.port, '/api/collusion?window=100000')).status, 200);
    assert.ok(gate.budgetOf('127.0.0.1') < -60, `charged ~120 ms, left ${gate.budgetOf('127.0.0.1')}`);
    const refused = await get(s.port, '/api/collusion?window=100000');
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers['retry-after']) >= 7, `retry after ${refused.headers['retry-after']}`);
    assert.match(JSON.parse(refused.body).error, /heavy-read budget spent/);
    assert.equal((await get(s.port, '/api/health')).status, 200, 'light reads are not charged or refused');
    assert.equal((await get(s.port, '/api/collusion', '127.0.0.2')).status, 200, 'another client has its own budget');
    // Exports hold a slot but their time is the downloader's pace: not charged.
    const before = gate.budgetOf('127.0.0.3');
    assert.equal((await get(s.port, '/api/export/envelopes', '127.0.0.3')).status, 200);
    assert.equal(Math.round(gate.budgetOf('127.0.0.3')), Math.round(before));
  } finally {
    gate.close();
    await s.close();
  }
});

test('16 heavy reads from one client leave /api/health fast for another', async (t) => {
  const health = async (mode: 'gated' | 'open') => {
    const child = fork(fileURLToPath(new URL('./heavy-gate.fixture.ts', import.meta.url)), [mode, '200'], {
      execArgv: ['--import', 'tsx'],
    });
    try {
      const port = await new Promise<number>((r) => child.once('message', (m) => r(Number(m))));
      const flooded = new Promise((r) => child.once('message', r));
      const flood = Array.from({ length: 16 }, () =>
        get(port, '/api/replay?from=0&to=999999999999999&limit=1000').catch(() => null),
      );
      await flooded;
      const h = await get(port, '/api/health', '127.0.0.2');
      await Promise.all(flood);
      return h.ms;
    } finally {
      child.kill();
    }
  };
  const gated = await health('gated');
  assert.ok(gated < 250, `with the gate /api/health took ${gated.toFixed(0)} ms`);
  // The same flood without the gate: every read runs at once and health waits for all of them.
  const open = await health('open');
  t.diagnostic(`/api/health during the flood: ${gated.toFixed(0)} ms with the gate, ${open.toFixed(0)} ms without`);
  assert.ok(open > 2.5 * gated, `without it ${open.toFixed(0)} ms`);
});

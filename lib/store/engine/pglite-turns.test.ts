/**
 * PGlite runs statements on the caller's thread: a long chain of awaited statements must still
 * let the event loop turn (sockets polled, timers run), or every request waits for the chain.
 */

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { openPglite, PGLITE_SLICE_MS } from './db';

test('a chain of PGlite statements lets HTTP requests in within a few slices', async () => {
  const db = await openPglite();
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    await db.query('CREATE TABLE t (k int PRIMARY KEY, v text)');
    // The request is sent, then this thread runs ~1.5 s of statements, each awaited after the last.
    const started = performance.now();
    const answered = fetch(`http://127.0.0.1:${port}/`).then(async (r) => {
      await r.text();
      return performance.now() - started;
    });
    let k = 0;
    while (performance.now() - started < 1_500) {
      await db.query(`INSERT INTO t SELECT g + $1, md5(g::text) FROM generate_series(1, 200) g`, [k]);
      k += 200;
    }
    const ms = await answered;
    assert.ok(ms < 1_000, `the request waited ${ms.toFixed(0)} ms behind the statements (slice ${PGLITE_SLICE_MS} ms)`);
  } finally {
    server.close();
    await db.close();
  }
});

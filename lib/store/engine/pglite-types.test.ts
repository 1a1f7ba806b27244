/**
 * How the store reads results from embedded PGlite.
 * - bytea with the store's own hex parser and serializer: every byte value round-trips as a
 *   parameter and as a result, the empty value too, each result is an exact-size Uint8Array of
 *   its own (a view of a shared pool would pin the pool for as long as an id lives), and a value
 *   that is not bytea is refused by name.
 * - patches/@electric-sql+pglite+0.4.3.patch: a query without parsers of its own uses the
 *   client's parsers as they are, instead of copying all ~316 of them for every result (as
 *   PGlite 0.5 does); the assertion marked "unpatched" fails without the patch.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { openPglite, parseByteaHex, serializeBytea } from './db';

test('bytea round-trips through PGlite as exact-size Uint8Arrays', async () => {
  const db = await openPglite();
  try {
    const every = Uint8Array.from({ length: 256 }, (_, i) => i);
    const rows = await db.query<{ b: Uint8Array; n: number; e: Uint8Array; h: string }>(
      `SELECT $1::bytea AS b, length($1::bytea) AS n, ''::bytea AS e, encode($1::bytea, 'hex') AS h`,
      [every],
    );
    const r = rows[0]!;
    assert.deepEqual(r.b, every);
    assert.equal(r.n, 256, 'the parameter reached Postgres whole');
    assert.equal(r.h, Buffer.from(every).toString('hex'));
    assert.equal(r.e.length, 0);
    for (const v of [r.b, r.e]) {
      assert.equal(Object.getPrototypeOf(v), Uint8Array.prototype, 'a plain Uint8Array');
      assert.equal(v.byteOffset, 0);
      assert.equal(v.buffer.byteLength, v.length, 'its own buffer, exactly its size');
    }
    // A view into a larger buffer is sent as exactly its bytes.
    const big = new Uint8Array(64).fill(7);
    const [v] = await db.query<{ n: number }>('SELECT length($1::bytea) AS n', [big.subarray(8, 40)]);
    assert.equal(v!.n, 32);
  } finally {
    await db.close();
  }
});

test('a value that is not hex bytea is refused by name', () => {
  assert.throws(() => parseByteaHex('\\x0g'), /bytea not in hex form/);
  assert.throws(() => parseByteaHex('\\x0'), /bytea not in hex form/);
  assert.throws(() => parseByteaHex('abc'), /bytea not in hex form/);
  assert.throws(() => serializeBytea('00ff'), /must be a Uint8Array/);
  assert.equal(serializeBytea(new Uint8Array([1, 2])), '\\x0102');
});

test("a result is parsed with the client's parsers as they are, not a copy of them per query", async () => {
  const pg = await PGlite.create();
  try {
    let enumerated = 0;
    const client = pg as unknown as { parsers: Record<number, unknown> };
    client.parsers = new Proxy(client.parsers, {
      ownKeys(t) {
        enumerated++;
        return Reflect.ownKeys(t);
      },
    });
    const r = await pg.query<{ n: number; t: string }>(`SELECT 41 + 1 AS n, 'x' AS t`);
    assert.deepEqual(r.rows, [{ n: 42, t: 'x' }], 'int4 still parsed to a number');
    assert.equal(enumerated, 0, 'unpatched: the parsers were copied for this result');
    // A query's own parsers still apply on top of the client's.
    const own = await pg.query<{ n: string }>('SELECT 7 AS n', [], { parsers: { 23: (x: string) => `int ${x}` } });
    assert.deepEqual(own.rows, [{ n: 'int 7' }]);
  } finally {
    await pg.close();
  }
});

/** Tool answers stay small: long arrays and strings are cut, each cut says how much is missing. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { truncate } from './server';

test('arrays past the item cap keep their head and a note with the count left out', () => {
  const out = truncate({ list: Array.from({ length: 30 }, (_, i) => i) }, 25, 400) as { list: unknown[] };
  assert.equal(out.list.length, 26);
  assert.deepEqual(
    out.list.slice(0, 25),
    Array.from({ length: 25 }, (_, i) => i),
  );
  assert.match(String(out.list[25]), /^… 5 more items/);
});

test('strings past the character cap are cut with the count; nested values too; short values untouched', () => {
  const long = 'x'.repeat(450);
  const out = truncate({ a: { b: [long] }, n: 7, ok: 'short', nil: null }, 25, 400) as {
    a: { b: string[] };
    n: number;
    ok: string;
    nil: null;
  };
  assert.equal(out.a.b[0], `${'x'.repeat(400)}… (50 more characters)`);
  assert.equal(out.n, 7);
  assert.equal(out.ok, 'short');
  assert.equal(out.nil, null);
  assert.deepEqual(truncate([1, 2], 25, 400), [1, 2]);
});

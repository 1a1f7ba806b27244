// The one hex module: what each reader accepts, so callers that need one spelling get exactly one.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromCanonicalHex, fromHex, toHex } from './hex';

test('toHex writes lowercase pairs, the same below and above the native-Buffer threshold', () => {
  assert.equal(toHex(new Uint8Array([0, 1, 0xab, 0xff])), '0001abff');
  const long = Uint8Array.from({ length: 40 }, (_, i) => i * 7);
  assert.equal(toHex(long), Array.from(long, (b) => b.toString(16).padStart(2, '0')).join(''));
  assert.equal(
    toHex(long.subarray(3, 20)),
    toHex(Uint8Array.from(long.subarray(3, 20))),
    'a view writes its own bytes only',
  );
});

test('fromHex is lenient (0x, either case); fromCanonicalHex takes only what toHex writes', () => {
  assert.deepEqual(fromHex('0xABcd'), new Uint8Array([0xab, 0xcd]));
  assert.throws(() => fromHex('abc'), TypeError);
  assert.deepEqual(fromCanonicalHex('abcd'), new Uint8Array([0xab, 0xcd]));
  assert.deepEqual(fromCanonicalHex(''), new Uint8Array(0));
  for (const bad of ['ABCD', '0xabcd', 'abc', 'zz', ' ab']) assert.equal(fromCanonicalHex(bad), null, bad);
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { encodeCanonical } from '../protocol/cbor';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_ITEMS, parseUploadBody } from './upload';

describe('parseUploadBody', () => {
  test('an array of byte strings', () => {
    const r = parseUploadBody(encodeCanonical([new Uint8Array([1, 2]), new Uint8Array(0)]));
    assert.ok(r.ok);
    assert.deepEqual(r.items, [
      { ok: true, bytes: new Uint8Array([1, 2]) },
      { ok: true, bytes: new Uint8Array(0) },
    ]);
  });
  test('a non-bytes element is a per-item failure', () => {
    const r = parseUploadBody(encodeCanonical([new Uint8Array([9]), 5n]));
    assert.ok(r.ok);
    assert.deepEqual(r.items[1], { ok: false, detail: 'item 1 is not a byte string' });
  });
  const bad: Array<[string, Uint8Array, RegExp]> = [
    ['empty', new Uint8Array(0), /empty body/],
    ['a map', new Uint8Array([0xa0]), /not a CBOR array/],
    ['a byte string', encodeCanonical(new Uint8Array(3)), /not a CBOR array/],
    ['indefinite', new Uint8Array([0x9f, 0x41, 1, 0xff]), /indefinite/],
    ['truncated', new Uint8Array([0x82, 0x41, 1]), /malformed CBOR/],
    ['trailing bytes', new Uint8Array([0x81, 0x41, 1, 0]), /malformed CBOR/],
    ['claims more items than bytes', new Uint8Array([0x99, 0x03, 0xe8]), /too short/],
  ];
  for (const [name, body, re] of bad) {
    test(`400 for ${name}`, () => {
      const r = parseUploadBody(body);
      assert.ok(!r.ok);
      assert.equal(r.status, 400);
      assert.match(r.message, re);
    });
  }
  test('413 over the size cap and the item cap', () => {
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    big[0] = 0x81;
    const r1 = parseUploadBody(big);
    assert.ok(!r1.ok && r1.status === 413);
    const many = encodeCanonical(Array.from({ length: MAX_UPLOAD_ITEMS + 1 }, () => new Uint8Array(0)));
    const r2 = parseUploadBody(many);
    assert.ok(!r2.ok && r2.status === 413 && /10001 items/.test(r2.message));
  });
  test('random bytes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        const r = parseUploadBody(b);
        assert.ok(r.ok || r.status === 400 || r.status === 413);
      }),
    );
  });
});

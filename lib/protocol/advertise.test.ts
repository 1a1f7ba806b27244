import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ADVERTISE_MAX_BODY, decodeAdvertise, encodeAdvertiseJson } from './advertise';
import { encodeCanonical } from './cbor';

const h = (s: string) =>
  Uint8Array.from(
    s
      .replace(/\s+/g, '')
      .match(/../g)!
      .map((x) => parseInt(x, 16)),
  );
const withHint = (hint: string, body: Uint8Array) =>
  Uint8Array.from([...hint].map((c) => c.charCodeAt(0)).concat([...body]));

test('JSON hint: the object comes back as sent', () => {
  const caps = {
    service: 'translate',
    price: { min: 450, max: 1200, token: 'USDC' },
    strategy: 'tit-for-tat',
    verification: [0, 2],
    sealed: true,
    note: null,
  };
  assert.deepEqual(decodeAdvertise(encodeAdvertiseJson(caps)), { ok: true, format: 'JSON', value: caps });
});

test('CBOR hint: a canonical map decodes; text keys in bytewise order of their encoding', () => {
  // {"a": 1, "c": -2, "bb": [true, null, h'01ff']}: "a" < "c" < "bb" because shorter keys sort first.
  const r = decodeAdvertise(withHint('CBOR', h('a3 6161 01 6163 21 626262 83 f5 f6 4201ff')));
  assert.deepEqual(r, { ok: true, format: 'CBOR', value: { a: 1, c: -2, bb: [true, null, '0x01ff'] } });
  // A protocol-style array (canonical CBOR of lib/protocol) is accepted too.
  assert.deepEqual(decodeAdvertise(withHint('CBOR', encodeCanonical([1, [2, 3]]))), {
    ok: true,
    format: 'CBOR',
    value: [1, [2, 3]],
  });
});

test('CBOR that is not canonical, or not the subset, stays opaque with a reason', () => {
  const cases: Array<[string, RegExp]> = [
    ['a2 6163 01 6161 02', /canonical order/], // keys out of order
    ['a2 6161 01 6161 02', /canonical order/], // duplicate key
    ['81 1805', /shortest head/],
    ['9f 01 ff', /indefinite/],
    ['81 f93c00', /float/],
    ['81 c1 01', /tag/],
    ['81 01 00', /trailing/],
    ['a1 01 02', /key is not text/],
    ['01', /not a map or an array/],
    ['83 01', /truncated/],
    ['81 62 c328', /UTF-8/],
    ['9b ffffffffffffffff', /more than/],
  ];
  for (const [hex, re] of cases) {
    const r = decodeAdvertise(withHint('CBOR', h(hex)));
    assert.equal(r.ok, false, hex);
    assert.match(!r.ok ? r.detail : '', re, hex);
  }
});

test('no hint, a bad JSON body, and bounds: opaque, never an exception', () => {
  // The demo BEACON payload (CBOR without a hint) is opaque.
  assert.deepEqual(decodeAdvertise(encodeCanonical([new Uint8Array(3), []])), {
    ok: false,
    detail: 'no JSON or CBOR format hint',
  });
  assert.match(
    (decodeAdvertise(withHint('JSON', new TextEncoder().encode('[1,2]'))) as { detail: string }).detail,
    /not an object/,
  );
  assert.match((decodeAdvertise(withHint('JSON', h('7b ff 7d'))) as { detail: string }).detail, /not UTF-8/);
  assert.match(
    (decodeAdvertise(withHint('JSON', new TextEncoder().encode('{"a":'))) as { detail: string }).detail,
    /^JSON/,
  );
  const big = withHint('JSON', new TextEncoder().encode(`{"a":"${'x'.repeat(ADVERTISE_MAX_BODY)}"}`));
  assert.match((decodeAdvertise(big) as { detail: string }).detail, /larger than/);
  const deep = withHint('JSON', new TextEncoder().encode(`{"a":${'['.repeat(20)}${']'.repeat(20)}}`));
  assert.match((decodeAdvertise(deep) as { detail: string }).detail, /deeper/);
  const deepCbor = withHint('CBOR', new Uint8Array(200).fill(0x81));
  assert.match((decodeAdvertise(deepCbor) as { detail: string }).detail, /deeper/);
  // A `__proto__` key is a key like any other, not a prototype.
  const r = decodeAdvertise(withHint('JSON', new TextEncoder().encode('{"__proto__":{"polluted":1}}')));
  assert.ok(r.ok && typeof r.value === 'object' && r.value !== null);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.getPrototypeOf(r.ok ? r.value : null), Object.prototype);
});

test('property: decode of random bytes, hinted or not, never throws and always answers', () => {
  const hint = fc.constantFrom('', 'JSON', 'CBOR', 'CBO', 'NEG1');
  fc.assert(
    fc.property(hint, fc.uint8Array({ maxLength: 600 }), (p, body) => {
      const r = decodeAdvertise(withHint(p, body));
      assert.equal(typeof r.ok, 'boolean');
      if (r.ok) assert.ok(p === 'JSON' || p === 'CBOR');
    }),
    { numRuns: 2000 },
  );
  // Random JSON objects round-trip.
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 }), (o) => {
      const bytes = encodeAdvertiseJson(o as Record<string, never>);
      if (bytes.length - 4 > ADVERTISE_MAX_BODY) return;
      const r = decodeAdvertise(bytes);
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(r.value, JSON.parse(JSON.stringify(o)));
    }),
    { numRuns: 300 },
  );
});

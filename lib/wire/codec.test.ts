import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { MsgType } from '../protocol/types';
import {
  bigintToDecimal,
  bytesOf,
  bytesToHex,
  decimalToBigint,
  hex16,
  hex32,
  hexBytes,
  hexToBytes,
  I64_MAX,
  I64_MIN,
  i64String,
  intString,
  jsonReplacer,
  parseI64,
  parseU64,
  toJsonText,
  U64_MAX,
  u64,
  u64String,
  WireError,
} from './codec';
import { MSG_TYPE_NAMES, msgTypeName } from './msg-type';

const I128_MIN = -(1n << 127n);
const I128_MAX = (1n << 127n) - 1n;

describe('bytes <-> hex', () => {
  test('round trip for bytes of any length, lowercase, accepted by the schema', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        const h = bytesToHex(b);
        assert.equal(h.length, b.length * 2);
        assert.match(h, /^[0-9a-f]*$/);
        assert.deepEqual(hexToBytes(h), b);
        assert.ok(hexBytes.safeParse(h).success);
      }),
    );
  });

  test('a Uint8Array view into a larger buffer encodes only its bytes', () => {
    const buf = new Uint8Array([9, 9, 0xab, 0xcd, 9]);
    assert.equal(bytesToHex(buf.subarray(2, 4)), 'abcd');
  });

  test('fixed lengths: hex32 and hex16; bytesOf parses to bytes', () => {
    assert.ok(hex32.safeParse('ab'.repeat(32)).success);
    assert.ok(!hex32.safeParse('ab'.repeat(31)).success);
    assert.ok(!hex32.safeParse('ab'.repeat(33)).success);
    assert.ok(hex16.safeParse('00'.repeat(16)).success);
    assert.deepEqual(bytesOf(2).parse('0aff'), new Uint8Array([10, 255]));
    assert.deepEqual(hexToBytes('0102', 2), new Uint8Array([1, 2]));
    assert.throws(
      () => hexToBytes('0102', 3, 'agent'),
      (e: Error) => e instanceof WireError && /agent: must be 3 bytes/.test(e.message),
    );
  });

  for (const bad of ['ABCD', '0xabcd', 'abc', 'zz', 'ab cd', ' ab', 'ab\n']) {
    test(`rejects ${JSON.stringify(bad)}`, () => {
      assert.throws(
        () => hexToBytes(bad, undefined, 'field'),
        (e: Error) => e instanceof WireError && /^field: must be lowercase hex/.test(e.message),
      );
      assert.ok(!hexBytes.safeParse(bad).success);
    });
  }
  test('rejects non-strings', () => {
    assert.throws(() => hexToBytes(12 as never), WireError);
    assert.throws(() => bytesToHex('ab' as never), WireError);
  });
});

describe('bigint <-> decimal string', () => {
  test('u64 over its full range', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), (v) => {
        const s = bigintToDecimal(v);
        assert.equal(parseU64(s), v);
        assert.equal(u64.parse(s), v);
        assert.ok(u64String.safeParse(s).success);
      }),
    );
  });

  test('i64 over its full range', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: I64_MIN, max: I64_MAX }), (v) => {
        const s = bigintToDecimal(v);
        assert.equal(parseI64(s), v);
        assert.ok(i64String.safeParse(s).success);
      }),
    );
  });

  test('i128 (any width) over its full range', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: I128_MIN, max: I128_MAX }), (v) => {
        const s = bigintToDecimal(v);
        assert.equal(decimalToBigint(s), v);
        assert.ok(intString.safeParse(s).success);
      }),
    );
  });

  test('the range edges', () => {
    assert.equal(parseU64('18446744073709551615'), U64_MAX);
    assert.throws(() => parseU64('18446744073709551616'), /u64: 18446744073709551616 is above 18446744073709551615/);
    assert.ok(!u64String.safeParse('18446744073709551616').success);
    assert.equal(parseI64('-9223372036854775808'), I64_MIN);
    assert.throws(() => parseI64('9223372036854775808'), WireError);
    assert.throws(() => parseI64('-9223372036854775809'), WireError);
    assert.ok(!i64String.safeParse('9223372036854775808').success);
  });

  for (const bad of ['', ' 1', '1 ', '+1', '01', '-0', '1.0', '1e3', '0x10', 'ten', '١٢']) {
    test(`rejects ${JSON.stringify(bad)}`, () => {
      assert.throws(
        () => decimalToBigint(bad, 'epoch'),
        (e: Error) => e instanceof WireError && /^epoch: must be a decimal integer string/.test(e.message),
      );
      assert.ok(!intString.safeParse(bad).success);
      assert.ok(!u64String.safeParse(bad).success);
    });
  }
  test('a u64 is never negative', () => {
    assert.throws(() => parseU64('-1'), /u64: must be a non-negative decimal integer string/);
    assert.ok(!u64String.safeParse('-1').success);
    assert.throws(() => decimalToBigint(5 as never), WireError);
  });
});

describe('jsonReplacer', () => {
  test('bigint as decimal, bytes (Buffers too) as hex, nested; other values untouched', () => {
    const v = {
      n: 2n ** 70n,
      neg: -5n,
      b: new Uint8Array([0, 255, 16]),
      buf: Buffer.from([1, 2]),
      list: [1n, new Uint8Array([7])],
      s: 'x',
      k: 1,
      z: null,
    };
    assert.equal(
      toJsonText(v),
      '{"n":"1180591620717411303424","neg":"-5","b":"00ff10","buf":"0102","list":["1","07"],"s":"x","k":1,"z":null}',
    );
    assert.equal(JSON.stringify({ a: 1n }, jsonReplacer), '{"a":"1"}');
    assert.equal(toJsonText(3n), '"3"');
    assert.equal(toJsonText(new Uint8Array([10])), '"0a"');
  });
  test('round trip: any record of u64 and bytes serialises and parses back', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), fc.uint8Array({ maxLength: 64 }), (n, b) => {
        const parsed = JSON.parse(toJsonText({ n, b })) as { n: string; b: string };
        assert.equal(parseU64(parsed.n), n);
        assert.deepEqual(hexToBytes(parsed.b), b);
      }),
    );
  });
});

describe('msgTypeName', () => {
  test('every code of lib/protocol MsgType, in code order', () => {
    for (const [name, code] of Object.entries(MsgType)) assert.equal(msgTypeName(code), name);
    assert.deepEqual(MSG_TYPE_NAMES, [
      'ADVERTISE',
      'DISCOVER',
      'PROPOSE',
      'COUNTER',
      'ACCEPT',
      'REJECT',
      'DELIVER',
      'NOTARIZE_BID',
      'NOTARIZE_ASSIGN',
      'VERDICT',
      'FEEDBACK',
      'DISPUTE',
      'BEACON',
    ]);
  });
  test('unknown codes as two hex digits; decimal strings as codes; names upper-cased; junk "?"', () => {
    assert.equal(msgTypeName(0x0e), '0x0e');
    assert.equal(msgTypeName(0), '0x00');
    assert.equal(msgTypeName(0x20), '0x20');
    assert.equal(msgTypeName('11'), 'FEEDBACK');
    assert.equal(msgTypeName('propose'), 'PROPOSE');
    assert.equal(msgTypeName(null), '?');
    assert.equal(msgTypeName(undefined), '?');
    assert.equal(msgTypeName(-1), '?');
    assert.equal(msgTypeName(1.5), '?');
  });
});

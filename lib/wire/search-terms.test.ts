// A query reads as the terms the store walks: base58 prefixes as exact id ranges, ids in either
// form as the same 32 bytes, epochs only within int8.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { PublicKey } from '../chain';
import { agentBytes, agentHex } from './agent-id';
import { base58 } from './format';
import { base58PrefixRanges, searchTerms } from './search-terms';

test('a base58 prefix becomes id ranges that hold exactly the ids it starts', () => {
  for (let i = 0; i < 300; i++) {
    const hex = randomBytes(32).toString('hex');
    const b = base58(hex);
    for (const k of [1, 3, 5, 9]) {
      const prefix = b.slice(0, k);
      const ranges = base58PrefixRanges(prefix);
      if (prefix[0] === '1') {
        assert.deepEqual(ranges, [], 'a leading 1 gives no range');
        continue;
      }
      assert.ok(
        ranges.some(([lo, hi]) => lo <= hex && hex <= hi),
        `${hex} (${b}) in a range of ${prefix}`,
      );
      // Another id in those ranges starts with the prefix too: probe both ends of each range.
      for (const [lo, hi] of ranges) {
        assert.ok(
          base58(lo).startsWith(prefix) && base58(hi).startsWith(prefix),
          `${lo}..${hi} all start with ${prefix}`,
        );
      }
    }
  }
  assert.deepEqual(base58PrefixRanges('0OIl'), [], 'characters outside the alphabet');
});

test('a number past int8 names no epoch (the store could not hold one), alone or after an agent', () => {
  assert.equal(searchTerms('9223372036854775807', 20).epoch, 9223372036854775807n);
  assert.equal(searchTerms('9223372036854775808', 20).epoch, undefined);
  const agent = '11111111111111111111111111111112';
  assert.equal(searchTerms(`${agent} 9223372036854775808`, 20).epoch, undefined);
  assert.equal(searchTerms(`${agent} 12`, 20).epoch, 12n);
});

test('an id reads the same in hex and base58, as a Solana public key reads it', () => {
  for (let i = 0; i < 200; i++) {
    const bytes = randomBytes(32);
    if (i === 0) bytes.fill(0, 0, 31); // leading zero bytes are leading "1"s in base58
    const address = new PublicKey(bytes).toBase58();
    assert.deepEqual(agentBytes(address), new Uint8Array(bytes), address);
    assert.equal(agentHex(`0x${bytes.toString('hex').toUpperCase()}`), bytes.toString('hex'));
  }
  // Base58 text of other than 32 bytes names no agent, as PublicKey refuses it; 32 "1"s are 32 zero bytes.
  const asKey = (s: string) => {
    try {
      return new PublicKey(s).toBytes();
    } catch {
      return null;
    }
  };
  for (const s of ['1'.repeat(32), 'z'.repeat(44), '2'.repeat(32), 'abc', 'a'.repeat(63)]) {
    assert.deepEqual(agentBytes(s), asKey(s) && Uint8Array.from(asKey(s) ?? []), s);
  }
  assert.equal(agentBytes('z'.repeat(44)), null);
});

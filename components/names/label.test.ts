import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { base58 } from '../format';
import { agentLabel, base58PrefixRanges, labelPrefix, shortBase58 } from './label';

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

test('labels are stable, two words, and map back to their hex prefix', () => {
  const hex = `abc${'0'.repeat(61)}`;
  assert.equal(agentLabel(hex), agentLabel(hex));
  assert.match(agentLabel(hex), /^[a-z]+-[a-z]+$/);
  assert.equal(labelPrefix(agentLabel(hex)), 'abc');
  assert.equal(labelPrefix('not a label'), null);
  assert.match(shortBase58(hex), /^.{5}….{4}$/);
});

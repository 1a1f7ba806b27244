// base58 of agent ids agrees with web3.js PublicKey; token amounts stay exact bigints.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublicKey } from '../chain';
import { base58, formatTokenAmount } from './format';

test('base58 of 32-byte ids matches PublicKey.toBase58, leading zero bytes included', () => {
  for (const hex of ['00'.repeat(32), `0001${'ff'.repeat(30)}`, 'aa'.repeat(32), '1f'.repeat(32)]) {
    assert.equal(base58(hex), new PublicKey(Buffer.from(hex, 'hex')).toBase58(), hex);
  }
  assert.equal(base58('not hex'), 'not hex');
});

// Token amounts are shown exactly from bigint: no float ever touches the digits.

const I128_MAX = (1n << 127n) - 1n;
const I128_MIN = -(1n << 127n);
const U64_MAX = (1n << 64n) - 1n;

test('formatTokenAmount keeps int128 extremes exact, in raw units and with decimals', () => {
  assert.equal(formatTokenAmount(I128_MAX), '170,141,183,460,469,231,731,687,303,715,884,105,727 units');
  assert.equal(formatTokenAmount(I128_MIN), '-170,141,183,460,469,231,731,687,303,715,884,105,728 units');
  assert.equal(formatTokenAmount(I128_MAX, { decimals: 6 }), '170,141,183,460,469,231,731,687,303,715,884.105727');
  assert.equal(
    formatTokenAmount(I128_MIN, { decimals: 9, symbol: 'XYZ' }),
    '-170,141,183,460,469,231,731,687,303,715.884105728 XYZ',
  );
  // Around 1.4e38: what the page used to show as "—".
  assert.equal(
    formatTokenAmount(140_000_000_000_000_000_000_000_000_000_000_000_123n),
    '140,000,000,000,000,000,000,000,000,000,000,000,123 units',
  );
});

test('formatTokenAmount keeps u64 exact where a float would round', () => {
  assert.equal(formatTokenAmount(U64_MAX, { decimals: 0 }), '18,446,744,073,709,551,615');
  assert.equal(formatTokenAmount(U64_MAX, { decimals: 6, symbol: 'USDC' }), '18,446,744,073,709.551615 USDC');
  assert.equal(formatTokenAmount(15_223_372_036_854_775_808n, { decimals: 6 }), '15,223,372,036,854.775808');
  assert.equal(formatTokenAmount(9_223_372_036_854_775_807n, { decimals: 9 }), '9,223,372,036.854775807');
});

test('formatTokenAmount: negatives, zero, small fractions and trailing zeros', () => {
  assert.equal(formatTokenAmount(-2_375_000n, { decimals: 6 }), '-2.375');
  assert.equal(formatTokenAmount(-354_437_820_000n, { decimals: 6, symbol: 'USDC' }), '-354,437.82 USDC');
  assert.equal(formatTokenAmount(0n, { decimals: 6 }), '0');
  assert.equal(formatTokenAmount(0n), '0 units');
  assert.equal(formatTokenAmount(1n, { decimals: 9 }), '0.000000001');
  assert.equal(formatTokenAmount(-1n, { decimals: 6 }), '-0.000001');
  assert.equal(formatTokenAmount(1_500_000n, { decimals: 6 }), '1.5');
  assert.equal(formatTokenAmount(1_000_000_000n, { decimals: 9 }), '1');
  assert.equal(formatTokenAmount(1234n, { decimals: 0 }), '1,234');
});

test('formatTokenAmount without known decimals shows raw units, never a guessed scale', () => {
  assert.equal(formatTokenAmount(1_550_000n), '1,550,000 units');
  assert.equal(formatTokenAmount(1_550_000n, { decimals: null }), '1,550,000 units');
  assert.equal(formatTokenAmount(-7n, { symbol: 'ABC' }), '-7 units of ABC');
  // Nonsense decimals are treated as unknown rather than thrown or floated.
  assert.equal(formatTokenAmount(12n, { decimals: -1 }), '12 units');
  assert.equal(formatTokenAmount(12n, { decimals: 1.5 }), '12 units');
});

test('minFractionDigits pads a balance (100.00) but never cuts a digit', () => {
  assert.equal(formatTokenAmount(100_000_000n, { decimals: 6, minFractionDigits: 2 }), '100.00');
  assert.equal(formatTokenAmount(0n, { decimals: 6, minFractionDigits: 2 }), '0.00');
  assert.equal(formatTokenAmount(1_000n, { decimals: 6, minFractionDigits: 2 }), '0.001');
  assert.equal(formatTokenAmount(2_040_000n, { decimals: 9, minFractionDigits: 3 }), '0.00204');
  assert.equal(formatTokenAmount(5n, { decimals: 0, minFractionDigits: 2 }), '5');
});

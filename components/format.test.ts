// Amount figures and chart ticks stay exact bigints (base58 and formatTokenAmount: lib/wire/format.test.ts).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  amountUnits,
  axisLabels,
  bigintScale,
  bigintTicks,
  compactAmount,
  formatAmount,
  formatTokenAmount,
} from './format';

const I128_MAX = (1n << 127n) - 1n;
const I128_MIN = -(1n << 127n);
const U64_MAX = (1n << 64n) - 1n;

test('formatAmount takes decimal strings from the API exactly; anything else is "—"', () => {
  assert.equal(formatAmount('15223372036854775808', { decimals: 6 }), '15,223,372,036,854.775808');
  assert.equal(formatAmount(I128_MAX.toString()), formatTokenAmount(I128_MAX));
  assert.equal(formatAmount(undefined), '—');
  assert.equal(formatAmount('abc'), '—');
  assert.equal(formatAmount('1.'), '—');
});

test('bigintTicks gives exact round ticks covering the range, at any size', () => {
  const a = bigintTicks(1_400_000n, 1_600_000n, 5);
  assert.equal(a.step, 50_000n);
  assert.deepEqual(a.ticks, [1_400_000n, 1_450_000n, 1_500_000n, 1_550_000n, 1_600_000n]);
  const base = 140_000_000_000_000_000_000_000_000_000_000_000_000n;
  const b = bigintTicks(base + 3n, base + 997n, 4);
  assert.equal(b.step, 500n);
  assert.deepEqual(b.ticks, [base, base + 500n, base + 1000n]);
  for (const t of b.ticks) assert.equal(t % b.step, 0n);
  // Around u64 max: every tick is an exact multiple of its step and the range is covered.
  const c = bigintTicks(U64_MAX - 10_000n, U64_MAX, 5);
  assert.ok(c.lo <= U64_MAX - 10_000n && c.hi >= U64_MAX);
  for (const t of c.ticks) assert.equal(t % c.step, 0n);
  // Negative ranges and a single value.
  assert.deepEqual(bigintTicks(-25n, 25n, 5).ticks, [-30n, -20n, -10n, 0n, 10n, 20n, 30n]);
  const d = bigintTicks(1_500_000n, 1_500_000n, 5);
  assert.ok(d.lo < 1_500_000n && d.hi > 1_500_000n && d.ticks.includes(1_500_000n));
  assert.ok(bigintTicks(I128_MIN, I128_MAX, 5).ticks.length <= 7);
});

test('bigintScale places huge values as precisely as small ones', () => {
  const base = 140_000_000_000_000_000_000_000_000_000_000_000_000n;
  const s = bigintScale([base, base + 1000n], [300, 0]);
  assert.equal(s(base), 300);
  assert.equal(s(base + 1000n), 0);
  assert.equal(s(base + 250n), 225);
  assert.equal(bigintScale([5n, 5n], [0, 100])(5n), 50);
});

test('formatAmount: decimal strings exactly, numbers exact only while they can be', () => {
  assert.equal(formatAmount('1500000.5', { decimals: 6 }), '1.5000005');
  assert.equal(formatAmount('1500000.50'), '1,500,000.5 units');
  assert.equal(formatAmount('-7'), '-7 units');
  assert.equal(formatAmount(`${I128_MAX}`, { decimals: 6 }), formatTokenAmount(I128_MAX, { decimals: 6 }));
  assert.equal(formatAmount(U64_MAX), '18,446,744,073,709,551,615 units');
  assert.equal(formatAmount(1_550_000, { decimals: 6, symbol: 'USDC' }), '1.55 USDC');
  assert.equal(formatAmount(1_500_000.5, { decimals: 6 }), '1.5000005');
  // A float that has lost digits says so instead of printing digits it does not have.
  assert.equal(formatAmount(1.4e38), '≈1.4e38 units');
  // biome-ignore lint/correctness/noPrecisionLoss: a float past 2^53 on purpose, to show the lost digits are said
  assert.equal(formatAmount(15_223_372_036_854_775_808, { decimals: 6 }), '≈1.522e13');
  assert.equal(formatAmount(null), '—');
  assert.equal(formatAmount(Number.NaN), '—');
  assert.equal(formatAmount('1e5'), '—');
});

test('axisLabels keep every tick exact and short: plain, exact scientific, or offsets from a base', () => {
  assert.deepEqual(axisLabels([1_400_000n, 1_450_000n, 1_500_000n], { decimals: 6 }), {
    labels: ['1.4', '1.45', '1.5'],
    base: null,
  });
  assert.deepEqual(axisLabels([0n, 500n, 1000n]), { labels: ['0', '500', '1,000'], base: null });
  const e = 10n ** 37n;
  assert.deepEqual(axisLabels([14n * e, (145n * e) / 10n, 15n * e]), {
    labels: ['1.4e38', '1.45e38', '1.5e38'],
    base: null,
  });
  assert.deepEqual(axisLabels([-2n * e * 10n, 0n, 2n * e * 10n], { decimals: 6 }), {
    labels: ['-2e32', '0', '2e32'],
    base: null,
  });
  const base = 140_000_000_000_000_000_000_000_000_000_000_000_000n;
  const ticks = bigintTicks(base + 3n, base + 997n, 4).ticks;
  assert.deepEqual(axisLabels(ticks), { labels: ['+0', '+500', '+1,000'], base });
  const u = bigintTicks(U64_MAX - 10_000n, U64_MAX, 5);
  const l = axisLabels(u.ticks, { decimals: 6 });
  assert.equal(l.base, u.ticks[0]);
  assert.deepEqual(
    l.labels,
    u.ticks.map((t) => (t === u.ticks[0] ? '+0' : `+${formatTokenAmount(t - u.ticks[0], { decimals: 6 })}`)),
  );
});

test('amountUnits places exact amounts exactly and approximate ones near enough', () => {
  assert.equal(amountUnits(I128_MAX.toString()), I128_MAX);
  assert.equal(amountUnits('-12.75'), -12n);
  assert.equal(amountUnits(U64_MAX), U64_MAX);
  assert.equal(amountUnits(1_550_000), 1_550_000n);
  assert.equal(amountUnits(1.4e38), BigInt(1.4e38));
  assert.equal(amountUnits(Number.POSITIVE_INFINITY), null);
  assert.equal(amountUnits('x'), null);
  assert.equal(amountUnits(null), null);
});

test('compactAmount: exact while short, exact scientific for round values, else marked ≈', () => {
  assert.equal(compactAmount(1_550_000n, { decimals: 6 }), '1.55');
  assert.equal(compactAmount(14n * 10n ** 37n), '1.4e38');
  assert.equal(compactAmount(I128_MAX), '≈1.701e38');
  assert.equal(compactAmount(I128_MIN, { decimals: 6 }), '≈-1.701e32');
  assert.equal(compactAmount(U64_MAX, { decimals: 6, maxChars: 30 }), '18,446,744,073,709.551615');
});

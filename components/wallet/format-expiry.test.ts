// Delegation expiry on "My agents" (format.ts expiryText): clock time with its zone, and relative.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expiryText } from './format';

const t = Date.UTC(2026, 10, 26, 14, 5, 0) / 1000;

test('expiry: never, future and past, with the zone named', () => {
  assert.equal(expiryText(0n, t), 'never');
  assert.equal(expiryText(BigInt(t), t - 180, 'UTC'), '2026-11-26 14:05:00 UTC (in 3 min)');
  assert.equal(expiryText(BigInt(t), t + 2 * 3600 + 300, 'UTC'), '2026-11-26 14:05:00 UTC (2 h 5 min ago)');
  assert.equal(expiryText(BigInt(t), t - 4 * 86_400 - 3600, 'UTC'), '2026-11-26 14:05:00 UTC (in 4 d 1 h)');
  assert.equal(expiryText(BigInt(t), t, 'UTC'), '2026-11-26 14:05:00 UTC (now)');
  assert.match(expiryText(BigInt(t), t - 30, 'Asia/Tokyo'), /^2026-11-26 23:05:00 (JST|GMT\+9) \(in 30 s\)$/);
});

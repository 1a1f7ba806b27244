import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PeerRateLimiter } from './rate-limit';

describe('PeerRateLimiter (spec §11: 100 messages/s per peer)', () => {
  test('a new peer gets exactly `burst` messages at one instant', () => {
    const l = new PeerRateLimiter({ ratePerSecond: 100, burst: 100, now: () => 0 });
    let ok = 0;
    for (let i = 0; i < 1000; i++) if (l.take('p')) ok++;
    assert.equal(ok, 100);
  });

  test('refills at ratePerSecond: 1,000 msgs/s for 2 s passes burst + 200', () => {
    let t = 0;
    const l = new PeerRateLimiter({ ratePerSecond: 100, burst: 100, now: () => t });
    let ok = 0;
    for (let i = 0; i < 2000; i++) {
      t = i; // one message per millisecond
      if (l.take('flood')) ok++;
    }
    // 100 from the bucket + 100/s * 1.999 s of refill (floor of whole tokens).
    assert.equal(ok, 299);
  });

  test('peers have separate buckets', () => {
    const l = new PeerRateLimiter({ ratePerSecond: 100, burst: 10, now: () => 0 });
    for (let i = 0; i < 50; i++) l.take('a');
    let b = 0;
    for (let i = 0; i < 10; i++) if (l.take('b')) b++;
    assert.equal(b, 10);
    assert.equal(l.take('a'), false);
  });

  test('bucket never exceeds burst after a long idle', () => {
    let t = 0;
    const l = new PeerRateLimiter({ ratePerSecond: 100, burst: 5, now: () => t });
    l.take('p');
    t = 3_600_000;
    let ok = 0;
    for (let i = 0; i < 100; i++) if (l.take('p')) ok++;
    assert.equal(ok, 5);
  });

  test('memory is bounded by maxPeers', () => {
    const l = new PeerRateLimiter({ ratePerSecond: 1, burst: 1, now: () => 0, maxPeers: 3 });
    for (let i = 0; i < 10; i++) l.take(`p${i}`);
    assert.equal(l.size, 3);
  });

  test('bad parameters throw naming them', () => {
    assert.throws(() => new PeerRateLimiter({ ratePerSecond: 0, burst: 1, now: () => 0 }), /ratePerSecond/);
    assert.throws(() => new PeerRateLimiter({ ratePerSecond: 1, burst: 0, now: () => 0 }), /burst/);
    assert.throws(() => new PeerRateLimiter({ ratePerSecond: 1, burst: 1, now: 5 as never }), /now/);
  });
});

// get_negotiation's analytics: exact amounts as decimal strings (int128 included), the reason of
// every unknown figure, and nothing JSON cannot carry, on a generated sealed-bid negotiation.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeNegotiation } from '../protocol/analytics';
import { generateNegotiation } from '../protocol/testing';
import { analyticsDigest } from './negotiation';

test('the digest is plain JSON with exact amounts and the reasons for unknown figures', () => {
  const big = 10n ** 38n;
  const g = generateNegotiation({
    buyer: { p0: big / 2n, reservation: big + 1n, beta: 2, sealed: 'commit', decayBps: 100 },
    seller: { p0: big + big / 2n, reservation: big - 2n, beta: 0.5, sealed: 'reveal-only', decayBps: 100 },
    first: 'buyer',
    offersEach: 4,
    deliver: true,
  });
  const a = analyzeNegotiation(
    g.messages.map((m) => ({
      sender: m.envelope.sender,
      msgType: m.envelope.msgType,
      timestamp: m.envelope.timestamp,
      payload: m.envelope.payload,
    })),
  );
  const d = analyticsDigest(a);
  assert.deepEqual(JSON.parse(JSON.stringify(d)), d, 'JSON round trip without loss');
  assert.equal(d.deal?.price, g.deal!.toString());
  assert.deepEqual(
    d.sides.find((x) => x.role === 'buyer')!.offers.map((o) => o.price),
    g.offers.buyer.map(String),
  );
  assert.deepEqual(
    d.reservations.map((r) => r.status),
    ['verified', 'no commitment'],
  );
  assert.equal(d.zopa, null);
  assert.match(d.unknown.zopa!, /no earlier commitment/);
});

// The gossip/chain pairing rule on its own: every kind of position, open against closed, the
// settled amount against the ACCEPT, and prices beyond 2^64 compared exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareOffers } from './offer-match';

const chain = (...amounts: Array<bigint | null>) => amounts.map((amount, i) => ({ amount, signature: `s${i}` }));

test('positions: same, differs, chain only, gossip only; each non-same one counted', () => {
  const c = compareOffers({ chain: chain(400n, 900n, 600n), gossip: [400n, 950n], closed: true, settled: null, gossipAccepted: null });
  assert.deepEqual(c.positions.map((p) => [p.position, p.chain?.signature ?? null, p.gossip, p.match]), [
    [1, 's0', 400n, 'same'], [2, 's1', 950n, 'differs'], [3, 's2', null, 'chain_only'],
  ]);
  assert.equal(c.differences, 2);
  const g = compareOffers({ chain: chain(400n), gossip: [400n, 900n, 600n], closed: true, settled: null, gossipAccepted: null });
  assert.deepEqual(g.positions.map((p) => p.match), ['same', 'gossip_only', 'gossip_only']);
  assert.equal(g.differences, 2);
});

test('while open, gossip the chain has not caught up with is no difference', () => {
  const c = compareOffers({ chain: chain(400n), gossip: [400n, 900n], closed: false, settled: null, gossipAccepted: null });
  assert.deepEqual(c.positions.map((p) => p.match), ['same']);
  assert.equal(c.differences, 0);
});

test('a settlement at another price than the ACCEPT is one difference; no ACCEPT or no settlement is none', () => {
  const base = { chain: chain(600n), gossip: [600n], closed: true };
  assert.deepEqual([compareOffers({ ...base, settled: 600n, gossipAccepted: 610n })].map((c) => [c.acceptDiffers, c.differences]), [[true, 1]]);
  assert.equal(compareOffers({ ...base, settled: 600n, gossipAccepted: 600n }).differences, 0);
  assert.equal(compareOffers({ ...base, settled: 600n, gossipAccepted: null }).differences, 0);
  assert.equal(compareOffers({ ...base, settled: null, gossipAccepted: 610n }).differences, 0);
});

test('exact beyond 2^64; an on-chain offer without an amount differs from any gossiped price', () => {
  const big = (1n << 70n) + 1n;
  assert.equal(compareOffers({ chain: chain(big), gossip: [big], closed: true, settled: null, gossipAccepted: null }).differences, 0);
  assert.equal(compareOffers({ chain: chain(big), gossip: [big - 1n], closed: true, settled: null, gossipAccepted: null }).differences, 1);
  assert.deepEqual(compareOffers({ chain: chain(null), gossip: [5n], closed: true, settled: null, gossipAccepted: null }).positions[0].match, 'differs');
});

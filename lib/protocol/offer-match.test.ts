// The gossip/chain pairing rule on its own: every kind of position, open against closed, the
// settled amount against the ACCEPT, prices beyond 2^64 compared exactly, and pairing by round
// whatever order the offers arrived in.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareByRound, compareOffers, type GossipOffer, sortByRound } from './offer-match';

const chain = (...amounts: Array<bigint | null>) =>
  amounts.map((amount, i) => ({ amount, round: i + 1, signature: `s${i}` }));
/** Gossiped offers in rounds 0, 1, 2, … in that order. */
const g = (...amounts: bigint[]): GossipOffer[] => amounts.map((amount, round) => ({ round, amount }));

test('positions: same, differs, chain only, gossip only; each non-same one counted', () => {
  const c = compareOffers({
    chain: chain(400n, 900n, 600n),
    gossip: g(400n, 950n),
    closed: true,
    settled: null,
    gossipAccepted: null,
  });
  assert.deepEqual(
    c.positions.map((p) => [p.position, p.chain?.signature ?? null, p.gossip, p.match]),
    [
      [1, 's0', 400n, 'same'],
      [2, 's1', 950n, 'differs'],
      [3, 's2', null, 'chain_only'],
    ],
  );
  assert.equal(c.differences, 2);
  const h = compareOffers({
    chain: chain(400n),
    gossip: g(400n, 900n, 600n),
    closed: true,
    settled: null,
    gossipAccepted: null,
  });
  assert.deepEqual(
    h.positions.map((p) => p.match),
    ['same', 'gossip_only', 'gossip_only'],
  );
  assert.equal(h.differences, 2);
});

test('while open, gossip the chain has not caught up with is no difference', () => {
  const c = compareOffers({
    chain: chain(400n),
    gossip: g(400n, 900n),
    closed: false,
    settled: null,
    gossipAccepted: null,
  });
  assert.deepEqual(
    c.positions.map((p) => p.match),
    ['same'],
  );
  assert.equal(c.differences, 0);
});

test('a settlement at another price than the ACCEPT is one difference; no ACCEPT or no settlement is none', () => {
  const base = { chain: chain(600n), gossip: g(600n), closed: true };
  assert.deepEqual(
    [compareOffers({ ...base, settled: 600n, gossipAccepted: 610n })].map((c) => [c.acceptDiffers, c.differences]),
    [[true, 1]],
  );
  assert.equal(compareOffers({ ...base, settled: 600n, gossipAccepted: 600n }).differences, 0);
  assert.equal(compareOffers({ ...base, settled: 600n, gossipAccepted: null }).differences, 0);
  assert.equal(compareOffers({ ...base, settled: null, gossipAccepted: 610n }).differences, 0);
});

test('exact beyond 2^64; an on-chain offer without an amount differs from any gossiped price', () => {
  const big = (1n << 70n) + 1n;
  assert.equal(
    compareOffers({ chain: chain(big), gossip: g(big), closed: true, settled: null, gossipAccepted: null }).differences,
    0,
  );
  assert.equal(
    compareOffers({ chain: chain(big), gossip: g(big - 1n), closed: true, settled: null, gossipAccepted: null })
      .differences,
    1,
  );
  assert.deepEqual(
    compareOffers({ chain: chain(null), gossip: g(5n), closed: true, settled: null, gossipAccepted: null }).positions[0]
      .match,
    'differs',
  );
});

/** Nine alternating offers, rounds 0..8, the k-th (round k-1) at `price(k)`; all in three milliseconds. */
const price = (k: number) => 1_000_000n + BigInt(k) * (k % 2 ? 10_000n : -7_000n);
const nine = Array.from({ length: 9 }, (_, r) => ({
  round: r,
  amount: price(r + 1),
  timestamp: 1_700_000_000_000n + BigInt(Math.floor(r / 3)),
  id: `e${r}`,
}));
const onChain = nine.map((o) => ({ amount: o.amount, round: o.round + 1, signature: `s${o.round}` }));

test('same-millisecond offers in swapped arrival order pair by round: no differences', () => {
  // The store orders by (timestamp, nonce): rounds 4/5 and 6/7 share a millisecond and come swapped.
  const arrived = [nine[0], nine[1], nine[2], nine[3], nine[5], nine[4], nine[7], nine[6], nine[8]].map((o) => ({
    ...o,
    timestamp: 1_700_000_000_000n,
  }));
  const c = compareOffers({
    chain: onChain,
    gossip: arrived,
    closed: true,
    settled: price(9),
    gossipAccepted: price(9),
  });
  assert.equal(c.differences, 0);
  assert.deepEqual(
    c.positions.map((p) => p.position),
    [1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
  assert.ok(c.positions.every((p) => p.match === 'same' && p.gossip === p.chain!.amount));
  // The chain's transitions in another order change nothing either: its round decides.
  assert.equal(
    compareOffers({ chain: [...onChain].reverse(), gossip: arrived, closed: true, settled: null, gossipAccepted: null })
      .differences,
    0,
  );
});

test('a real difference in one round is reported at that round, whatever the arrival order', () => {
  const arrived = [nine[1], nine[0], nine[2], nine[3], nine[5], nine[4], nine[6], nine[7], nine[8]];
  const lied = arrived.map((o) => (o.round === 5 ? { ...o, amount: o.amount + 1n } : o));
  const c = compareOffers({ chain: onChain, gossip: lied, closed: true, settled: null, gossipAccepted: null });
  assert.equal(c.differences, 1);
  assert.deepEqual(
    c.positions.filter((p) => p.match !== 'same').map((p) => [p.position, p.gossip, p.chain!.amount]),
    [[6, price(6) + 1n, price(6)]],
  );
});

test('a missed gossip round stays a gap and the later rounds still pair', () => {
  const seen = nine.filter((o) => o.round !== 3);
  const c = compareOffers({ chain: onChain, gossip: seen, closed: true, settled: null, gossipAccepted: null });
  assert.deepEqual(
    c.positions.map((p) => p.match),
    ['same', 'same', 'same', 'chain_only', 'same', 'same', 'same', 'same', 'same'],
  );
  assert.equal(c.differences, 1);
});

test('a second gossiped offer in one round has no chain counterpart and counts once closed', () => {
  const extra = [...nine, { round: 2, amount: 5n, timestamp: 1_700_000_000_009n, id: 'zz' }];
  const closed = compareOffers({ chain: onChain, gossip: extra, closed: true, settled: null, gossipAccepted: null });
  assert.equal(closed.differences, 1);
  assert.deepEqual(
    closed.positions.filter((p) => p.match !== 'same').map((p) => [p.position, p.gossip, p.match]),
    [[3, 5n, 'gossip_only']],
  );
  // The earlier offer of the round (by time) is the one the chain is held against.
  assert.equal(closed.positions.find((p) => p.position === 3 && p.match === 'same')?.gossip, price(3));
});

test('round order: round, then timestamp, then id — never input order', () => {
  const xs = [
    { round: 1, amount: 0n, timestamp: 5n, id: 'b' },
    { round: 0, amount: 0n, timestamp: 9n, id: 'z' },
    { round: 1, amount: 0n, timestamp: 5n, id: 'a' },
    { round: 1, amount: 0n, timestamp: 4n, id: 'c' },
  ];
  const want = ['z', 'c', 'a', 'b'];
  assert.deepEqual(
    [...xs].sort(compareByRound).map((x) => x.id),
    want,
  );
  assert.deepEqual(
    sortByRound([...xs].reverse(), (x) => x).map((x) => x.id),
    want,
  );
});

test(
  'the opening PROPOSE anchors the numbering: an agent ' + 'counting from 1 still pairs; without it NEG1 counts from 0',
  () => {
    const fromOne = nine.map((o) => ({ ...o, round: o.round + 1, opening: o.round === 0 }));
    assert.equal(
      compareOffers({ chain: onChain, gossip: fromOne, closed: true, settled: null, gossipAccepted: null }).differences,
      0,
    );
    const noPropose = nine.slice(1);
    const c = compareOffers({ chain: onChain, gossip: noPropose, closed: true, settled: null, gossipAccepted: null });
    assert.deepEqual(
      c.positions.map((p) => p.match),
      ['chain_only', 'same', 'same', 'same', 'same', 'same', 'same', 'same', 'same'],
    );
  },
);

test(
  'a sealed-bid negotiation (NEGC PROPOSE, offers opened by a ' +
    "COUNTER of round 1) pairs its first offer with the chain's first",
  () => {
    // The demo's sealed deals: commitments and reveals, then the buyer's COUNTER of round 1, the seller's of round 2, …
    const gossip: GossipOffer[] = [400n, 900n, 600n, 800n].map((amount, i) => ({ round: i + 1, amount }));
    const sealed = compareOffers({
      chain: chain(400n, 900n, 600n, 800n),
      gossip,
      closed: true,
      settled: null,
      gossipAccepted: null,
      sealedOpening: true,
    });
    assert.deepEqual(
      sealed.positions.map((p) => p.match),
      ['same', 'same', 'same', 'same'],
    );
    // Without knowing it opened sealed, the rounds read 0-based and every offer is one position late.
    const unsealed = compareOffers({
      chain: chain(400n, 900n, 600n, 800n),
      gossip,
      closed: true,
      settled: null,
      gossipAccepted: null,
    });
    assert.deepEqual(
      unsealed.positions.map((p) => p.match),
      ['chain_only', 'differs', 'differs', 'differs', 'gossip_only'],
    );
  },
);

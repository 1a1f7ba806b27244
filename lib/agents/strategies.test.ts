import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nextOffer, type Stance, shouldAccept, zopaExists } from './strategies';

const seller = (strategy: Stance['strategy']): Stance => ({
  strategy,
  side: 'seller',
  initial: 1000,
  reservation: 600,
  maxRounds: 5,
});
const curve = (s: Stance) => [0, 1, 2, 3, 4].map((i) => nextOffer(s, i, [], []));

describe('time-dependent strategies', () => {
  test('linear concedes evenly to the reservation', () => {
    assert.deepEqual(curve(seller('linear')), [1000, 900, 800, 700, 600]);
  });
  test('boulware holds then drops late', () => {
    assert.deepEqual(curve(seller('boulware')), [1000, 998, 975, 873, 600]);
  });
  test('conceder drops early', () => {
    assert.deepEqual(curve(seller('conceder')), [1000, 717, 664, 628, 600]);
  });
  test('a buyer moves up and never past its reservation', () => {
    const b: Stance = { strategy: 'linear', side: 'buyer', initial: 400, reservation: 800, maxRounds: 3 };
    assert.deepEqual(
      [0, 1, 2, 3, 9].map((i) => nextOffer(b, i, [], [])),
      [400, 600, 800, 800, 800],
    );
  });
});

describe('tit-for-tat', () => {
  test('mirrors the opponent concession', () => {
    const s = seller('tit-for-tat');
    // opponent (buyer) moved 400 -> 450: concede 50 from own last offer 1000.
    assert.equal(nextOffer(s, 1, [400, 450], [1000]), 950);
  });
  test('concedes a floor of 2% of the range when the opponent stands still', () => {
    assert.equal(nextOffer(seller('tit-for-tat'), 1, [400], [1000]), 992);
  });
  test('stops at the reservation', () => {
    assert.equal(nextOffer(seller('tit-for-tat'), 3, [100, 600], [620]), 600);
  });
});

describe('acceptance', () => {
  test('seller accepts an offer at least its next offer and within reservation', () => {
    const s = seller('linear');
    assert.equal(shouldAccept(s, 900, 900), true);
    assert.equal(shouldAccept(s, 899, 900), false);
    assert.equal(shouldAccept(s, 590, 580), false); // below reservation
  });
  test('buyer accepts a price at most its next offer', () => {
    const b: Stance = { strategy: 'conceder', side: 'buyer', initial: 100, reservation: 500, maxRounds: 4 };
    assert.equal(shouldAccept(b, 300, 320), true);
    assert.equal(shouldAccept(b, 330, 320), false);
  });
  test('zopa', () => {
    assert.equal(zopaExists(700, 600), true);
    assert.equal(zopaExists(599, 600), false);
  });
  test('misuse throws naming the argument', () => {
    assert.throws(() => nextOffer({ ...seller('linear'), maxRounds: 0 }, 0, [], []), /stance.maxRounds/);
    assert.throws(() => nextOffer(seller('linear'), -1, [], []), /index/);
    assert.throws(() => nextOffer({ ...seller('linear'), initial: 500 }, 0, [], []), /stance/);
  });
});

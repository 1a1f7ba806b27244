// The preview's SOL line is a sum whose terms carry their signs: a wallet that gains (a resolve
// returning an evidence buffer's rent) must not read as "+X = fee − rent returned", which sums
// to −X, and one that pays reads each cost with its minus. The terms always sum to the change.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Preview, solTerms } from './preview';

const base: Preview = {
  balance: 1_000_000_000n,
  solChange: 0n,
  fees: 0n,
  rentPaid: 0n,
  rentBack: 0n,
  rentReclaimable: 0n,
  usdcChange: 0n,
  accounts: [],
  stakes: [],
  txCount: 1,
};
const sum = (p: Preview) => solTerms(p).reduce((t, x) => t + (x.sign === '+' ? x.lamports : -x.lamports), 0n);

test('a gain: the returned rent is added and the fee subtracted', () => {
  const p = { ...base, solChange: 17_257_760n, fees: 10_000n, rentBack: 17_267_760n };
  assert.deepEqual(
    solTerms(p).map((t) => `${t.sign}${t.lamports} ${t.label}`),
    ['−10000 fee', '+17267760 rent returned'],
  );
  assert.equal(sum(p), p.solChange);
});

test('a cost: fee and rent each carry a minus, with what of the rent comes back', () => {
  const p = {
    ...base,
    solChange: -21_244_080n,
    fees: 25_000n,
    rentPaid: 21_219_080n,
    rentReclaimable: 18_875_520n,
    txCount: 5,
  };
  const t = solTerms(p);
  assert.deepEqual(
    t.map((x) => `${x.sign}${x.lamports} ${x.label}`),
    ['−25000 fees of 5 transactions', '−21219080 rent'],
  );
  assert.equal(t[1]!.note, '0.01887552 comes back later, 0.00234356 stays');
  assert.equal(sum(p), p.solChange);
});

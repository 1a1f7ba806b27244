// The flight recorder's price axis and labels are exact for int128 and u64 prices: the chart is
// rendered to markup and read back (ticks carry their exact bigint value; tooltips the full amount).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import type { NegotiationView } from '../../lib/wire';
import { formatTokenAmount } from '../format';
import { FlightChart } from './FlightChart';

const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);

/** A view of alternating offers at `prices` (as the view carries them: strings here, exact). */
function view(prices: Array<string | number>, extra: Partial<NegotiationView> = {}): NegotiationView {
  const offers = prices.map((price, round) => ({
    envelopeId: String(round + 1).padStart(64, '0'),
    type: round === 0 ? 'PROPOSE' : 'COUNTER',
    sender: round % 2 ? B : A,
    round,
    price,
    timestampMs: 1_767_225_600_000 + round,
    deadlineMs: null,
    decayBps: 50,
    maxRounds: 10,
    tier: 0,
    reason: 0,
  }));
  return {
    conversationId: '07'.repeat(16),
    outcome: 'open',
    rejectReason: null,
    token: { mint: null, decimals: null, symbol: null },
    offers,
    sides: [],
    rounds: offers.length,
    deal: null,
    sealed: false,
    zopa: null,
    nash: null,
    rubinstein: null,
    escrowDecay: null,
    surplus: null,
    deadlineMs: null,
    decayBps: 50,
    maxRounds: 10,
    tier: null,
    verdict: null,
    timeline: [],
    ...extra,
  } as unknown as NegotiationView;
}

/** Text with the markup's tags removed and entities undone. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');
const ticks = (html: string) => [...html.matchAll(/data-tick="(-?\d+)"/g)].map((m) => BigInt(m[1]));

test('int128 prices around 1.4e38: exact in every tooltip, ticks exact bigints, no "—"', () => {
  const base = 140_000_000_000_000_000_000_000_000_000_000_000_000n;
  const prices = [base + 123n, base + 987n, base + 400n, base + 801n];
  const html = renderToStaticMarkup(<FlightChart v={view(prices.map(String))} />);
  const t = text(html);
  for (const p of prices) assert.ok(t.includes(formatTokenAmount(p)), `exact ${p} shown`);
  assert.ok(t.includes('140,000,000,000,000,000,000,000,000,000,000,000,123 units'));
  assert.ok(!t.includes('—'), 'no unknown amount');
  const ts = ticks(html);
  assert.ok(ts.length >= 3 && ts[0] <= base + 123n && ts[ts.length - 1] >= base + 987n, 'the ticks cover the offers');
  // The offers sit at distinct heights: a float axis would put them all on one line.
  const ys = [...html.matchAll(/<circle cx="[^"]+" cy="([^"]+)"/g)].map((m) => Number(m[1]));
  assert.equal(new Set(ys.map((y) => y.toFixed(3))).size, 4);
  assert.ok(ys[0] > ys[1], 'the higher price is drawn higher');
});

test('int128 extremes and negative prices: exact, ordered on the axis', () => {
  const max = (1n << 127n) - 1n;
  const min = -(1n << 127n);
  const html = renderToStaticMarkup(
    <FlightChart v={view([min.toString(), '-2375000', max.toString()])} token={{ decimals: 6, symbol: 'USDC' }} />,
  );
  const t = text(html);
  assert.ok(t.includes(`${formatTokenAmount(max, { decimals: 6 })} USDC`));
  assert.ok(t.includes(`${formatTokenAmount(min, { decimals: 6 })} USDC`));
  assert.ok(t.includes('-2.375 USDC'));
  const ts = ticks(html);
  assert.ok(ts[0] <= min && ts[ts.length - 1] >= max);
});

test('u64 prices are not rounded: 15,223,372,036,854.775808 stays exact', () => {
  const html = renderToStaticMarkup(
    <FlightChart
      v={view(['15223372036854775808', '15223372036854775000', '15223372036854775500'])}
      token={{ decimals: 6, symbol: 'USDC' }}
    />,
  );
  const t = text(html);
  assert.match(t, /PROPOSE by [^:]+: 15,223,372,036,854\.775808 USDC \(round 0/);
  assert.match(t, /COUNTER by [^:]+: 15,223,372,036,854\.7755 USDC \(round 2/);
  for (const x of ticks(html))
    assert.ok(x >= 15_223_372_036_854_774_000n && x <= 15_223_372_036_854_777_000n, `tick ${x} near the offers`);
});

test('small prices as plain numbers (older views) still draw, in raw units when the token is unknown', () => {
  const html = renderToStaticMarkup(<FlightChart v={view([1_400_000, 1_600_000, 1_500_000])} />);
  const t = text(html);
  assert.ok(t.includes('1,400,000 units'));
  assert.ok(t.includes("amounts in the token's smallest units"));
});

test(
  'a side fitted on the shared clock draws its curve through ' + 'its offers, and the legend gives class, β and error',
  () => {
    const prices = ['1000000', '2000000', '1200000', '1800000', '1350000', '1700000', '1450000', '1600000'];
    const v = view(prices);
    const t0 = v.offers[0].timestampMs;
    const tEnd = v.offers[v.offers.length - 1].timestampMs;
    const buyerOffers = v.offers.filter((o) => o.sender === A).map((o) => o.price);
    v.sides = [
      {
        agent: A,
        role: 'buyer',
        offers: buyerOffers,
        concessions: null,
        movement: 'conceding',
        decayBps: 50,
        unknown: {},
        curve: {
          beta: 2,
          rmse: 1000,
          relativeRmse: 0.004,
          atBound: false,
          class: 'conceder',
          a: 1_000_000,
          b: 450_000,
          t0Ms: t0,
          tEndMs: tEnd,
        },
      },
      {
        agent: B,
        role: null,
        offers: [],
        concessions: null,
        movement: 'zig-zag',
        decayBps: 50,
        unknown: { fit: 'the offers go back and forth' },
        curve: null,
      },
    ] as unknown as NegotiationView['sides'];
    const html = renderToStaticMarkup(<FlightChart v={v} token={{ decimals: 6, symbol: 'USDC' }} />);
    const curve = /<g data-side="buyer"><path d="([^"]+)"/.exec(html);
    assert.ok(curve && !curve[1].includes('NaN'), 'a curve with finite points');
    const t = text(html);
    assert.match(t, /buyer [^·]+· conceding · conceder \(β = 2\.00, error 0\.4% of the price range\)/);
    assert.match(t, /role unknown [^·]+· zig-zag · no curve \(the offers go back and forth\)/);
  },
);

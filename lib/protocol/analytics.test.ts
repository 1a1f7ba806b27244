// Negotiation analytics against closed forms, on negotiations the generator (testing.ts) builds as
// real signed envelopes: Faratin curves with known β on a shared clock, sealed reservations, decay
// per side, and the edge cases where a figure must say it does not know.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { encodeAdvertiseJson } from './advertise';
import {
  analyzeNegotiation,
  assignRoles,
  haggleRoleClaims,
  type NegotiationAnalysis,
  type NegotiationMessage,
  nashBargainingPoint,
  ratioToDecimal,
  rubinsteinShare,
  rubinsteinShareBps,
} from './analytics';
import { ANALYTICS_DOCS_BEGIN, ANALYTICS_DOCS_END, analyticsMarkdown, FIGURE_KEYS, FIGURES } from './analytics-defs';
import { toHex } from './hex';
import { encodeNeg1 } from './neg1';
import { GEN_BUYER, GEN_SELLER, type Generated, type GenSpec, generateNegotiation } from './testing';
import { MsgType } from './types';

const B = toHex(GEN_BUYER),
  S = toHex(GEN_SELLER);
const msgs = (g: Generated): NegotiationMessage[] =>
  g.messages.map((m) => ({
    sender: m.envelope.sender,
    recipient: m.envelope.recipient,
    msgType: m.envelope.msgType,
    timestamp: m.envelope.timestamp,
    payload: m.envelope.payload,
  }));
const run = (spec: GenSpec, opts?: Parameters<typeof analyzeNegotiation>[1]) => {
  const g = generateNegotiation(spec);
  return { g, a: analyzeNegotiation(msgs(g), opts) };
};
const side = (a: NegotiationAnalysis, agent: string) => a.sides.find((s) => s.agent === agent)!;
const logClose = (got: number, want: number) =>
  assert.ok(Math.abs(Math.log(got / want)) <= Math.log(1.1), `β ${got} not within 10% of ${want}`);
const M = 1_000_000n;

/** Exact Rubinstein price from reservations, first mover and the two decays (closed form, bigint). */
function rubinsteinClosed(rb: bigint, rs: bigint, first: 'buyer' | 'seller', dFirst: number, dSecond: number): string {
  const w = rb - rs;
  if (dFirst === 0 && dSecond === 0)
    return ratioToDecimal(first === 'buyer' ? { num: 2n * rb - w, den: 2n } : { num: 2n * rs + w, den: 2n });
  const num = BigInt(dSecond) * 10_000n,
    den = 100_000_000n - BigInt(10_000 - dFirst) * BigInt(10_000 - dSecond);
  return ratioToDecimal(first === 'buyer' ? { num: rb * den - num * w, den } : { num: rs * den + num * w, den });
}

describe('closed forms', () => {
  test('Rubinstein shares (1-δB)/(1-δA·δB), exact from basis points, and the no-decay limit ½', () => {
    assert.ok(Math.abs(rubinsteinShare(0.9, 0.9) - 0.1 / 0.19) < 1e-12);
    assert.ok(Math.abs(rubinsteinShare(0.9, 0.8) - 0.2 / 0.28) < 1e-12);
    assert.equal(rubinsteinShare(1, 1), 0.5);
    // 1/(1+δ), δ = 0.99
    assert.deepEqual(rubinsteinShareBps(100, 100), { share: { num: 100n, den: 199n }, limit: false });
    assert.deepEqual(rubinsteinShareBps(0, 0), { share: { num: 1n, den: 2n }, limit: true });
    // δA = 1: the first mover keeps everything
    assert.deepEqual(rubinsteinShareBps(0, 500).share, { num: 1n, den: 1n });
    assert.deepEqual(rubinsteinShareBps(500, 0).share, { num: 0n, den: 1n });
    assert.throws(() => rubinsteinShareBps(-1, 0), RangeError);
  });

  test('Nash point is exact, half units included', () => {
    assert.deepEqual(nashBargainingPoint({ buyerReservation: 101n, sellerReservation: 60n }), { num: 161n, den: 2n });
    assert.equal(nashBargainingPoint({ buyerReservation: 50n, sellerReservation: 60n }), null);
    assert.equal(ratioToDecimal({ num: 161n, den: 2n }), '80.5');
    assert.equal(ratioToDecimal({ num: -2n, den: 3n }), '-0.666667');
  });
});

describe('Faratin curves with known β on the shared clock', () => {
  const cases: { b: number; s: number; first: 'buyer' | 'seller'; classes: [string, string] }[] = [
    { b: 3, s: 0.3, first: 'seller', classes: ['conceder', 'boulware'] },
    { b: 0.3, s: 3, first: 'buyer', classes: ['boulware', 'conceder'] },
    { b: 1, s: 1, first: 'buyer', classes: ['linear', 'linear'] },
    // Faratin's classes at the edges of the linear band: 0.85 is Boulware, 1.2 a conceder.
    { b: 0.85, s: 1.2, first: 'seller', classes: ['boulware', 'conceder'] },
    { b: 1.2, s: 0.85, first: 'buyer', classes: ['conceder', 'boulware'] },
    { b: 2, s: 2, first: 'seller', classes: ['conceder', 'conceder'] },
  ];
  for (const c of cases) {
    for (const n of [4, 7]) {
      test(`buyer β=${c.b}, seller β=${c.s}, ${c.first} first, ${n} offers each`, () => {
        const rb = 2_000n * M,
          rs = 1_000n * M;
        const { g, a } = run({
          buyer: { p0: 500n * M, reservation: rb, beta: c.b, decayBps: 100, sealed: 'commit' },
          seller: { p0: 3_000n * M, reservation: rs, beta: c.s, decayBps: 100, sealed: 'commit' },
          first: c.first,
          offersEach: n,
          deliver: true,
        });
        assert.deepEqual([a.roles.buyer, a.roles.seller, a.roles.sources], [B, S, ['deliver']]);
        const sb = side(a, B),
          ss = side(a, S);
        assert.equal(sb.movement, 'conceding');
        assert.equal(ss.movement, 'conceding');
        logClose(sb.fit!.beta, c.b);
        logClose(ss.fit!.beta, c.s);
        assert.deepEqual([sb.class, ss.class], c.classes);
        assert.ok(sb.fit!.relativeRmse < 0.01 && ss.fit!.relativeRmse < 0.01);
        // The reported curve (a, b, clock) draws through the offers.
        for (const sd of [sb, ss]) {
          const f = sd.fit!,
            range = Number(sd.offers[0].price - sd.offers[sd.offers.length - 1].price);
          for (const o of sd.offers) {
            const x = f.a + f.b * ((Number(o.time) - f.t0) / (f.tMax - f.t0)) ** (1 / f.beta);
            assert.ok(Math.abs(x - Number(o.price)) <= Math.abs(range) * 0.01, `curve ${x} vs offer ${o.price}`);
          }
        }
        assert.deepEqual(
          sb.concessions,
          g.offers.buyer.slice(1).map((p, i) => p - g.offers.buyer[i]),
        );
        assert.deepEqual(
          ss.concessions,
          g.offers.seller.slice(1).map((p, i) => g.offers.seller[i] - p),
        );
        assert.deepEqual(a.zopa, { exists: true, buyerReservation: rb, sellerReservation: rs, width: rb - rs });
        assert.equal(ratioToDecimal(a.nash!.price), '1500000000');
        assert.equal(a.deal!.price, g.deal);
        assert.deepEqual(a.surplus && [a.surplus.buyer, a.surplus.seller], [rb - g.deal!, g.deal! - rs]);
        assert.equal(
          ratioToDecimal(a.nashDistance!.distance),
          (g.deal! > 1_500n * M ? g.deal! - 1_500n * M : 1_500n * M - g.deal!).toString(),
        );
        assert.equal(ratioToDecimal(a.rubinstein!.price), rubinsteinClosed(rb, rs, c.first, 100, 100));
        assert.equal(a.rubinstein!.firstMover, c.first === 'buyer' ? B : S);
        assert.deepEqual(Object.keys(a.unknown).sort(), ['escrowBurned']);
      });
    }
  }

  test('offers stamped in the same millisecond: each side in round order, β still recovered', () => {
    const { g, a } = run({
      buyer: { p0: 500n * M, reservation: 2_000n * M, beta: 2, decayBps: 50 },
      seller: { p0: 3_000n * M, reservation: 1_000n * M, beta: 0.5, decayBps: 50 },
      first: 'buyer',
      offersEach: 6,
      sameMs: true,
      deliver: true,
    });
    assert.deepEqual(
      side(a, B).offers.map((o) => o.price),
      g.offers.buyer,
    );
    assert.deepEqual(
      side(a, S).offers.map((o) => o.price),
      g.offers.seller,
    );
    assert.equal(side(a, B).class, 'conceder');
    assert.equal(side(a, S).class, 'boulware');
  });
  test('same-millisecond offers stored swapped: the NEG1 round decides the order and the first mover', () => {
    const g = generateNegotiation({
      buyer: { p0: 500n * M, reservation: 2_000n * M, beta: 1, decayBps: 100, sealed: 'commit' },
      seller: { p0: 3_000n * M, reservation: 1_000n * M, beta: 1, decayBps: 300, sealed: 'commit' },
      first: 'buyer',
      offersEach: 4,
      sameMs: true,
      deliver: true,
    });
    const m = msgs(g);
    const i = m.findIndex((x) => x.msgType === MsgType.PROPOSE && x.payload![3] === 0x31);
    [m[i], m[i + 1]] = [m[i + 1], m[i]]; // the seller's round-1 counter stored before the buyer's round-0 offer
    const a = analyzeNegotiation(m);
    assert.equal(a.firstMover, B);
    assert.equal(ratioToDecimal(a.rubinstein!.price), rubinsteinClosed(2_000n * M, 1_000n * M, 'buyer', 100, 300));
  });

  test('a step at the end pins β to the search bound: fit shown, no class', () => {
    const { a } = run({
      buyer: { p0: 0n, reservation: 0n, beta: 1, prices: [100n, 100n, 100n, 100n, 900n] },
      seller: { p0: 0n, reservation: 0n, beta: 1, prices: [2_000n, 1_800n, 1_600n, 1_400n, 1_200n] },
      first: 'buyer',
      offersEach: 5,
      deliver: true,
    });
    const b = side(a, B);
    assert.equal(b.movement, 'conceding');
    assert.ok(b.fit?.atBound, `β ${b.fit?.beta}`);
    assert.equal(b.class, null);
    assert.match(b.unknown.class!, /search bound/);
  });
  test('a monotone side the power curve cannot follow (a step midway) is a poor fit: no class', () => {
    const { a } = run({
      buyer: { p0: 0n, reservation: 0n, beta: 1, prices: [100n, 100n, 100n, 900n, 900n, 900n] },
      seller: { p0: 0n, reservation: 0n, beta: 1, prices: [2_000n, 1_800n, 1_600n, 1_400n, 1_200n, 1_000n] },
      first: 'buyer',
      offersEach: 6,
      deliver: true,
    });
    const b = side(a, B);
    assert.equal(b.movement, 'conceding');
    assert.ok(b.fit && !b.fit.atBound && b.fit.relativeRmse > 0.05, `fit ${JSON.stringify(b.fit)}`);
    assert.equal(b.class, null);
    assert.match(b.unknown.class!, /poor fit/);
  });
});

describe('decay per side', () => {
  const base = (db: number, ds: number, first: 'buyer' | 'seller') =>
    run({
      buyer: { p0: 500n * M, reservation: 2_000n * M, beta: 1, decayBps: db, sealed: 'commit' },
      seller: { p0: 3_000n * M, reservation: 1_000n * M, beta: 1, decayBps: ds, sealed: 'commit' },
      first,
      offersEach: 4,
      deliver: true,
    }).a;
  for (const [db, ds, first] of [
    [0, 200, 'buyer'],
    [300, 0, 'buyer'],
    [150, 1000, 'seller'],
    [0, 0, 'seller'],
    [0, 0, 'buyer'],
  ] as const) {
    test(`buyer ${db} bps, seller ${ds} bps, ${first} first`, () => {
      const a = base(db, ds, first);
      const [dF, dS] = first === 'buyer' ? [db, ds] : [ds, db];
      assert.equal(ratioToDecimal(a.rubinstein!.price), rubinsteinClosed(2_000n * M, 1_000n * M, first, dF, dS));
      assert.equal(a.rubinstein!.limit, db === 0 && ds === 0);
    });
  }

  test('a side whose NEG1 messages state different decay rates: Rubinstein unknown', () => {
    const g = generateNegotiation({
      buyer: { p0: 500n * M, reservation: 2_000n * M, beta: 1, decayBps: 100, sealed: 'commit' },
      seller: { p0: 3_000n * M, reservation: 1_000n * M, beta: 1, decayBps: 100, sealed: 'commit' },
      first: 'buyer',
      offersEach: 4,
      deliver: true,
    });
    const m = msgs(g);
    const last = m.findLastIndex(
      (x) =>
        x.msgType === MsgType.COUNTER &&
        toHex(x.sender as Uint8Array) === S &&
        x.payload![0] === 0x4e &&
        x.payload![3] === 0x31,
    );
    m[last] = {
      ...m[last],
      payload: undefined,
      neg1: {
        bidValue: 1_100n * M,
        tokenMint: new Uint8Array(32),
        serviceHash: new Uint8Array(32),
        round: 7,
        deadline: 0n,
        decayBps: 400,
        maxRounds: 20,
        verification: { tier: 1, testSuiteHash: new Uint8Array(0) },
        reason: 0,
        metadata: new Uint8Array(0),
      },
    };
    const a = analyzeNegotiation(m);
    assert.equal(a.rubinstein, null);
    assert.match(a.unknown.rubinstein!, /decay unknown for the other side/);
    assert.equal(side(a, S).decayBps, null);
  });
});

describe('edges: unknown exactly where the definitions say', () => {
  test('one offer then ACCEPT: roles from DELIVER, ZOPA and Nash from verified reveals', () => {
    const { a } = run({
      buyer: { p0: 1_500n * M, reservation: 2_000n * M, beta: 1, sealed: 'commit' },
      seller: { p0: 1_200n * M, reservation: 1_000n * M, beta: 1, sealed: 'commit' },
      first: 'seller',
      offersEach: 0,
      extraFirst: true,
      deliver: true,
    });
    assert.equal(a.rounds, 1);
    assert.deepEqual([a.roles.buyer, a.roles.seller], [B, S]);
    assert.equal(side(a, S).movement, 'single offer');
    assert.match(side(a, S).unknown.fit!, /too few offers/);
    assert.equal(a.zopa?.exists, true);
    assert.equal(ratioToDecimal(a.nash!.price), '1500000000');
    assert.deepEqual([a.surplus!.buyer, a.surplus!.seller], [800n * M, 200n * M]);
  });

  test('the buyer opens above the seller: roles from evidence, the revealed ZOPA stands', () => {
    const { a } = run({
      buyer: { p0: 0n, reservation: 2_000_000n, beta: 1, prices: [1_600_000n], sealed: 'commit' },
      seller: { p0: 0n, reservation: 1_400_000n, beta: 1, prices: [1_500_000n], sealed: 'commit' },
      first: 'buyer',
      offersEach: 1,
      acceptPrice: 1_550_000n,
      deliver: true,
    });
    assert.deepEqual([a.roles.buyer, a.roles.seller], [B, S]);
    assert.deepEqual(a.zopa, {
      exists: true,
      buyerReservation: 2_000_000n,
      sellerReservation: 1_400_000n,
      width: 600_000n,
    });
    assert.equal(ratioToDecimal(a.nash!.price), '1700000');
    assert.deepEqual([a.surplus!.buyer, a.surplus!.seller], [450_000n, 150_000n]);
  });

  test('no role evidence: roles, ZOPA and role figures unknown; curve fitted but not classed', () => {
    const { a } = run({
      buyer: { p0: 500n * M, reservation: 2_000n * M, beta: 3, sealed: 'commit' },
      seller: { p0: 3_000n * M, reservation: 1_000n * M, beta: 0.3, sealed: 'commit' },
      first: 'seller',
      offersEach: 5,
    });
    assert.deepEqual([a.roles.buyer, a.roles.seller], [null, null]);
    assert.equal(a.zopa, null);
    assert.equal(a.unknown.zopa, 'roles unknown');
    for (const k of [
      'roles',
      'concessions',
      'zopa',
      'nash',
      'nashDistance',
      'surplus',
      'rubinstein',
      'curve',
      'escrowBurned',
    ])
      assert.ok(a.unknown[k as keyof typeof a.unknown], k);
    assert.equal(side(a, B).concessions, null);
    assert.equal(side(a, B).movement, 'monotone, direction unknown');
    logClose(side(a, B).fit!.beta, 3);
    assert.equal(side(a, B).class, null);
  });

  test('four identical offers are "no movement", not too few', () => {
    const { a } = run({
      buyer: { p0: 0n, reservation: 0n, beta: 1, prices: [700n, 700n, 700n, 700n] },
      seller: { p0: 0n, reservation: 0n, beta: 1, prices: [900n, 850n, 800n, 750n] },
      first: 'buyer',
      offersEach: 4,
      deliver: true,
    });
    assert.equal(side(a, B).movement, 'no movement');
    assert.equal(side(a, B).fit, null);
    assert.match(side(a, B).unknown.fit!, /no movement/);
  });

  test('zig-zag: a fit with its error, no class', () => {
    const { a } = run({
      buyer: { p0: 0n, reservation: 0n, beta: 1, prices: [100n, 300n, 150n, 320n, 200n] },
      seller: { p0: 0n, reservation: 0n, beta: 1, prices: [900n, 850n, 800n, 750n, 700n] },
      first: 'buyer',
      offersEach: 5,
      deliver: true,
    });
    const b = side(a, B);
    assert.equal(b.movement, 'zig-zag');
    assert.ok(b.fit && b.fit.relativeRmse > 0.05, `rmse ${b.fit?.relativeRmse}`);
    assert.equal(b.class, null);
    assert.match(b.unknown.class!, /zig-zag/);
    assert.equal(side(a, S).class, 'linear');
  });

  test('a buyer moving away from the seller is "moving away", not linear', () => {
    const { a } = run({
      buyer: { p0: 0n, reservation: 0n, beta: 1, prices: [500n, 400n, 300n, 200n] },
      seller: { p0: 0n, reservation: 0n, beta: 1, prices: [900n, 850n, 800n, 750n] },
      first: 'buyer',
      offersEach: 4,
      deliver: true,
    });
    assert.equal(side(a, B).movement, 'moving away');
    assert.equal(side(a, B).class, null);
    assert.deepEqual(side(a, B).concessions, [-100n, -100n, -100n]);
  });

  test('zero-width ZOPA with the deal off the point: no division by zero', () => {
    const { a } = run({
      buyer: { p0: 0n, reservation: M, beta: 1, prices: [800_000n], sealed: 'commit' },
      seller: { p0: 0n, reservation: M, beta: 1, prices: [1_400_000n], sealed: 'commit' },
      first: 'buyer',
      offersEach: 1,
      acceptPrice: 1_200_000n,
      deliver: true,
    });
    assert.deepEqual(a.zopa, { exists: true, buyerReservation: M, sellerReservation: M, width: 0n });
    assert.equal(ratioToDecimal(a.nashDistance!.distance), '200000');
    assert.equal(a.nashDistance!.relative, null);
    assert.match(a.unknown.nashDistance!, /zero width/);
    assert.deepEqual([a.surplus!.buyer, a.surplus!.seller, a.surplus!.buyerShare], [-200_000n, 200_000n, null]);
    assert.equal(a.outsideZopaBy, 200_000n);
    assert.match(a.unknown.surplus!, /outside the ZOPA by 200000/);
  });

  test('a deal outside a wide ZOPA: no negative share, the distance instead; inside it, 0', () => {
    const out = run({
      buyer: { p0: 0n, reservation: M, beta: 1, prices: [500_000n], sealed: 'commit' },
      seller: { p0: 0n, reservation: 600_000n, beta: 1, prices: [1_500_000n], sealed: 'commit' },
      first: 'buyer',
      offersEach: 1,
      acceptPrice: 1_150_000n,
      deliver: true,
    }).a;
    assert.equal(out.zopa!.width, 400_000n);
    assert.deepEqual([out.surplus!.buyer, out.surplus!.buyerShare, out.surplus!.sellerShare], [-150_000n, null, null]);
    assert.equal(out.outsideZopaBy, 150_000n);
    assert.match(out.unknown.surplus!, /outside the ZOPA by 150000/);
    const inside = run({
      buyer: { p0: 0n, reservation: M, beta: 1, prices: [500_000n], sealed: 'commit' },
      seller: { p0: 0n, reservation: 600_000n, beta: 1, prices: [1_500_000n], sealed: 'commit' },
      first: 'buyer',
      offersEach: 1,
      acceptPrice: 700_000n,
      deliver: true,
    }).a;
    assert.equal(inside.outsideZopaBy, 0n);
    assert.equal(inside.surplus!.buyerShare, 0.75);
  });

  test('reveals without overlap: ZOPA known not to exist', () => {
    const { a } = run({
      buyer: { p0: 0n, reservation: 726n, beta: 1, prices: [600n], sealed: 'commit' },
      seller: { p0: 0n, reservation: 729n, beta: 1, prices: [800n], sealed: 'commit' },
      first: 'buyer',
      offersEach: 1,
      accept: false,
      deliver: true,
    });
    assert.deepEqual(a.zopa, { exists: false, buyerReservation: 726n, sellerReservation: 729n, width: -3n });
    assert.equal(a.nash, null);
    assert.match(a.unknown.nash!, /do not overlap/);
  });

  for (const [sealed, status, why] of [
    ['reveal-only', 'no commitment', /no earlier commitment/],
    ['bad-reveal', 'mismatch', /does not match its commitment/],
    ['commit-only', 'not revealed', /revealed no reservation/],
  ] as const) {
    test(`seller ${sealed}: "${status}", and no figure uses it`, () => {
      const { a } = run({
        buyer: { p0: 500n * M, reservation: 2_000n * M, beta: 1, sealed: 'commit', decayBps: 10 },
        seller: { p0: 3_000n * M, reservation: 1_000n * M, beta: 1, sealed, decayBps: 10 },
        first: 'buyer',
        offersEach: 4,
        deliver: true,
      });
      assert.deepEqual(
        a.reservations.map((r) => [r.agent, r.status]),
        [
          [B, 'verified'],
          [S, status],
        ],
      );
      assert.equal(a.zopa, null);
      assert.match(a.unknown.zopa!, why);
      assert.deepEqual([a.nash, a.nashDistance, a.surplus, a.rubinstein], [null, null, null, null]);
    });
  }

  test('int128 prices stay exact through every figure', () => {
    const big = 140_000_000_000_000_000_000_000_000_000_000_000_000n; // ~1.4e38, near int128's top
    const { g, a } = run({
      buyer: { p0: big / 2n, reservation: big, beta: 2, sealed: 'commit' },
      seller: { p0: big + big / 5n, reservation: big - big / 4n, beta: 0.5, sealed: 'commit' },
      first: 'buyer',
      offersEach: 5,
      deliver: true,
    });
    assert.deepEqual(
      side(a, B).offers.map((o) => o.price),
      g.offers.buyer,
    );
    assert.equal(a.zopa!.width, big / 4n);
    assert.equal(ratioToDecimal(a.nash!.price), ((2n * big - big / 4n) / 2n).toString());
    assert.equal(a.surplus!.buyer, big - g.deal!);
    logClose(side(a, B).fit!.beta, 2);
    logClose(side(a, S).fit!.beta, 0.5);
  });

  test('u64 prices are not rounded through floats', () => {
    const p = 15_223_372_036_854_775_808n;
    const { a } = run({
      buyer: { p0: 0n, reservation: p + 10n, beta: 1, prices: [p - 2n], sealed: 'commit' },
      seller: { p0: 0n, reservation: p - 10n, beta: 1, prices: [p + 3n], sealed: 'commit' },
      first: 'buyer',
      offersEach: 1,
      acceptPrice: p + 1n,
      deliver: true,
    });
    assert.equal(a.deal!.price, p + 1n);
    assert.equal(ratioToDecimal(a.nash!.price), p.toString());
    assert.deepEqual([a.surplus!.buyer, a.surplus!.seller], [9n, 11n]);
  });

  test('negative prices: price figures say invalid, never a negative escrow cost', () => {
    const { a } = run({
      buyer: { p0: 0n, reservation: -1_000n, beta: 1, prices: [-3_000n, -2_000n], sealed: 'commit' },
      seller: { p0: 0n, reservation: -2_375_000n, beta: 1, prices: [-1_000n, -1_500n], sealed: 'commit' },
      first: 'buyer',
      offersEach: 2,
      deliver: true,
    });
    assert.equal(a.zopa, null);
    assert.match(a.unknown.zopa!, /negative/);
    assert.equal(a.escrowBurned, null);
    assert.match(a.unknown.escrowBurned!, /no escrow/);
  });

  test("escrow burned is the chain's figure, and only with an escrow", () => {
    const spec: GenSpec = {
      buyer: { p0: 500n, reservation: 2_000n, beta: 1, decayBps: 50 },
      seller: { p0: 3_000n, reservation: 1_000n, beta: 1, decayBps: 50 },
      first: 'buyer',
      offersEach: 3,
      deliver: true,
    };
    assert.equal(run(spec).a.escrowBurned, null);
    const escrow = { deposit: 2_000_000n, burned: 59_551n, decayBps: 50, rounds: 6 };
    assert.deepEqual(run(spec, { escrow }).a.escrowBurned, escrow);
  });
});

describe('roles from evidence, in order', () => {
  test('the Haggle account beats DELIVER, ADVERTISE and DISCOVER; a contradiction is ignored', () => {
    const r = assignRoles(
      [B, S],
      [
        { source: 'discover', agent: S, role: 'buyer' },
        { source: 'advertise', agent: B, role: 'seller' },
        { source: 'haggle', agent: B, role: 'buyer' },
      ],
    );
    assert.deepEqual([r.buyer, r.seller, r.sources], [B, S, ['haggle']]);
    const self = assignRoles(
      [B, S],
      [
        { source: 'deliver', agent: B, role: 'seller' },
        { source: 'deliver', agent: S, role: 'seller' },
        { source: 'discover', agent: B, role: 'buyer' },
      ],
    );
    assert.deepEqual([self.buyer, self.seller, self.sources], [B, S, ['discover']]);
    assert.match(self.ignored[0], /deliver/);
  });

  test('Haggle offers pair with NEG1 offers by round, not position: a resend does not shift the pairing', () => {
    // The agents number from 1 (the opening PROPOSE anchors it), and the seller resends its round-2 offer.
    const gossip = [
      { sender: B, price: 100n, round: 1, opening: true },
      { sender: S, price: 900n, round: 2 },
      { sender: S, price: 900n, round: 2 },
      { sender: B, price: 900n, round: 3 },
    ];
    const chain = {
      buyer: 'Wb',
      seller: 'Ws',
      offers: [
        { side: 1, amount: 100n, round: 1 },
        { side: 2, amount: 900n, round: 2 },
        { side: 1, amount: 900n, round: 3 },
      ],
    };
    const claims = haggleRoleClaims(chain, [B, S], gossip);
    assert.deepEqual(
      claims.map((c) => [c.agent, c.role]),
      [
        [B, 'buyer'],
        [S, 'seller'],
        [B, 'buyer'],
      ],
    );
    assert.deepEqual([assignRoles([B, S], claims).buyer, assignRoles([B, S], claims).seller], [B, S]);
    // The wallet is the agent's id: matched directly.
    assert.deepEqual(
      haggleRoleClaims({ buyer: `addr-${S}`, seller: 'x', offers: [], addressOf: (h) => `addr-${h}` }, [B, S], []),
      [{ source: 'haggle', agent: S, role: 'buyer' }],
    );
  });

  test('ADVERTISE in the conversation names the seller; notaries are not parties', () => {
    const g = generateNegotiation({
      buyer: { p0: 500n, reservation: 2_000n, beta: 1 },
      seller: { p0: 3_000n, reservation: 1_000n, beta: 1 },
      first: 'buyer',
      offersEach: 2,
    });
    const notary = new Uint8Array(32).fill(0xcc);
    const m: NegotiationMessage[] = [
      {
        sender: GEN_SELLER,
        msgType: MsgType.ADVERTISE,
        timestamp: 0n,
        payload: encodeAdvertiseJson({ role: 'seller' }),
      },
      ...msgs(g),
      { sender: notary, msgType: MsgType.DELIVER, timestamp: 0n, payload: new Uint8Array(1) },
    ];
    const a = analyzeNegotiation(m);
    assert.deepEqual(a.parties, [B, S]);
    // The notary's DELIVER names no party: ADVERTISE decides.
    assert.deepEqual([a.roles.buyer, a.roles.seller, a.roles.sources], [B, S, ['advertise']]);
  });

  test('a NEG1 payload given decoded is read like a raw one', () => {
    const n = {
      bidValue: 5n,
      tokenMint: new Uint8Array(32),
      serviceHash: new Uint8Array(32),
      round: 0,
      deadline: 0n,
      decayBps: 0,
      maxRounds: 3,
      verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
      reason: 0,
      metadata: new Uint8Array(0),
    };
    const raw = analyzeNegotiation([{ sender: 'aa', msgType: MsgType.PROPOSE, timestamp: 1, payload: encodeNeg1(n) }]);
    const dec = analyzeNegotiation([{ sender: 'aa', msgType: MsgType.PROPOSE, timestamp: 1, neg1: n }]);
    assert.deepEqual(raw, dec);
  });
});

test('docs/analytics.md holds the definitions the page shows', () => {
  const doc = readFileSync(new URL('../../docs/analytics.md', import.meta.url), 'utf8');
  const a = doc.indexOf(ANALYTICS_DOCS_BEGIN),
    b = doc.indexOf(ANALYTICS_DOCS_END);
  assert.ok(a >= 0 && b > a, 'markers missing');
  assert.equal(doc.slice(a, b + ANALYTICS_DOCS_END.length), analyticsMarkdown());
  for (const k of FIGURE_KEYS) assert.ok(FIGURES[k].what && FIGURES[k].undefinedWhen && FIGURES[k].reference, k);
});

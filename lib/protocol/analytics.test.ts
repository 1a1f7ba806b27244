import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeNegotiation, nashBargainingPoint, rubinsteinShare, type NegotiationMessage } from './analytics';
import { encodeNegCommit, encodeNegReveal, makeReservationCommitment, type Neg1Payload } from './neg1';
import { MsgType } from './types';

const close = (a: number, b: number, eps = 1e-9) => assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);
const neg1 = (bid: number, round: number, tier = 1): Neg1Payload => ({
  bidValue: BigInt(bid), tokenMint: new Uint8Array(32), serviceHash: new Uint8Array(32), round, deadline: 0n,
  decayBps: 100, maxRounds: 20, verification: { tier, testSuiteHash: new Uint8Array(0) }, reason: 0, metadata: new Uint8Array(0),
});

describe('negotiation analytics', () => {
  test('Rubinstein shares (1-δB)/(1-δA·δB) for worked pairs', () => {
    close(rubinsteinShare(0.9, 0.9), 0.1 / 0.19); // 0.526315...
    close(rubinsteinShare(0.9, 0.8), 0.2 / 0.28); // 0.714285...
    close(rubinsteinShare(0.8, 0.9), 0.1 / 0.28); // 0.357142...
    close(rubinsteinShare(0.5, 0.5), 2 / 3);
    close(rubinsteinShare(0, 0), 1);
    assert.throws(() => rubinsteinShare(1, 0.5), RangeError);
  });

  test('Nash point of a linear-utility price negotiation', () => {
    assert.equal(nashBargainingPoint({ buyerReservation: 100, sellerReservation: 60 }), 80);
    assert.equal(nashBargainingPoint({ buyerReservation: 100, sellerReservation: 60, sellerDisagreement: 10 }), 85);
    assert.equal(nashBargainingPoint({ buyerReservation: 50, sellerReservation: 60 }), null);
  });

  // Synthetic curves from the Faratin family p(t) = p0 + (pEnd - p0)·(t/T)^(1/β).
  const curve = (p0: number, pEnd: number, beta: number, n: number) =>
    Array.from({ length: n }, (_, i) => Math.round(p0 + (pEnd - p0) * Math.pow(i / (n - 1), 1 / beta)));

  test('Boulware seller and conceder buyer are classified with the fitted β', () => {
    const seller = curve(200_000, 120_000, 0.3, 8); // concedes late
    const buyer = curve(50_000, 110_000, 3, 8); // concedes early
    const msgs: NegotiationMessage[] = [];
    for (let i = 0; i < 8; i++) {
      msgs.push({ sender: 'aa', msgType: i === 0 ? MsgType.PROPOSE : MsgType.COUNTER, timestamp: 2 * i, neg1: neg1(seller[i], 2 * i) });
      msgs.push({ sender: 'bb', msgType: MsgType.COUNTER, timestamp: 2 * i + 1, neg1: neg1(buyer[i], 2 * i + 1) });
    }
    msgs.push({ sender: 'aa', msgType: MsgType.ACCEPT, timestamp: 17, neg1: neg1(115_000, 16) });
    const a = analyzeNegotiation(msgs, { reservation: { buyer: 130_000, seller: 100_000 } });
    assert.equal(a.rounds, 16);
    const s = a.sides.find((x) => x.agent === 'aa')!;
    const b = a.sides.find((x) => x.agent === 'bb')!;
    assert.equal(s.role, 'seller');
    assert.equal(b.role, 'buyer');
    assert.equal(s.curve?.class, 'boulware');
    assert.ok(Math.abs(s.curve!.beta - 0.3) < 0.02, `seller beta ${s.curve!.beta}`);
    assert.equal(b.curve?.class, 'conceder');
    assert.ok(Math.abs(b.curve!.beta - 3) < 0.2, `buyer beta ${b.curve!.beta}`);
    assert.equal(s.concessions.length, 7);
    assert.equal(s.concessions.reduce((x, y) => x + y, 0), 80_000);
    assert.ok(s.concessions.every((c) => c >= 0));
    assert.deepEqual(a.deal, { price: 115_000, acceptedBy: 'aa' });
    assert.deepEqual(a.nash, { price: 115_000, distance: 0, relativeDistance: 0 });
    // Escrow decay: 100 bps per round over 16 rounds on the deal price.
    close(a.escrowDecay!.cost, 115_000 * (1 - Math.pow(0.99, 16)), 1e-6);
  });

  test('a linear concession curve is linear with β ≈ 1', () => {
    const prices = curve(100, 200, 1, 6);
    const msgs = prices.map((p, i): NegotiationMessage => ({ sender: 'cc', msgType: MsgType.COUNTER, timestamp: i, neg1: neg1(p, i) }));
    const a = analyzeNegotiation(msgs, { buyer: 'cc' });
    assert.equal(a.sides[0].curve?.class, 'linear');
    assert.ok(Math.abs(a.sides[0].curve!.beta - 1) < 0.05);
    assert.deepEqual(a.sides[0].concessions, [20, 20, 20, 20, 20]);
  });

  test('ZOPA from revealed NEGR prices, with commitment checks', () => {
    const sb = new Uint8Array(32).fill(1), ss = new Uint8Array(32).fill(2);
    const msgs: NegotiationMessage[] = [
      { sender: 'aa', msgType: MsgType.PROPOSE, timestamp: 0, payload: encodeNegCommit(makeReservationCommitment(90n, ss)) },
      { sender: 'bb', msgType: MsgType.COUNTER, timestamp: 1, payload: encodeNegCommit(makeReservationCommitment(120n, sb)) },
      { sender: 'aa', msgType: MsgType.COUNTER, timestamp: 2, neg1: neg1(150, 0) },
      { sender: 'bb', msgType: MsgType.COUNTER, timestamp: 3, neg1: neg1(80, 1) },
      { sender: 'aa', msgType: MsgType.COUNTER, timestamp: 4, payload: encodeNegReveal({ price: 90n, salt: ss }) },
      { sender: 'bb', msgType: MsgType.COUNTER, timestamp: 5, payload: encodeNegReveal({ price: 120n, salt: sb }) },
      { sender: 'aa', msgType: MsgType.ACCEPT, timestamp: 6, neg1: neg1(100, 2) },
    ];
    const a = analyzeNegotiation(msgs);
    assert.deepEqual(a.zopa, { exists: true, buyerReservation: 120, sellerReservation: 90, width: 30, commitmentsValid: true });
    assert.deepEqual(a.nash, { price: 105, distance: 5, relativeDistance: 5 / 30 });
    const lying = msgs.slice();
    lying[5] = { ...msgs[5], payload: encodeNegReveal({ price: 121n, salt: sb }) };
    assert.equal(analyzeNegotiation(lying).zopa?.commitmentsValid, false);
  });
});

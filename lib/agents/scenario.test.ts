import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseNegotiationPayload } from '../protocol/neg1';
import { decodeFeedback } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { type DealState, newDeal, notaryOffer, notaryVerdicts, type Outgoing, step } from './scenario';
import type { StrategyName } from './strategies';

const A = 'aa'.repeat(32); // buyer
const B = 'bb'.repeat(32); // seller
const N = 'cc'.repeat(32); // notary
const conv = new Uint8Array(16).fill(7);
const names = Object.fromEntries(Object.entries(MsgType).map(([k, v]) => [v, k]));

interface Opts {
  sealed?: boolean;
  buyerRes?: number;
  sellerRes?: number;
  passed?: boolean;
  bs?: StrategyName;
  ss?: StrategyName;
}

/** Runs a whole deal between pure state machines, routing every outgoing envelope. */
function run(opts: Opts = {}) {
  const o = opts;
  const common = { conversationId: conv, serviceHash: new Uint8Array(32).fill(1), sealed: o.sealed ?? false };
  let buyer: DealState = newDeal({
    ...common,
    role: 'buyer',
    self: A,
    peer: B,
    salt: new Uint8Array(32).fill(2),
    stance: { strategy: o.bs ?? 'linear', side: 'buyer', initial: 400, reservation: o.buyerRes ?? 800, maxRounds: 4 },
  });
  let seller: DealState = newDeal({
    ...common,
    role: 'seller',
    self: B,
    peer: A,
    salt: new Uint8Array(32).fill(3),
    stance: {
      strategy: o.ss ?? 'boulware',
      side: 'seller',
      initial: 1000,
      reservation: o.sellerRes ?? 600,
      maxRounds: 4,
    },
  });
  const log: Array<{ from: string; o: Outgoing }> = [];
  const queue: Array<{ from: string; o: Outgoing }> = [];
  let timer = false;
  const emit = (from: string, out: Outgoing[]) =>
    out.forEach((x) => {
      log.push({ from, o: x });
      queue.push({ from, o: x });
    });
  let r = step(buyer, { kind: 'open' });
  buyer = r.state;
  emit(A, r.out);
  for (let guard = 0; guard < 100; guard++) {
    const m = queue.shift();
    if (!m) {
      if (timer) {
        timer = false;
        r = step(buyer, { kind: 'auction_closed' });
        buyer = r.state;
        emit(A, r.out);
        continue;
      }
      break;
    }
    const { from, o } = m;
    const deliverTo = (who: string) => o.to.kind === 'topic' || (o.to.kind === 'peer' && o.to.agent === who);
    const ev = { kind: 'message' as const, from, msgType: o.msgType, payload: o.payload };
    if (from !== A && deliverTo(A)) {
      r = step(buyer, ev);
      buyer = r.state;
      emit(A, r.out);
      if (r.startAuctionTimerMs) timer = true;
    }
    if (from !== B && deliverTo(B)) {
      r = step(seller, ev);
      seller = r.state;
      emit(B, r.out);
    }
    if (from !== N && o.msgType === MsgType.NOTARIZE_BID && o.to.kind === 'topic') {
      const off = notaryOffer(o.payload, 25);
      if (off) emit(N, [off]);
    }
    if (o.msgType === MsgType.NOTARIZE_ASSIGN && deliverTo(N))
      emit(N, notaryVerdicts(o.conversationId, o.payload, opts.passed ?? true));
  }
  return { buyer, seller, log, types: log.map((l) => `${l.from.slice(0, 2)}:${names[l.o.msgType]}`) };
}

describe('deal state machine', () => {
  test('open offers: negotiation, delivery, auction, verdict, feedback both ways', () => {
    const { buyer, seller, types, log } = run();
    assert.deepEqual(types, [
      'aa:PROPOSE',
      'bb:COUNTER',
      'aa:COUNTER',
      'bb:COUNTER',
      'aa:COUNTER',
      'bb:COUNTER',
      'aa:COUNTER',
      'bb:ACCEPT',
      'bb:DELIVER',
      'aa:NOTARIZE_BID',
      'cc:NOTARIZE_BID',
      'aa:NOTARIZE_ASSIGN',
      'cc:VERDICT',
      'cc:VERDICT',
      'aa:FEEDBACK',
      'aa:FEEDBACK',
      'bb:FEEDBACK',
      'bb:FEEDBACK',
    ]);
    const prices = log.slice(0, 8).map((l) => {
      const p = parseNegotiationPayload(l.o.payload);
      return p.kind === 'neg1' ? Number(p.neg1.bidValue) : -1;
    });
    assert.deepEqual(prices, [400, 1000, 533, 995, 667, 921, 800, 800]);
    assert.equal(buyer.price, 800);
    assert.equal(seller.price, 800);
    assert.equal(buyer.notary, N);
    assert.equal(buyer.phase, 'closed');
    const fb = log
      .filter((l) => l.o.msgType === MsgType.FEEDBACK)
      .map((l) => {
        const f = decodeFeedback(l.o.payload);
        assert.ok(f.ok);
        return [
          l.from.slice(0, 2),
          Buffer.from(f.value.targetAgent).toString('hex').slice(0, 2),
          f.value.score,
          f.value.role,
        ];
      });
    assert.deepEqual(fb, [
      ['aa', 'bb', 80, 0],
      ['aa', 'cc', 60, 1],
      ['bb', 'aa', 70, 0],
      ['bb', 'cc', 60, 1],
    ]);
  });

  test('sealed bids with a ZOPA: commitments, reveals, then offers', () => {
    const { types } = run({ sealed: true });
    assert.deepEqual(types.slice(0, 5), ['aa:PROPOSE', 'bb:COUNTER', 'aa:COUNTER', 'bb:COUNTER', 'aa:COUNTER']);
    assert.ok(types.includes('bb:DELIVER'));
  });

  test('sealed bids without a ZOPA end in REJECT after the reveals', () => {
    const { types, seller, buyer } = run({ sealed: true, buyerRes: 500, sellerRes: 700 });
    assert.deepEqual(types, ['aa:PROPOSE', 'bb:COUNTER', 'aa:COUNTER', 'bb:COUNTER', 'bb:REJECT']);
    assert.equal(seller.outcome, 'no_zopa');
    assert.equal(buyer.phase, 'closed');
  });

  test('rounds exhausted without agreement: REJECT with reason price', () => {
    const { types, log } = run({ buyerRes: 550, sellerRes: 600 });
    const last = log[log.length - 1];
    assert.equal(names[last.o.msgType], 'REJECT');
    const p = parseNegotiationPayload(last.o.payload);
    assert.equal(p.kind === 'neg1' && p.neg1.reason, 4);
    assert.ok(!types.includes('bb:DELIVER'));
  });

  test('a failing verdict: the seller disputes', () => {
    const { types } = run({ passed: false });
    assert.ok(types.includes('bb:DISPUTE'));
    assert.deepEqual(types.slice(-4), ['aa:FEEDBACK', 'aa:FEEDBACK', 'bb:DISPUTE', 'bb:FEEDBACK']);
  });
});

// The demo's deal mix, run through the pure deal state machines and the negotiation analytics: most
// agreed deals must carry every figure of the conversation page (ZOPA, Nash, Rubinstein, a fitted curve).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeNegotiation, type NegotiationMessage } from '../protocol/analytics';
import { MsgType } from '../protocol/types';
import { createRng } from './rng';
import { type DealState, newDeal, type Outgoing, step } from './scenario';
import { drawSealed, drawStance, SEALED_SHARE } from './stances';
import { STRATEGIES } from './strategies';

const A = 'aa'.repeat(32); // buyer
const B = 'bb'.repeat(32); // seller

/** One deal between two pure state machines, as the agents draw it; the bilateral messages with timestamps. */
function deal(k: number, rng: ReturnType<typeof createRng>) {
  const bs = STRATEGIES[k % 4],
    ss = STRATEGIES[Math.floor(k / 4) % 4];
  const sealed = drawSealed(rng);
  const conversationId = new Uint8Array(16);
  conversationId[0] = k & 0xff;
  conversationId[1] = k >> 8;
  const common = { conversationId, serviceHash: new Uint8Array(32).fill(1), sealed };
  let buyer: DealState = newDeal({
    ...common,
    role: 'buyer',
    self: A,
    peer: B,
    salt: new Uint8Array(32).fill(2),
    stance: drawStance(bs, 'buyer', rng),
  });
  let seller: DealState = newDeal({
    ...common,
    role: 'seller',
    self: B,
    peer: A,
    salt: new Uint8Array(32).fill(3),
    stance: drawStance(ss, 'seller', rng),
  });
  const messages: NegotiationMessage[] = [];
  const queue: Array<{ from: string; o: Outgoing }> = [];
  let t = 0;
  const emit = (from: string, out: Outgoing[]) => {
    for (const o of out) {
      if (o.to.kind !== 'peer') continue;
      messages.push({
        sender: from,
        recipient: o.to.agent,
        msgType: o.msgType,
        timestamp: (t += 700 + ((k * 37) % 500)),
        payload: o.payload,
      });
      queue.push({ from, o });
    }
  };
  let r = step(buyer, { kind: 'open' });
  buyer = r.state;
  emit(A, r.out);
  for (let guard = 0; guard < 200 && queue.length; guard++) {
    const { from, o } = queue.shift()!;
    const ev = { kind: 'message' as const, from, msgType: o.msgType, payload: o.payload };
    if (o.to.kind === 'peer' && o.to.agent === A) {
      r = step(buyer, ev);
      buyer = r.state;
      emit(A, r.out);
    }
    if (o.to.kind === 'peer' && o.to.agent === B) {
      r = step(seller, ev);
      seller = r.state;
      emit(B, r.out);
    }
  }
  return { sealed, agreed: buyer.outcome === 'agreed' && seller.outcome === 'agreed', messages };
}

const N = 480;
const deals = (() => {
  const rng = createRng(20_261_128);
  return Array.from({ length: N }, (_, k) => deal(k, rng));
})();
const agreed = deals.filter((d) => d.agreed);
const analysed = agreed.map((d) => analyzeNegotiation(d.messages.filter((m) => m.msgType !== MsgType.NOTARIZE_BID)));

test('most deals are opened with sealed reservations', () => {
  const sealed = deals.filter((d) => d.sealed).length / N;
  assert.ok(Math.abs(sealed - SEALED_SHARE) < 0.06, `sealed share ${sealed}`);
  assert.ok(SEALED_SHARE > 0.5);
});

test('a good share of deals agree', () => {
  assert.ok(agreed.length / N >= 0.4, `agreed ${agreed.length} of ${N}`);
});

test('agreed deals run at least four offers per side', () => {
  const four = analysed.filter((a) => a.sides.length === 2 && a.sides.every((s) => s.offers.length >= 4)).length;
  assert.ok(four / agreed.length >= 0.8, `${four} of ${agreed.length} agreed deals have 4+ offers per side`);
});

test('agreed deals carry ZOPA, Nash, Rubinstein and a fitted curve', () => {
  const full = analysed.filter((a) => a.zopa?.exists && a.nash && a.rubinstein && a.sides.some((s) => s.fit)).length;
  assert.ok(full / agreed.length >= 0.7, `${full} of ${agreed.length} agreed deals carry every figure`);
  // Every sealed agreed deal reveals both reservations against their commitments.
  const sealedAgreed = agreed.filter((d) => d.sealed).length;
  const verified = analysed.filter((a) => a.reservations.filter((r) => r.status === 'verified').length === 2).length;
  assert.equal(verified, sealedAgreed);
});

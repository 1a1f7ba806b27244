// The narrative of a negotiation from its messages: one sentence per message with the caller's
// wording of amounts and agents, and the facts read in NEG1 round order whatever the arrival order.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeCanonical } from './cbor';
import { toHex } from './hex';
import { encodeNeg1 } from './neg1';
import {
  messageSentence,
  type NarratedEnvelope,
  type NarrativeFormat,
  negotiationFacts,
  notariesAndBidders,
} from './negotiation-narrative';
import { encodeFeedback, encodeNotarizeBid } from './payloads';
import { MsgType } from './types';

const A = new Uint8Array(32).fill(0xaa);
const B = new Uint8Array(32).fill(0xbb);
const N = new Uint8Array(32).fill(0xcc);
const conv = new Uint8Array(16).fill(7);
const words: NarrativeFormat = {
  amount: (v) => `<${v}>`,
  agent: (h) => `@${h.slice(0, 4)}`,
  typeName: (c) => `TYPE${c}`,
};

let n = 0;
function msg(msgType: number, sender: Uint8Array, payload: Uint8Array, recipient = B, atS = n): NarratedEnvelope {
  n++;
  return {
    id: new Uint8Array(32).fill(n),
    envelope: { msgType, sender, recipient, timestamp: BigInt(atS) * 1_000_000n, payload, payloadLen: payload.length },
  };
}
const neg1 = (price: number, round: number, opts: { reason?: number; tier?: number } = {}) =>
  encodeNeg1({
    bidValue: BigInt(price),
    tokenMint: new Uint8Array(32),
    serviceHash: new Uint8Array(32),
    round,
    deadline: 1_790_000_100n,
    decayBps: 100,
    maxRounds: 8,
    verification: { tier: opts.tier ?? 2, testSuiteHash: new Uint8Array(0) },
    reason: opts.reason ?? 0,
    metadata: new Uint8Array(0),
  });
const say = (m: NarratedEnvelope) => messageSentence(m.envelope, words);

test('each message reads as one sentence, amounts and agents in the caller’s words', () => {
  assert.deepEqual(say(msg(MsgType.PROPOSE, A, neg1(400, 0))), {
    text: 'proposes <400> in round 0 of 8, tier 2, escrow decay 100 bps/round',
    tone: 'neutral',
  });
  assert.deepEqual(say(msg(MsgType.ACCEPT, B, neg1(600, 3, { tier: 1 }))), {
    text: 'accepts at <600>; verification tier 1 (mechanical check)',
    tone: 'good',
  });
  assert.deepEqual(say(msg(MsgType.REJECT, B, neg1(0, 4, { reason: 4 }))), {
    text: 'rejects (price) at round 4',
    tone: 'bad',
  });
  assert.deepEqual(say(msg(MsgType.REJECT, B, new Uint8Array([1, 2, 3]))), {
    text: 'rejects (opaque payload)',
    tone: 'bad',
  });
  const fee = encodeNotarizeBid({ bidType: 1, conversationId: conv, terms: encodeCanonical([25n]) });
  assert.equal(say(msg(MsgType.NOTARIZE_BID, N, fee)).text, 'bids to notarise for <25>');
  assert.equal(say(msg(MsgType.NOTARIZE_ASSIGN, A, new Uint8Array(0), N)).text, 'awards the notary auction to @cccc');
  assert.deepEqual(say(msg(MsgType.VERDICT, N, encodeCanonical([0n, 12n]))), {
    text: 'verdict: failed (score 12)',
    tone: 'bad',
  });
  const rating = encodeFeedback({
    conversationId: conv,
    targetAgent: B,
    score: -40,
    outcome: 0,
    isDispute: true,
    role: 1,
  });
  const rated = say(msg(MsgType.FEEDBACK, A, rating));
  assert.match(rated.text, /^rates @bbbb -40 \(.+, as notary, dispute\)$/);
  assert.equal(rated.tone, 'bad');
  assert.equal(say(msg(MsgType.BEACON, A, new Uint8Array(0))).text, `type${MsgType.BEACON}`);
});

test(
  'facts: offers in round order whatever the arrival, the ' + 'reject reason, the verdict, notaries apart from parties',
  () => {
    const late = msg(MsgType.COUNTER, B, neg1(900, 1), A, 5);
    const early = msg(MsgType.PROPOSE, A, neg1(400, 0), B, 9);
    const reject = msg(MsgType.REJECT, A, neg1(0, 2, { reason: 5 }), B, 10);
    const assign = msg(MsgType.NOTARIZE_ASSIGN, A, new Uint8Array(0), N, 11);
    const verdict = msg(MsgType.VERDICT, N, encodeCanonical([1n, 90n]), A, 12);
    const f = negotiationFacts([late, early, reject, assign, verdict]);
    assert.deepEqual(
      f.offers.map((o) => [o.round, o.price, o.msgType]),
      [
        [0, 400n, MsgType.PROPOSE],
        [1, 900n, MsgType.COUNTER],
        [2, 0n, MsgType.REJECT],
      ],
    );
    assert.equal(f.rejectReason, 'timeout');
    assert.equal(f.verdict, 'passed');
    assert.equal(f.mint, null, 'an all-zero token mint names no token');
    assert.equal(f.sealed, false);
    assert.equal(f.offers[0].deadlineMs, 1_790_000_100_000);
    const who = notariesAndBidders([assign, verdict], [N, B, new Uint8Array(32).fill(0xdd)], [toHex(A), toHex(B)]);
    assert.deepEqual(who, { notaries: [toHex(N)], bidders: ['dd'.repeat(32)] });
    assert.equal(negotiationFacts([msg(MsgType.VERDICT, N, new Uint8Array([0xff]))]).verdict, 'issued');
  },
);

// The flight recorder built from real signed envelopes of a sealed-bid deal (NEGC, NEGR, NEG1
// offers, ACCEPT, notary auction, VERDICT, FEEDBACK): its view validates against lib/wire, and
// ZOPA, Nash, Rubinstein, surplus, escrow decay and the timeline say what the messages say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEnvelope } from '../../lib/protocol/envelope';
import { encodeCanonical } from '../../lib/protocol/cbor';
import { encodeNeg1, encodeNegCommit, encodeNegReveal, makeReservationCommitment } from '../../lib/protocol/neg1';
import { encodeFeedback, encodeNotarizeBid } from '../../lib/protocol/payloads';
import { MsgType } from '../../lib/protocol/types';
import type { ConversationDetail, StoredEnvelope } from '../../lib/store/types';
import { NegotiationViewSchema } from '../../lib/wire';
import { negotiationSentences } from '../../components/negotiation/NegotiationNumbers';
import { base58, shortHex } from '../../components/format';
import { negotiationView } from './negotiation';

const A = new Uint8Array(32).fill(0xaa), B = new Uint8Array(32).fill(0xbb), N = new Uint8Array(32).fill(0xcc);
const conv = new Uint8Array(16).fill(7);
const saltA = new Uint8Array(32).fill(1), saltB = new Uint8Array(32).fill(2);
let seq = 0n;
function env(msgType: number, from: Uint8Array, to: Uint8Array, payload: Uint8Array): StoredEnvelope {
  seq++;
  const b = buildEnvelope({ msgType, sender: from, recipient: to, timestamp: 1_790_000_000_000_000n + seq * 1_000_000n, nonce: seq, conversationId: conv, payload }, new Uint8Array(32).fill(from[0] & 0x7f));
  return { id: b.id, seq, envelope: b.envelope, raw: b.bytes, source: 'stream', topic: null, receivedAt: new Date(), epoch: 0 };
}
const offer = (price: number, round: number, reason = 0) => encodeNeg1({
  bidValue: BigInt(price), tokenMint: new Uint8Array(32), serviceHash: new Uint8Array(32), round, deadline: 1_790_000_100n, decayBps: 100,
  maxRounds: 8, verification: { tier: 2, testSuiteHash: new Uint8Array(0) }, reason, metadata: new Uint8Array(0),
});
const detail = (envelopes: StoredEnvelope[]): ConversationDetail => ({
  id: conv, participants: [A, B], firstSeen: new Date(), lastSeen: new Date(), state: 'completed', messageCount: envelopes.length, lastType: 0, outcome: 'agreed',
  envelopes, feedback: [], notaryBids: [],
});

test('a sealed-bid deal: ZOPA, Nash, Rubinstein, surplus, escrow decay and the timeline', () => {
  // A buys (reservation 2.0), B sells (reservation 1.0); A opens low, B high, they meet at 1.6.
  const envs = [
    env(MsgType.PROPOSE, A, B, encodeNegCommit(makeReservationCommitment(2_000_000n, saltA))),
    env(MsgType.COUNTER, B, A, encodeNegCommit(makeReservationCommitment(1_000_000n, saltB))),
    env(MsgType.COUNTER, A, B, encodeNegReveal({ price: 2_000_000n, salt: saltA })),
    env(MsgType.COUNTER, B, A, encodeNegReveal({ price: 1_000_000n, salt: saltB })),
    env(MsgType.PROPOSE, A, B, offer(1_000_000, 0)),
    env(MsgType.COUNTER, B, A, offer(2_000_000, 1)),
    env(MsgType.COUNTER, A, B, offer(1_200_000, 2)),
    env(MsgType.COUNTER, B, A, offer(1_800_000, 3)),
    env(MsgType.COUNTER, A, B, offer(1_400_000, 4)),
    env(MsgType.COUNTER, B, A, offer(1_600_000, 5)),
    env(MsgType.ACCEPT, A, B, offer(1_600_000, 6)),
    env(MsgType.DELIVER, B, A, new Uint8Array([1, 2, 3])),
    env(MsgType.NOTARIZE_BID, A, new Uint8Array(32), encodeNotarizeBid({ bidType: 0, conversationId: conv, terms: encodeCanonical([1n]) })),
    env(MsgType.NOTARIZE_BID, N, new Uint8Array(32), encodeNotarizeBid({ bidType: 1, conversationId: conv, terms: encodeCanonical([50_000n]) })),
    env(MsgType.NOTARIZE_ASSIGN, A, N, encodeCanonical([A, B, 50_000n])),
    env(MsgType.VERDICT, N, A, encodeCanonical([1, 90])),
    env(MsgType.FEEDBACK, A, B, encodeFeedback({ conversationId: conv, targetAgent: B, score: 80, outcome: 2, isDispute: false, role: 0 })),
  ];
  const v = negotiationView(detail(envs));
  assert.deepEqual(NegotiationViewSchema.parse(v), v);
  assert.equal(v.outcome, 'agreed');
  assert.equal(v.sealed, true);
  assert.deepEqual(v.zopa, { exists: true, buyerReservation: 2_000_000, sellerReservation: 1_000_000, width: 1_000_000, commitmentsValid: true });
  assert.equal(v.nash?.price, 1_500_000);
  assert.equal(v.nash?.distance, 100_000);
  assert.deepEqual(v.surplus, { buyer: 400_000, seller: 600_000 });
  // δ = 0.99, the buyer moves first and keeps 1/(1+δ) of the ZOPA: price = 2.0 - 0.5025… × 1.0.
  assert.ok(v.rubinstein);
  assert.equal(v.rubinstein.firstMover, Buffer.from(A).toString('hex'));
  assert.ok(Math.abs(v.rubinstein.price - (2_000_000 - 1_000_000 / 1.99)) < 1e-6);
  assert.equal(v.tier, 2);
  assert.equal(v.verdict, 'passed');
  assert.deepEqual(v.sides.map((s) => [s.role, s.offers.length, s.concessions]), [
    ['buyer', 3, [200_000, 200_000]], ['seller', 3, [200_000, 200_000]],
  ]);
  assert.equal(v.sides[0].curve?.class, 'linear');
  assert.ok(v.escrowDecay && v.escrowDecay.cost > 0);
  assert.equal(v.timeline.length, envs.length);
  const texts = v.timeline.map((t) => `${t.type}: ${t.text}`);
  assert.match(texts[0], /sealed reservation/);
  assert.match(texts[2], /reveals its reservation price 2/);
  assert.match(texts[10], /accepts at 1\.6; verification tier 2/);
  assert.match(texts[13], /bids to notarise for 0\.05/);
  assert.ok(texts[14].includes(`awards the notary auction to ${shortHex(base58('cc'.repeat(32)), 5, 4)}`), texts[14]);
  assert.match(texts[15], /verdict: passed/);
  assert.ok(texts[16].includes(`rates ${shortHex(base58('bb'.repeat(32)), 5, 4)} +80`), texts[16]);
  const words = negotiationSentences(v).join(' ');
  assert.match(words, /Agreed at 1\.6 after 6 offers/);
  assert.match(words, /Surplus split: buyer 0\.4 \(40\.0%\), seller 0\.6 \(60\.0%\)/);
});

test('a rejected negotiation with revealed reservations and no ZOPA', () => {
  const envs = [
    env(MsgType.PROPOSE, A, B, encodeNegReveal({ price: 1_000_000n, salt: saltA })),
    env(MsgType.COUNTER, B, A, encodeNegReveal({ price: 1_500_000n, salt: saltB })),
    env(MsgType.PROPOSE, A, B, offer(800_000, 0)),
    env(MsgType.COUNTER, B, A, offer(1_700_000, 1)),
    env(MsgType.REJECT, A, B, offer(800_000, 2, 4)),
  ];
  const v = negotiationView(detail(envs));
  assert.equal(v.outcome, 'rejected');
  assert.equal(v.rejectReason, 'price');
  assert.equal(v.zopa?.exists, false);
  assert.equal(v.nash, null);
  assert.equal(v.rubinstein, null);
  assert.equal(v.timeline[4].tone, 'bad');
  assert.match(negotiationSentences(v).join(' '), /no ZOPA: the seller needs 1\.5, the buyer pays at most 1/);
});

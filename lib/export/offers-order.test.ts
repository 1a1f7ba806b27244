// The offers table follows the negotiation's rounds, not the store's order: offers stamped in the
// same millisecond (stored by nonce, so possibly swapped) keep their NEG1 rounds' order in `step`,
// and the negotiations table's on-chain difference count pairs them with the chain by round.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildEnvelope } from '../protocol/envelope';
import { encodeNeg1 } from '../protocol/neg1';
import { MsgType } from '../protocol/types';
import type { HaggleNegotiationRow, HaggleTransitionRow } from '../store';
import { agentSeed } from './deals-testing';
import { negotiationRecord, offerRows } from './negotiation';
import { onChainColumns } from './negotiation-onchain';
import { type EnvelopeRecord, envelopeRecord } from './rows';

const conv = new Uint8Array(16).fill(7);
const [buyer, seller] = [agentSeed(0), agentSeed(1)];
const T = 1_767_225_600_123_000n;

function offer(
  msgType: number,
  from: Uint8Array,
  to: Uint8Array,
  round: number,
  price: bigint,
  timestamp: bigint,
  nonce: bigint,
): EnvelopeRecord {
  const payload = encodeNeg1({
    bidValue: price,
    tokenMint: new Uint8Array(32),
    serviceHash: new Uint8Array(32).fill(1),
    round,
    deadline: 0n,
    decayBps: 50,
    maxRounds: 10,
    verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
    reason: 0,
    metadata: new Uint8Array(0),
  });
  const b = buildEnvelope(
    { msgType, sender: from, recipient: to, conversationId: conv, nonce, timestamp, payload },
    from,
  );
  return envelopeRecord({
    id: b.id,
    raw: b.bytes,
    seq: nonce,
    epoch: 0,
    source: 'upload',
    topic: null,
    received_us: timestamp,
  });
}

test('step follows the NEG1 round, then time, then id: same-millisecond offers stored swapped are put back', () => {
  // Protocol order (timestamp, nonce) puts round 2 before round 1: both in one millisecond, and the
  // buyer's nonce happens to be lower.
  const envs = [
    offer(MsgType.PROPOSE, buyer, seller, 0, 1_400_000n, T, 1n),
    offer(MsgType.COUNTER, buyer, seller, 2, 1_500_000n, T + 1000n, 2n),
    offer(MsgType.COUNTER, seller, buyer, 1, 1_600_000n, T + 1000n, 5n),
    offer(MsgType.COUNTER, seller, buyer, 3, 1_550_000n, T + 2000n, 6n),
  ];
  const rows = offerRows(envs);
  assert.deepEqual(
    rows.map((r) => [r.step, r.round, r.offer]),
    [
      [0, 0, 1_400_000n],
      [1, 1, 1_600_000n],
      [2, 2, 1_500_000n],
      [3, 3, 1_550_000n],
    ],
  );
  // The store's order does not matter at all.
  assert.deepEqual(
    offerRows([...envs].reverse()).map((r) => [r.step, r.round]),
    rows.map((r) => [r.step, r.round]),
  );
});

test('offers sharing a round are ordered by time, then by envelope id', () => {
  const a = offer(MsgType.COUNTER, seller, buyer, 1, 10n, T + 5000n, 9n);
  const b = offer(MsgType.COUNTER, seller, buyer, 1, 20n, T + 5000n, 8n);
  const early = offer(MsgType.COUNTER, seller, buyer, 1, 30n, T + 4000n, 7n);
  const envs = [offer(MsgType.PROPOSE, buyer, seller, 0, 1n, T, 1n), a, b, early];
  const [first, second] = Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)) < 0 ? [10n, 20n] : [20n, 10n];
  assert.deepEqual(
    offerRows(envs).map((r) => r.offer),
    [1n, 30n, first, second],
  );
  assert.deepEqual(
    offerRows([envs[0], b, early, a]).map((r) => r.offer),
    [1n, 30n, first, second],
  );
});

test(
  'negotiations: same-millisecond offers stored swapped ' + 'match the chain round by round; a real difference counts',
  () => {
    const envs = [
      offer(MsgType.PROPOSE, buyer, seller, 0, 1_400_000n, T, 1n),
      offer(MsgType.COUNTER, buyer, seller, 2, 1_500_000n, T + 1000n, 2n),
      offer(MsgType.COUNTER, seller, buyer, 1, 1_600_000n, T + 1000n, 5n),
    ];
    const t = (round: number, amount: bigint): HaggleTransitionRow => ({
      signature: `s${round}`,
      index: 0,
      slot: BigInt(round),
      kind: 'offer',
      side: round % 2 ? 1 : 2,
      round,
      amount,
      decay: 1n,
      escrow: 100n,
      status: 'countered',
      at: null,
    });
    const row = (amounts: bigint[]): HaggleNegotiationRow => ({
      id: 'created',
      address: 'A1',
      conversationId: new Uint8Array(16).fill(7),
      buyer: 'B',
      seller: 'S',
      deposit: 2_000_000n,
      deadline: 0n,
      responseWindow: 60,
      decayBps: 50,
      minOfferBps: 0,
      protocolFeeBps: 200,
      maxRounds: 10,
      zopaDetection: false,
      escrow: 100n,
      decayed: 3n,
      currentOffer: amounts[2],
      lastOfferBy: 1,
      rounds: 3,
      joined: true,
      status: 'countered',
      reason: null,
      buyerReservation: null,
      sellerReservation: null,
      zopa: null,
      amount: null,
      fee: null,
      toSeller: null,
      refund: null,
      createdSlot: 0n,
      slot: 3n,
      createdAt: null,
      closedAt: new Date(1),
      transitions: amounts.map((a, i) => t(i + 1, a)),
    });
    const rec = negotiationRecord(envs, T + 10_000_000n)!;
    assert.equal(onChainColumns([row([1_400_000n, 1_600_000n, 1_500_000n])], rec.gossip).onchain_offer_differences, 0);
    assert.equal(onChainColumns([row([1_400_000n, 1_600_001n, 1_500_000n])], rec.gossip).onchain_offer_differences, 1);
  },
);

test('negotiations: opening and final offer are the first and last by round, as the offers table orders them', () => {
  // The round-3 offer arrives stamped before the round-2 one (same clock tick, clock skew between
  // the parties): by time the "final" offer would be the round-2 one.
  const envs = [
    offer(MsgType.PROPOSE, buyer, seller, 0, 600n, T, 1n),
    offer(MsgType.COUNTER, seller, buyer, 1, 800n, T + 1000n, 2n),
    offer(MsgType.COUNTER, seller, buyer, 3, 703n, T + 2000n, 3n),
    offer(MsgType.COUNTER, buyer, seller, 2, 728n, T + 3000n, 4n),
    offer(MsgType.ACCEPT, buyer, seller, 4, 703n, T + 4000n, 5n),
  ];
  const r = negotiationRecord(envs, T)!.row;
  const rows = offerRows(envs).filter((x) => x.msg_type_name !== 'ACCEPT');
  assert.equal(r.final_offer, rows.at(-1)!.offer);
  assert.deepEqual([r.opening_offer, r.opening_counter, r.final_offer, r.agreed_price], [600n, 800n, 703n, 703n]);
});

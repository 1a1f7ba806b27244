/**
 * The on-chain negotiation view pairs each on-chain offer with the gossiped NEG1 offer of the
 * same round (never by arrival order) and counts every difference; its output matches lib/wire's schema exactly.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HaggleNegotiationRow, HaggleTransitionRow } from '../../lib/store';
import { OnChainNegotiationViewSchema, type PriceStepView } from '../../lib/wire';
import { onChainNegotiationView } from './haggle';

const ADDR = '11111111111111111111111111111111';
const offer = (side: number, amount: bigint, decay: bigint, escrow: bigint, i: number): HaggleTransitionRow => ({
  signature: `sig${i}`,
  index: 0,
  slot: BigInt(i),
  kind: 'offer',
  side,
  round: i,
  amount,
  decay,
  escrow,
  status: side === 1 ? 'proposed' : 'countered',
  at: null,
});

function row(over: Partial<HaggleNegotiationRow> = {}): HaggleNegotiationRow {
  return {
    id: 'created-sig',
    address: ADDR,
    conversationId: new Uint8Array(16).fill(9),
    buyer: ADDR,
    seller: ADDR,
    deposit: 2000n,
    deadline: 1n,
    responseWindow: 60,
    decayBps: 50,
    minOfferBps: 0,
    protocolFeeBps: 200,
    maxRounds: 6,
    zopaDetection: false,
    escrow: 0n,
    decayed: 28n,
    currentOffer: 600n,
    lastOfferBy: 1,
    rounds: 3,
    joined: true,
    status: 'settled',
    reason: null,
    buyerReservation: null,
    sellerReservation: null,
    zopa: null,
    amount: 600n,
    fee: 12n,
    toSeller: 588n,
    refund: 1372n,
    createdSlot: 1n,
    slot: 9n,
    createdAt: null,
    closedAt: new Date(1),
    transitions: [offer(1, 400n, 10n, 1990n, 1), offer(2, 900n, 9n, 1981n, 2), offer(1, 600n, 9n, 1972n, 3)],
    ...over,
  };
}

const step = (type: string, bidValue: string, i: number): PriceStepView => ({
  envelopeId: String(i).padStart(64, '0'),
  type,
  sender: 'aa'.repeat(32),
  round: i,
  bidValue,
  kind: 'neg1',
  timestampMs: i,
});

test('gossip and chain agree: every position same, no difference', () => {
  const v = onChainNegotiationView(row(), [
    step('PROPOSE', '400', 1),
    step('COUNTER', '900', 2),
    step('COUNTER', '600', 3),
    step('ACCEPT', '600', 4),
  ]);
  assert.deepEqual(OnChainNegotiationViewSchema.parse(v), v);
  assert.deepEqual(
    v.rounds.map((r) => [r.position, r.side, r.onChain, r.gossip, r.decay, r.escrow, r.match]),
    [
      [1, 'buyer', '400', '400', '10', '1990', 'same'],
      [2, 'seller', '900', '900', '9', '1981', 'same'],
      [3, 'buyer', '600', '600', '9', '1972', 'same'],
    ],
  );
  assert.equal(v.differences, 0);
  assert.deepEqual(v.settlement, { amount: '600', fee: '12', toSeller: '588', refund: '1372' });
});

test('a signed offer other than the gossiped one, a missing one and another ACCEPT price are each a difference', () => {
  const v = onChainNegotiationView(row(), [
    step('PROPOSE', '400', 1),
    step('COUNTER', '950', 2),
    step('COUNTER', '600', 3),
    step('COUNTER', '610', 4),
    step('ACCEPT', '610', 5),
  ]);
  assert.deepEqual(
    v.rounds.map((r) => r.match),
    ['same', 'differs', 'same', 'gossip_only'],
  );
  assert.equal(v.differences, 3, 'position 2 differs, position 4 is not on chain, ACCEPT said 610 but 600 settled');
  const open = onChainNegotiationView(
    row({ status: 'countered', closedAt: null, amount: null, transitions: row().transitions.slice(0, 1) }),
    [step('PROPOSE', '400', 1), step('COUNTER', '900', 2)],
  );
  assert.deepEqual(
    open.rounds.map((r) => r.match),
    ['same'],
    'an open negotiation is not blamed for gossip the chain has not caught up with',
  );
  assert.equal(open.settlement, null);
});

test('offers stamped in the same millisecond and stored swapped still pair by round: no "offers differ"', () => {
  // The store orders by (timestamp, nonce), so rounds 1 and 2 (900 and 600) can come back swapped.
  const at = (type: string, bidValue: string, round: number, id: number): PriceStepView => ({
    envelopeId: String(id).padStart(64, '0'),
    type,
    sender: 'aa'.repeat(32),
    round,
    bidValue,
    kind: 'neg1',
    timestampMs: 1_700_000_000_123,
  });
  const v = onChainNegotiationView(row(), [
    at('PROPOSE', '400', 0, 1),
    at('COUNTER', '600', 2, 2),
    at('COUNTER', '900', 1, 3),
    at('ACCEPT', '600', 3, 4),
  ]);
  assert.equal(v.differences, 0);
  assert.deepEqual(
    v.rounds.map((r) => [r.position, r.onChain, r.gossip, r.match]),
    [
      [1, '400', '400', 'same'],
      [2, '900', '900', 'same'],
      [3, '600', '600', 'same'],
    ],
  );
  // The table numbers them as NEG1 does (0-based), as the chart, the timeline and the messages do.
  assert.deepEqual(
    v.rounds.map((r) => r.round),
    [0, 1, 2],
  );
  // A real difference in a round is still reported there.
  const lied = onChainNegotiationView(row(), [
    at('PROPOSE', '400', 0, 1),
    at('COUNTER', '601', 2, 2),
    at('COUNTER', '900', 1, 3),
    at('ACCEPT', '600', 3, 4),
  ]);
  assert.equal(lied.differences, 1);
  assert.deepEqual(
    lied.rounds.filter((r) => r.match !== 'same').map((r) => [r.position, r.onChain, r.gossip]),
    [[3, '600', '601']],
  );
});

test('the settlement table shows NEG1 rounds: an opening PROPOSE in round 0 is round 0, whatever the chain counts', async () => {
  const { renderToStaticMarkup } = await import('react-dom/server');
  const { createElement } = await import('react');
  const { OnChainNegotiation } = await import('../../components/OnChainNegotiation');
  const at = (type: string, bidValue: string, round: number): PriceStepView => ({
    envelopeId: String(round).padStart(64, '0'),
    type,
    sender: 'aa'.repeat(32),
    round,
    bidValue,
    kind: 'neg1',
    timestampMs: round,
  });
  const v = onChainNegotiationView(row(), [
    at('PROPOSE', '400', 0),
    at('COUNTER', '900', 1),
    at('COUNTER', '600', 2),
    at('ACCEPT', '600', 3),
  ]);
  const html = renderToStaticMarkup(createElement(OnChainNegotiation, { negotiations: [v] }));
  assert.deepEqual(
    [...html.matchAll(/data-round="(\d+)"/g)].map((m) => Number(m[1])),
    [0, 1, 2],
  );
  assert.deepEqual(
    [...html.matchAll(/title="the chain&#x27;s round \d+">(\d+)</g)].map((m) => Number(m[1])),
    [0, 1, 2],
  );
});

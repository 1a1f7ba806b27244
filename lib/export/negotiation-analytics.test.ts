// The negotiations table's analytics columns (schema version 3) on generated negotiations (signed
// envelopes from lib/protocol/testing.ts): roles from evidence, zopa_exists false when verified
// reveals do not overlap, unverified reservations left out, expiry by deadline, round limit and
// the chain's state, escrow burned from the chain only, notary bidders apart from the parties.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeCanonical } from '../protocol/cbor';
import { buildEnvelope } from '../protocol/envelope';
import { toHex } from '../protocol/hex';
import { encodeNotarizeBid } from '../protocol/payloads';
import { GEN_BUYER, GEN_SELLER, type Generated, type GenSpec, generateNegotiation } from '../protocol/testing';
import { MsgType } from '../protocol/types';
import type { HaggleNegotiationRow } from '../store';
import { negotiationRecord } from './negotiation';
import { type EnvelopeRecord, envelopeRecord } from './rows';
import { TABLES } from './tables';

const records = (g: Generated, extra: ReturnType<typeof buildEnvelope>[] = []): EnvelopeRecord[] =>
  [...g.messages, ...extra].map((m, i) =>
    envelopeRecord({
      id: m.id,
      seq: BigInt(i + 1),
      raw: m.bytes,
      epoch: 0,
      source: 'stream',
      topic: null,
      received_us: 0n,
    }),
  );
const NOW = 1_790_000_000_000_000n + 3_600_000_000n;
const row = (
  g: Generated,
  chain: HaggleNegotiationRow[] = [],
  extra: ReturnType<typeof buildEnvelope>[] = [],
  now = NOW,
) => negotiationRecord(records(g, extra), now, chain)!.row;
const hex = (v: unknown) => (v instanceof Uint8Array ? toHex(v) : v);
const spec = (over: Partial<GenSpec> = {}): GenSpec => ({
  buyer: { p0: 500n, reservation: 726n, beta: 1, sealed: 'commit', decayBps: 20 },
  seller: { p0: 1_000n, reservation: 729n, beta: 1, sealed: 'commit', decayBps: 20 },
  first: 'buyer',
  offersEach: 4,
  deliver: true,
  accept: false,
  ...over,
});
const specOf = spec;
const haggle = (over: Partial<HaggleNegotiationRow> = {}): HaggleNegotiationRow => ({
  id: 'sigCreate',
  address: 'Neg1111111111111111111111111111111111111111',
  conversationId: new Uint8Array(16),
  buyer: 'BuyerWa11et1111111111111111111111111111111',
  seller: 'Se11erWa11et111111111111111111111111111111',
  deposit: 2_000n,
  deadline: 0n,
  responseWindow: 60,
  decayBps: 20,
  minOfferBps: 0,
  protocolFeeBps: 0,
  maxRounds: 20,
  zopaDetection: true,
  escrow: 1_984n,
  decayed: 16n,
  currentOffer: null,
  lastOfferBy: null,
  rounds: 4,
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
  createdSlot: 1n,
  slot: 2n,
  createdAt: null,
  closedAt: null,
  transitions: [],
  ...over,
});

test('sealed reveals without overlap: zopa_exists false, reservations verified, roles from DELIVER (schema v6)', () => {
  assert.equal(TABLES.negotiations.version, 6);
  const r = row(generateNegotiation(spec()));
  assert.deepEqual([hex(r.buyer), hex(r.seller), r.roles_source], [toHex(GEN_BUYER), toHex(GEN_SELLER), 'deliver']);
  assert.deepEqual(
    [r.zopa_exists, r.buyer_reservation, r.seller_reservation, r.commitments_valid],
    [false, 726n, 729n, true],
  );
  assert.deepEqual([r.nash_price, r.buyer_surplus, r.rubinstein_share], [null, null, null]);
  assert.equal(r.escrow_decay_cost, null, 'nothing escrowed off chain');
  for (const c of TABLES.negotiations.columns)
    assert.ok(
      c.name in r ||
        c.name.startsWith('onchain') ||
        /escrow_|settled_|protocol_fee|refund_to_buyer|rounds_onchain/.test(c.name),
      `column ${c.name} missing`,
    );
});

test('a reveal without commitment is not a reservation; no evidence leaves roles and their columns null', () => {
  const r = row(
    generateNegotiation(spec({ seller: { p0: 1_000n, reservation: 700n, beta: 1, sealed: 'reveal-only' } })),
  );
  assert.deepEqual(
    [r.seller_reservation, r.seller_reservation_status, r.commitments_valid, r.zopa_exists],
    [null, 'no commitment', false, null],
  );
  const anon = row(generateNegotiation(spec({ deliver: false })));
  assert.deepEqual(
    [anon.buyer, anon.seller, anon.roles_source, anon.zopa_exists, anon.buyer_concession_class],
    [null, null, null, null, null],
  );
});

test('a ZOPA: exact Nash, surplus and Rubinstein columns; fit columns with movement and error', () => {
  const r = row(
    generateNegotiation(
      spec({
        buyer: { p0: 500n, reservation: 2_001n, beta: 2, sealed: 'commit', decayBps: 0 },
        seller: { p0: 3_000n, reservation: 1_000n, beta: 0.5, sealed: 'commit', decayBps: 0 },
        accept: true,
        offersEach: 5,
      }),
    ),
  );
  assert.equal(r.zopa_exists, true);
  assert.equal(r.nash_price, '1500.5');
  assert.equal(r.rubinstein_share, 0.5, 'no decay on either side: the limit ½');
  assert.equal(r.rubinstein_price, '1500.5');
  assert.equal(r.buyer_surplus, 2_001n - (r.agreed_price as bigint));
  assert.deepEqual(
    [r.buyer_movement, r.buyer_concession_class, r.seller_concession_class],
    ['conceding', 'conceder', 'boulware'],
  );
  assert.ok((r.buyer_fit_error as number) < 0.05);
});

test('a β at the search bound is no exponent', () => {
  const r = row(
    generateNegotiation(
      spec({
        buyer: { p0: 0n, reservation: 0n, beta: 1, prices: [100n, 100n, 100n, 900n] },
        seller: { p0: 0n, reservation: 0n, beta: 1, prices: [2_000n, 1_800n, 1_600n, 1_400n] },
      }),
    ),
  );
  assert.deepEqual(
    [r.buyer_concession_exponent, r.buyer_concession_class, r.buyer_movement],
    [null, null, 'conceding'],
  );
  assert.equal(typeof r.buyer_fit_error, 'number');
  assert.equal(r.seller_concession_class, 'linear');
});

test(
  'outcome: expired by deadline, by the last round, by ' + 'the chain; open otherwise; escrow burned from the chain',
  () => {
    // Without a DELIVER: a DELIVER with no ACCEPT is a deal step without a deal (no_deal, below).
    const spec = (over: Partial<GenSpec> = {}) => specOf({ deliver: false, ...over });
    const openSpec = spec({ maxRounds: 20, deadline: 0n });
    assert.equal(row(generateNegotiation(openSpec)).outcome, 'open');
    assert.equal(row(generateNegotiation(spec({ deadline: 1_790_000_100n }))).outcome, 'expired', 'deadline passed');
    assert.equal(
      row(generateNegotiation(spec({ deadline: 1_790_000_100n })), [], [], 1_790_000_000_000_000n).outcome,
      'open',
      'deadline ahead',
    );
    assert.equal(row(generateNegotiation(spec({ maxRounds: 8 }))).outcome, 'expired', 'rounds 0..7 used all 8');
    assert.equal(row(generateNegotiation(spec({ maxRounds: 9 }))).outcome, 'open');
    const chained = row(generateNegotiation(openSpec), [haggle({ status: 'expired', closedAt: new Date() })]);
    assert.equal(chained.outcome, 'expired', 'no deadline, expired on chain');
    assert.equal(chained.escrow_decay_cost, 16n);
    assert.equal(row(generateNegotiation(openSpec), [haggle({ status: 'settled' })]).outcome, 'agreed');
    // The conversation state machine's word, as the list says it: deal steps without an ACCEPT.
    assert.equal(row(generateNegotiation(specOf({ maxRounds: 20, deadline: 0n, deliver: true }))).outcome, 'no_deal');
    assert.equal(
      row(generateNegotiation(specOf({ maxRounds: 20, deadline: 0n, deliver: true })), [haggle({ status: 'settled' })])
        .outcome,
      'agreed',
      'the chain settled it',
    );
  },
);

test('roles from the Haggle account when nothing else says; notary bidders are not parties', () => {
  const g = generateNegotiation(spec({ deliver: false }));
  const offers = g.messages.filter(
    (m) => (m.msgType === MsgType.PROPOSE || m.msgType === MsgType.COUNTER) && m.envelope.payload[3] === 0x31,
  );
  const transitions = offers.map((m, k) => ({
    signature: `s${k}`,
    index: 0,
    slot: BigInt(k + 2),
    kind: 'offer',
    side: m.senderRole === 'buyer' ? 1 : 2,
    round: k + 1,
    amount: g.offers[m.senderRole][Math.floor(k / 2)],
    decay: 4n,
    escrow: 2_000n - 4n * BigInt(k + 1),
    status: 'countered',
    at: null,
  })) as unknown as HaggleNegotiationRow['transitions'];
  const notary = new Uint8Array(32).fill(0xcc),
    bidder = new Uint8Array(32).fill(0xdd);
  const bid = (from: Uint8Array, n: bigint) =>
    buildEnvelope(
      {
        msgType: MsgType.NOTARIZE_BID,
        sender: from,
        recipient: new Uint8Array(32),
        timestamp: NOW - 1n,
        nonce: n,
        conversationId: g.conversationId,
        payload: encodeNotarizeBid({ bidType: 1, conversationId: g.conversationId, terms: encodeCanonical([5n]) }),
      },
      from,
    );
  const assign = buildEnvelope(
    {
      msgType: MsgType.NOTARIZE_ASSIGN,
      sender: GEN_BUYER,
      recipient: notary,
      timestamp: NOW,
      nonce: 99n,
      conversationId: g.conversationId,
      payload: encodeCanonical([1n]),
    },
    GEN_BUYER,
  );
  const r = row(g, [haggle({ transitions })], [bid(notary, 1n), bid(bidder, 1n), assign]);
  assert.deepEqual([hex(r.buyer), hex(r.seller), r.roles_source], [toHex(GEN_BUYER), toHex(GEN_SELLER), 'haggle']);
  assert.equal(hex(r.notary), toHex(notary));
  assert.deepEqual(r.notary_bidders, [toHex(bidder)]);
  assert.deepEqual([hex(r.proposer), hex(r.responder)], [toHex(GEN_BUYER), toHex(GEN_SELLER)]);
});

test(
  'outside_zopa_by: a zero-width ZOPA agreed off its ' + 'point says how far; a deal inside says 0; no deal, null',
  () => {
    const off = row(
      generateNegotiation({
        buyer: { p0: 0n, reservation: 1_000_000n, beta: 1, prices: [800_000n], sealed: 'commit' },
        seller: { p0: 0n, reservation: 1_000_000n, beta: 1, prices: [1_400_000n], sealed: 'commit' },
        first: 'buyer',
        offersEach: 1,
        acceptPrice: 1_200_000n,
        deliver: true,
      }),
    );
    assert.deepEqual([off.outcome, off.buyer_surplus, off.outside_zopa_by], ['agreed', -200_000n, 200_000n]);
    const inside = row(
      generateNegotiation(spec({ buyer: { p0: 500n, reservation: 900n, beta: 1, sealed: 'commit' }, accept: true })),
    );
    assert.equal(inside.outside_zopa_by, 0n);
    assert.equal(row(generateNegotiation(spec())).outside_zopa_by, null);
  },
);

// The flight recorder (the API's NegotiationView) from real signed envelopes: a sealed-bid deal
// with a notary auction, a reveal without commitment, and negotiations from the Faratin generator
// stored in a PGlite store with their Haggle account, ADVERTISE and DISCOVER, read through
// loadNegotiation as the API route does. Figures are checked against closed forms, and "unknown"
// exactly where docs/analytics.md says, and the page's numbers and sentences
// (components/negotiation) read from the same view. Here, not beside app/_lib/negotiation.ts,
// because it holds a component against app/_lib, which imports no component.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { loadNegotiation, negotiationView } from '../app/_lib/negotiation';
import type { Services } from '../app/_lib/services';
import { NegotiationNumbers, negotiationSentences } from '../components/negotiation/NegotiationNumbers';
import { encodeAdvertiseJson } from '../lib/protocol/advertise';
import { ratioToDecimal } from '../lib/protocol/analytics';
import { FIGURE_KEYS, FIGURES } from '../lib/protocol/analytics-defs';
import { encodeCanonical } from '../lib/protocol/cbor';
import { publicKeyFromSeed } from '../lib/protocol/crypto';
import { buildEnvelope } from '../lib/protocol/envelope';
import { toHex } from '../lib/protocol/hex';
import { encodeNeg1, encodeNegCommit, encodeNegReveal, makeReservationCommitment } from '../lib/protocol/neg1';
import { encodeFeedback, encodeNotarizeBid } from '../lib/protocol/payloads';
import { GEN_BUYER, GEN_SELLER, type GenSpec, generateNegotiation } from '../lib/protocol/testing';
import { MsgType } from '../lib/protocol/types';
import type { ConversationDetail, StoredEnvelope } from '../lib/store';
import type { HaggleEventInput } from '../lib/store/chain';
import { openStore } from '../lib/store/index';
import { type NegotiationView, NegotiationViewSchema } from '../lib/wire';
import { base58, shortHex } from '../lib/wire/format';

const A = new Uint8Array(32).fill(0xaa),
  B = new Uint8Array(32).fill(0xbb),
  N = new Uint8Array(32).fill(0xcc),
  N2 = new Uint8Array(32).fill(0xdd);
const conv = new Uint8Array(16).fill(7);
const saltA = new Uint8Array(32).fill(1),
  saltB = new Uint8Array(32).fill(2);
let seq = 0n;
function env(msgType: number, from: Uint8Array, to: Uint8Array, payload: Uint8Array): StoredEnvelope {
  seq++;
  const b = buildEnvelope(
    {
      msgType,
      sender: from,
      recipient: to,
      timestamp: 1_790_000_000_000_000n + seq * 1_000_000n,
      nonce: seq,
      conversationId: conv,
      payload,
    },
    new Uint8Array(32).fill(from[0] & 0x7f),
  );
  return {
    id: b.id,
    seq,
    envelope: b.envelope,
    raw: b.bytes,
    source: 'stream',
    topic: null,
    receivedAt: new Date(),
    epoch: 0,
  };
}
const offer = (price: number, round: number, reason = 0) =>
  encodeNeg1({
    bidValue: BigInt(price),
    tokenMint: new Uint8Array(32),
    serviceHash: new Uint8Array(32),
    round,
    deadline: 1_790_000_100n,
    decayBps: 100,
    maxRounds: 8,
    verification: { tier: 2, testSuiteHash: new Uint8Array(0) },
    reason,
    metadata: new Uint8Array(0),
  });
const detail = (envelopes: StoredEnvelope[]): ConversationDetail => ({
  id: conv,
  participants: [A, B],
  firstSeen: new Date(),
  lastSeen: new Date(),
  state: 'completed',
  messageCount: envelopes.length,
  lastType: 0,
  outcome: 'agreed',
  envelopes,
  feedback: [],
  notaryBids: envelopes
    .filter((e) => e.envelope.msgType === MsgType.NOTARIZE_BID)
    .map((e) => ({
      envelopeId: e.id,
      conversationId: conv,
      bidder: e.envelope.sender,
      recipient: e.envelope.recipient,
      bidType: 1,
      terms: new Uint8Array(0),
      timestamp: e.envelope.timestamp,
    })),
});
const valid = (v: NegotiationView) => assert.deepEqual(NegotiationViewSchema.parse(v), v);

test(
  'a sealed-bid deal: roles from DELIVER, ZOPA, Nash, ' +
    'Rubinstein, surplus exact; notaries and bidders are not parties',
  () => {
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
      env(
        MsgType.NOTARIZE_BID,
        A,
        new Uint8Array(32),
        encodeNotarizeBid({ bidType: 0, conversationId: conv, terms: encodeCanonical([1n]) }),
      ),
      env(
        MsgType.NOTARIZE_BID,
        N,
        new Uint8Array(32),
        encodeNotarizeBid({ bidType: 1, conversationId: conv, terms: encodeCanonical([50_000n]) }),
      ),
      env(
        MsgType.NOTARIZE_BID,
        N2,
        new Uint8Array(32),
        encodeNotarizeBid({ bidType: 1, conversationId: conv, terms: encodeCanonical([60_000n]) }),
      ),
      env(MsgType.NOTARIZE_ASSIGN, A, N, encodeCanonical([A, B, 50_000n])),
      env(MsgType.VERDICT, N, A, encodeCanonical([1, 90])),
      env(
        MsgType.FEEDBACK,
        A,
        B,
        encodeFeedback({ conversationId: conv, targetAgent: B, score: 80, outcome: 2, isDispute: false, role: 0 }),
      ),
    ];
    const v = negotiationView(detail(envs));
    valid(v);
    const [a, b, n, n2] = [A, B, N, N2].map(toHex);
    assert.deepEqual([v.parties, v.notaries, v.bidders], [[a, b], [n], [n2]]);
    assert.deepEqual(v.roles, { buyer: a, seller: b, sources: ['deliver'], ignored: [] });
    assert.equal(v.outcome, 'agreed');
    assert.deepEqual(v.zopa, {
      exists: true,
      buyerReservation: '2000000',
      sellerReservation: '1000000',
      width: '1000000',
    });
    assert.deepEqual(v.nash, { price: '1500000', distance: '100000', relativeDistance: 0.1 });
    assert.deepEqual(v.surplus, { buyer: '400000', seller: '600000', buyerShare: 0.4, sellerShare: 0.6 });
    // δ = 0.99 on both sides, the buyer moves first: price = 2.0M − (100/199)·1.0M, exact to 6 places.
    assert.equal(v.rubinstein?.price, ratioToDecimal({ num: 2_000_000n * 199n - 100n * 1_000_000n, den: 199n }));
    assert.equal(v.rubinstein?.shareExact, '100/199');
    assert.equal(v.rubinstein?.firstMover, a);
    assert.equal(v.escrowBurned, null);
    assert.deepEqual(Object.keys(v.unknown), ['escrowBurned', 'curve']);
    assert.deepEqual(
      v.sides.map((s) => [s.role, s.offers.length, s.concessions, s.movement]),
      [
        ['buyer', 3, ['200000', '200000'], 'conceding'],
        ['seller', 3, ['200000', '200000'], 'conceding'],
      ],
    );
    assert.equal(v.sides[0].curve, null, 'three offers are too few to fit');
    const texts = v.timeline.map((t) => `${t.type}: ${t.text}`);
    assert.match(texts[2], /reveals its reservation price 2,000,000 units/);
    assert.match(texts[10], /accepts at 1,600,000 units; verification tier 2/);
    assert.match(texts[13], /bids to notarise for 50,000 units/);
    assert.ok(texts[15].includes(`awards the notary auction to ${shortHex(base58('cc'.repeat(32)), 5, 4)}`), texts[15]);
    const words = negotiationSentences(v).join(' ');
    assert.match(words, /Agreed at 1,600,000 units after 6 offers/);
    assert.match(words, /Surplus split: buyer 400,000 units \(40\.0%\), seller 600,000 units \(60\.0%\)/);
    assert.match(words, /Roles from DELIVER \(the party that delivers is the seller\)/);
    assert.match(words, /No escrow on chain, so nothing was burned/);
    // The page explains each figure with the definitions docs/analytics.md is generated from.
    const html = renderToStaticMarkup(createElement(NegotiationNumbers, { v }));
    const esc = (t: string) =>
      t
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#x27;');
    for (const k of ['roles', 'zopa', 'nash', 'surplus', 'rubinstein', 'escrowBurned', 'curve'] as const) {
      assert.ok(html.includes(`title="${esc(FIGURES[k].what)}" data-figure="${k}"`), `tooltip of ${k}`);
    }
    for (const k of FIGURE_KEYS) assert.ok(html.includes(esc(FIGURES[k].undefinedWhen)), `legend of ${k}`);
  },
);

test('reveals without commitments are "no commitment", never "commitments match", and feed no figure', () => {
  const envs = [
    env(MsgType.PROPOSE, A, B, encodeNegReveal({ price: 1_000_000n, salt: saltA })),
    env(MsgType.COUNTER, B, A, encodeNegReveal({ price: 1_500_000n, salt: saltB })),
    env(MsgType.PROPOSE, A, B, offer(800_000, 0)),
    env(MsgType.COUNTER, B, A, offer(1_700_000, 1)),
    env(MsgType.REJECT, A, B, offer(800_000, 2, 4)),
  ];
  const v = negotiationView(detail(envs));
  valid(v);
  assert.equal(v.outcome, 'rejected');
  assert.equal(v.rejectReason, 'price');
  assert.deepEqual(
    v.reservations.map((r) => r.status),
    ['no commitment', 'no commitment'],
  );
  assert.deepEqual([v.zopa, v.nash, v.rubinstein, v.surplus], [null, null, null, null]);
  assert.equal(v.roles.buyer, null);
  assert.equal(v.timeline[4].tone, 'bad');
  const words = negotiationSentences(v).join(' ');
  assert.doesNotMatch(words, /match their reveals/);
  assert.match(words, /no commitment: revealed without an earlier sealed commitment/);
  assert.match(words, /Roles unknown/);
  assert.match(words, /ZOPA unknown: roles unknown/);
});

// ---- Through the store, as the API route reads it -------------------------------------------

const M = 1_000_000n;
const ev = (
  conversationId: Uint8Array,
  slot: bigint,
  kind: HaggleEventInput['kind'],
  over: Partial<HaggleEventInput> = {},
): HaggleEventInput => ({
  signature: `sig-${slot}`,
  index: 0,
  slot,
  at: null,
  negotiation: 'Neg1111111111111111111111111111111111111111',
  conversationId,
  kind,
  side: null,
  round: null,
  amount: null,
  decay: null,
  escrow: null,
  status: null,
  data: {},
  ...over,
});

async function withStore(
  f: (o: Pick<Services, 'reads'>, store: Awaited<ReturnType<typeof openStore>>) => Promise<void>,
) {
  const store = await openStore({ dataDir: ':memory:' });
  try {
    for (const id of [GEN_BUYER, GEN_SELLER])
      await store.registerSignerKey({ agentId: id, publicKey: publicKeyFromSeed(id) });
    await f({ reads: store } as unknown as Pick<Services, 'reads'>, store);
  } finally {
    await store.close();
  }
}
const ingest = (
  store: Awaited<ReturnType<typeof openStore>>,
  built: { id: Uint8Array; envelope: StoredEnvelope['envelope']; bytes: Uint8Array }[],
) =>
  store.ingestEnvelopes(
    built.map((b) => ({
      id: b.id,
      envelope: b.envelope,
      raw: b.bytes,
      source: 'stream' as const,
      receivedAt: new Date(),
    })),
  );

const faratin: GenSpec = {
  buyer: { p0: 500n * M, reservation: 2_000n * M, beta: 3, decayBps: 50, sealed: 'commit' },
  seller: { p0: 3_000n * M, reservation: 1_000n * M, beta: 0.3, decayBps: 50, sealed: 'commit' },
  first: 'seller',
  offersEach: 5,
};

test(
  'API view from the store: roles from the Haggle account (wallets ' +
    'matched by signed offers), escrow burned from the chain, β recovered',
  async () => {
    await withStore(async (o, store) => {
      const g = generateNegotiation(faratin);
      await ingest(store, g.messages);
      // The on-chain mirror: the buyer's and seller's wallets are not their agent ids; each NEG1 offer signed on chain.
      const gossip = g.messages.filter(
        (m) => (m.msgType === MsgType.PROPOSE || m.msgType === MsgType.COUNTER) && m.envelope.payload[3] === 0x31,
      ); // 'NEG1'
      let escrow = 2_000n * M * 2n,
        decayed = 0n;
      const events: HaggleEventInput[] = [
        ev(g.conversationId, 9n, 'created', {
          status: 'created',
          amount: escrow,
          escrow,
          created: {
            buyer: 'BuyerWa11et1111111111111111111111111111111',
            seller: 'Se11erWa11et111111111111111111111111111111',
            deposit: escrow,
            deadline: 0n,
            responseWindow: 60,
            decayBps: 50,
            minOfferBps: 0,
            protocolFeeBps: 0,
            maxRounds: 20,
            zopaDetection: true,
          },
        }),
      ];
      gossip.forEach((m, k) => {
        const d = (escrow * 50n) / 10_000n;
        escrow -= d;
        decayed += d;
        const amount = g.offers[m.senderRole][Math.floor(k / 2)];
        events.push(
          ev(g.conversationId, 10n + BigInt(k), 'offer', {
            signature: `sig-o${k}`,
            side: m.senderRole === 'buyer' ? 1 : 2,
            round: k + 1,
            amount,
            decay: d,
            escrow,
            status: 'proposed',
            set: { rounds: k + 1, currentOffer: amount, escrow },
          }),
        );
      });
      await store.applyHaggleEvents(events);
      const r = await loadNegotiation(o, g.conversationId);
      assert.ok(r);
      const v = r.view;
      valid(v);
      assert.deepEqual(v.roles, {
        buyer: toHex(GEN_BUYER),
        seller: toHex(GEN_SELLER),
        sources: ['haggle'],
        ignored: [],
      });
      assert.deepEqual(v.escrowBurned, {
        deposit: (4_000n * M).toString(),
        burned: decayed.toString(),
        decayBps: 50,
        rounds: 10,
      });
      assert.deepEqual(v.token, { mint: null, decimals: 6, symbol: 'USDC' });
      const [sb, ss] = [v.sides.find((s) => s.role === 'buyer')!, v.sides.find((s) => s.role === 'seller')!];
      assert.ok(Math.abs(Math.log(sb.curve!.beta / 3)) <= Math.log(1.1), `buyer β ${sb.curve!.beta}`);
      assert.ok(Math.abs(Math.log(ss.curve!.beta / 0.3)) <= Math.log(1.1), `seller β ${ss.curve!.beta}`);
      assert.deepEqual([sb.curve!.class, ss.curve!.class], ['conceder', 'boulware']);
      assert.deepEqual(v.zopa, {
        exists: true,
        buyerReservation: (2_000n * M).toString(),
        sellerReservation: (1_000n * M).toString(),
        width: (1_000n * M).toString(),
      });
      assert.equal(v.nash?.price, (1_500n * M).toString());
      assert.equal(v.surplus?.buyer, (2_000n * M - g.deal!).toString());
      // δ = 0.995 both, the seller first: r_s + (50/(10⁸/10⁴ …)) exact: 1/(1+δ) of the width.
      assert.equal(v.rubinstein?.price, ratioToDecimal({ num: 1_000n * M * 399n + 200n * 1_000n * M, den: 399n }));
      assert.deepEqual(Object.keys(v.unknown), []);
      assert.match(
        v.timeline.find((t) => t.type === 'ACCEPT')!.text,
        /accepts at [\d,.]+ USDC/,
        "the timeline speaks the view's token",
      );
      assert.match(
        negotiationSentences(v).join(' '),
        /Escrow burned by decay on chain: [\d,.]+ USDC of the 4,000 USDC deposited, over 10 on-chain rounds/,
      );
    });
  },
);

test(
  'API view from the store: ADVERTISE beats DISCOVER; ' + 'with neither, roles and their figures are unknown',
  async () => {
    await withStore(async (o, store) => {
      const g = generateNegotiation({ ...faratin, conversation: 2 });
      await ingest(store, g.messages);
      const none = (await loadNegotiation(o, g.conversationId))!.view;
      valid(none);
      assert.deepEqual(
        [none.roles.buyer, none.roles.seller, none.zopa, none.nash, none.surplus, none.rubinstein],
        [null, null, null, null, null, null],
      );
      assert.deepEqual(Object.keys(none.unknown).sort(), [
        'concessions',
        'curve',
        'escrowBurned',
        'nash',
        'nashDistance',
        'roles',
        'rubinstein',
        'surplus',
        'zopa',
      ]);
      assert.ok(none.sides.every((s) => s.concessions === null && s.curve !== null && s.curve.class === null));
      // A DISCOVER by the seller before the negotiation: alone, it makes the seller the buyer…
      const start = g.messages[0].envelope.timestamp;
      const bcast = (from: Uint8Array, type: number, payload: Uint8Array, at: bigint, nonce: bigint) =>
        buildEnvelope(
          {
            msgType: type,
            sender: from,
            recipient: new Uint8Array(32),
            timestamp: at,
            nonce,
            conversationId: new Uint8Array(16),
            payload,
          },
          from,
        );
      await ingest(store, [bcast(GEN_SELLER, MsgType.DISCOVER, new Uint8Array(32), start - 5_000_000n, 100n)]);
      const disc = (await loadNegotiation(o, g.conversationId))!.view;
      assert.deepEqual(
        [disc.roles.buyer, disc.roles.seller, disc.roles.sources],
        [toHex(GEN_SELLER), toHex(GEN_BUYER), ['discover']],
      );
      // …and its ADVERTISE as seller, a stronger source, overrules it.
      await ingest(store, [
        bcast(
          GEN_SELLER,
          MsgType.ADVERTISE,
          encodeAdvertiseJson({ role: 'seller', service: 'x' }),
          start - 4_000_000n,
          101n,
        ),
      ]);
      const v = (await loadNegotiation(o, g.conversationId))!.view;
      valid(v);
      assert.deepEqual(
        [v.roles.buyer, v.roles.seller, v.roles.sources],
        [toHex(GEN_BUYER), toHex(GEN_SELLER), ['advertise']],
      );
      assert.equal(v.zopa?.exists, true);
    });
  },
);

// ---- The edge cases through the view the API returns ------------------------------------------

const viewOf = (spec: GenSpec) => {
  const g = generateNegotiation(spec);
  const envelopes: StoredEnvelope[] = g.messages.map((m, i) => ({
    id: m.id,
    seq: BigInt(i + 1),
    envelope: m.envelope,
    raw: m.bytes,
    source: 'stream',
    topic: null,
    receivedAt: new Date(),
    epoch: 0,
  }));
  const v = negotiationView({ ...detail(envelopes), id: g.conversationId });
  valid(v);
  return { g, v };
};
const byRole = (v: NegotiationView, role: 'buyer' | 'seller') => v.sides.find((s) => s.role === role)!;

test('edge cases in the API view: exact strings, unknown exactly where the definitions say', () => {
  const big = 140_000_000_000_000_000_000_000_000_000_000_000_000n;
  const u64 = 15_223_372_036_854_775_808n;
  const cases: {
    name: string;
    spec: GenSpec;
    check: (v: NegotiationView, g: ReturnType<typeof generateNegotiation>) => void;
  }[] = [
    {
      name: 'one offer then ACCEPT',
      spec: {
        buyer: { p0: 0n, reservation: 2_000n, beta: 1, sealed: 'commit' },
        seller: { p0: 1_200n, reservation: 1_000n, beta: 1, sealed: 'commit' },
        first: 'seller',
        offersEach: 0,
        extraFirst: true,
        deliver: true,
      },
      check: (v) => {
        assert.equal(v.roles.seller, toHex(GEN_SELLER));
        assert.equal(v.nash?.price, '1500');
        assert.equal(byRole(v, 'seller').movement, 'single offer');
        assert.match(byRole(v, 'seller').unknown.fit, /too few offers/);
      },
    },
    {
      name: 'buyer opens high',
      spec: {
        buyer: { p0: 0n, reservation: 2_000_000n, beta: 1, prices: [1_600_000n], sealed: 'commit' },
        seller: { p0: 0n, reservation: 1_400_000n, beta: 1, prices: [1_500_000n], sealed: 'commit' },
        first: 'buyer',
        offersEach: 1,
        acceptPrice: 1_550_000n,
        deliver: true,
      },
      check: (v) => {
        assert.equal(v.roles.buyer, toHex(GEN_BUYER));
        assert.deepEqual(v.zopa, {
          exists: true,
          buyerReservation: '2000000',
          sellerReservation: '1400000',
          width: '600000',
        });
        assert.equal(v.nash?.price, '1700000');
      },
    },
    {
      name: 'identical offers',
      spec: {
        buyer: { p0: 0n, reservation: 0n, beta: 1, prices: [700n, 700n, 700n, 700n] },
        seller: { p0: 0n, reservation: 0n, beta: 1, prices: [900n, 850n, 800n, 750n] },
        first: 'buyer',
        offersEach: 4,
        deliver: true,
      },
      check: (v) => {
        assert.equal(byRole(v, 'buyer').movement, 'no movement');
        assert.equal(byRole(v, 'buyer').curve, null);
      },
    },
    {
      name: 'zig-zag',
      spec: {
        buyer: { p0: 0n, reservation: 0n, beta: 1, prices: [100n, 300n, 150n, 320n, 200n] },
        seller: { p0: 0n, reservation: 0n, beta: 1, prices: [900n, 850n, 800n, 750n, 700n] },
        first: 'buyer',
        offersEach: 5,
        deliver: true,
      },
      check: (v) => {
        const b = byRole(v, 'buyer');
        assert.equal(b.movement, 'zig-zag');
        assert.equal(b.curve?.class, null);
        assert.ok(b.curve!.relativeRmse > 0.05);
        assert.match(negotiationSentences(v).join(' '), /zig-zag/);
        assert.doesNotMatch(negotiationSentences(v).join(' '), /conceded early/);
      },
    },
    {
      name: 'moving away',
      spec: {
        buyer: { p0: 0n, reservation: 0n, beta: 1, prices: [500n, 400n, 300n, 200n] },
        seller: { p0: 0n, reservation: 0n, beta: 1, prices: [900n, 850n, 800n, 750n] },
        first: 'buyer',
        offersEach: 4,
        deliver: true,
      },
      check: (v) => {
        assert.equal(byRole(v, 'buyer').movement, 'moving away');
        assert.equal(byRole(v, 'buyer').curve?.class, null);
        assert.deepEqual(byRole(v, 'buyer').concessions, ['-100', '-100', '-100']);
      },
    },
    {
      name: 'zero-width ZOPA',
      spec: {
        buyer: { p0: 0n, reservation: 1_000_000n, beta: 1, prices: [800_000n], sealed: 'commit' },
        seller: { p0: 0n, reservation: 1_000_000n, beta: 1, prices: [1_400_000n], sealed: 'commit' },
        first: 'buyer',
        offersEach: 1,
        acceptPrice: 1_200_000n,
        deliver: true,
      },
      check: (v) => {
        assert.deepEqual(v.nash, { price: '1000000', distance: '200000', relativeDistance: null });
        assert.match(negotiationSentences(v).join(' '), /200,000 units from it \(no share: the ZOPA has zero width\)/);
        assert.match(v.unknown.nashDistance!, /zero width/);
        // Off the ZOPA's one point: said with its distance, never as a share.
        assert.equal(v.outsideZopaBy, '200000');
        assert.match(
          negotiationSentences(v).join(' '),
          /outside the ZOPA by 200,000 units: the buyer paid 200,000 units above its reservation/,
        );
        assert.doesNotMatch(negotiationSentences(v).join(' '), /Surplus split/);
      },
    },
    {
      name: 'NEGR without NEGC',
      spec: {
        buyer: { p0: 500n, reservation: 2_000n, beta: 1, sealed: 'reveal-only' },
        seller: { p0: 3_000n, reservation: 1_000n, beta: 1, sealed: 'reveal-only' },
        first: 'buyer',
        offersEach: 2,
        deliver: true,
      },
      check: (v) => {
        assert.deepEqual(
          v.reservations.map((r) => r.status),
          ['no commitment', 'no commitment'],
        );
        assert.equal(v.zopa, null);
        assert.doesNotMatch(negotiationSentences(v).join(' '), /commitments match/);
      },
    },
    {
      name: 'failed reveal',
      spec: {
        buyer: { p0: 500n, reservation: 2_000n, beta: 1, sealed: 'bad-reveal' },
        seller: { p0: 3_000n, reservation: 1_000n, beta: 1, sealed: 'commit' },
        first: 'buyer',
        offersEach: 2,
        deliver: true,
      },
      check: (v) => {
        assert.equal(v.reservations[0].status, 'mismatch');
        assert.deepEqual([v.zopa, v.nash, v.surplus, v.rubinstein], [null, null, null, null]);
      },
    },
    {
      name: 'int128 prices',
      spec: {
        buyer: { p0: big / 2n, reservation: big, beta: 2, sealed: 'commit' },
        seller: { p0: big + big / 5n, reservation: big - big / 4n, beta: 0.5, sealed: 'commit' },
        first: 'buyer',
        offersEach: 4,
        deliver: true,
      },
      check: (v, g) => {
        assert.deepEqual(byRole(v, 'buyer').offers, g.offers.buyer.map(String));
        assert.equal(v.zopa?.width, (big / 4n).toString());
        assert.equal(v.deal?.price, g.deal!.toString());
        assert.doesNotMatch(negotiationSentences(v).join(' '), /—|e\+/);
      },
    },
    {
      name: 'u64 prices',
      spec: {
        buyer: { p0: 0n, reservation: u64 + 10n, beta: 1, prices: [u64 - 2n], sealed: 'commit' },
        seller: { p0: 0n, reservation: u64 - 10n, beta: 1, prices: [u64 + 3n], sealed: 'commit' },
        first: 'buyer',
        offersEach: 1,
        acceptPrice: u64 + 1n,
        deliver: true,
      },
      check: (v) => {
        assert.equal(v.deal?.price, '15223372036854775809');
        assert.equal(v.nash?.price, '15223372036854775808');
        assert.match(negotiationSentences(v).join(' '), /15,223,372,036,854,775,809 units/);
      },
    },
    {
      name: 'negative prices',
      spec: {
        buyer: { p0: 0n, reservation: -1_000n, beta: 1, prices: [-3_000n, -2_000n], sealed: 'commit' },
        seller: { p0: 0n, reservation: -2_375_000n, beta: 1, prices: [-1_000n, -1_500n], sealed: 'commit' },
        first: 'buyer',
        offersEach: 2,
        deliver: true,
      },
      check: (v) => {
        assert.equal(v.zopa, null);
        assert.match(v.unknown.zopa!, /negative/);
        assert.doesNotMatch(negotiationSentences(v).join(' '), /escrow cost|burned by decay on chain/);
      },
    },
    {
      name: 'same-millisecond offers',
      spec: {
        buyer: { p0: 500_000n, reservation: 2_000_000n, beta: 2, decayBps: 50, sealed: 'commit' },
        seller: { p0: 3_000_000n, reservation: 1_000_000n, beta: 0.5, decayBps: 50, sealed: 'commit' },
        first: 'buyer',
        offersEach: 5,
        sameMs: true,
        deliver: true,
      },
      check: (v, g) => {
        assert.deepEqual(byRole(v, 'seller').offers, g.offers.seller.map(String));
        assert.deepEqual([byRole(v, 'buyer').curve?.class, byRole(v, 'seller').curve?.class], ['conceder', 'boulware']);
      },
    },
  ];
  for (const c of cases) {
    const { g, v } = viewOf(c.spec);
    try {
      c.check(v, g);
    } catch (e) {
      throw new Error(`${c.name}: ${(e as Error).message}`);
    }
  }
});

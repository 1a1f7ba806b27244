// Collusion signals on a real store: a ring of three agents rating each other without a deal, a
// sybil with no deals rating an honest agent, and honest agents whose deals carry their feedback
// and their notaries. Every figure is checked exactly, and the honest agents must not be flagged.
import assert from 'node:assert/strict';
import { buildEnvelope } from '../../protocol/envelope';
import { toHex } from '../../protocol/hex';
import { encodeFeedback } from '../../protocol/payloads';
import { MsgType } from '../../protocol/types';
import { testOnEachStore } from '../backends-testing';
import type { Store } from '../index';
import type { IngestItem } from '../types';

const T = 1_790_000_000_000_000n;
const S = 1_000_000n;
const id = (b: number) => new Uint8Array(32).fill(b);
const conv = (n: number) => {
  const c = new Uint8Array(16);
  c[0] = 0xc0;
  c[15] = n;
  return c;
};
const BROADCAST = new Uint8Array(32);
const [H1, H2, H3, H4] = [0x11, 0x12, 0x13, 0x14].map(id);
const [R1, R2, R3] = [0x21, 0x22, 0x23].map(id);
const [N, M, SYBIL] = [0x31, 0x32, 0x41].map(id);
const NAME = new Map(
  [H1, H2, H3, H4, R1, R2, R3, N, M, SYBIL].map((a, i) => [
    toHex(a),
    ['H1', 'H2', 'H3', 'H4', 'R1', 'R2', 'R3', 'N', 'M', 'SYBIL'][i],
  ]),
);
const name = (a: Uint8Array) => NAME.get(toHex(a)) ?? toHex(a);

let nonce = 0n;
function env(
  msgType: number,
  from: Uint8Array,
  to: Uint8Array,
  c: Uint8Array,
  at: bigint,
  payload: Uint8Array = new Uint8Array([1]),
): IngestItem {
  nonce++;
  const b = buildEnvelope(
    { msgType, sender: from, recipient: to, timestamp: T + at, nonce, conversationId: c, payload },
    new Uint8Array(32).fill(from[0]),
  );
  return { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'stream', receivedAt: new Date() };
}
function feedback(from: Uint8Array, target: Uint8Array, score: number, c: Uint8Array, at: bigint): IngestItem {
  return env(
    MsgType.FEEDBACK,
    from,
    BROADCAST,
    c,
    at,
    encodeFeedback({ conversationId: c, targetAgent: target, score, outcome: 2, isDispute: false, role: 0 }),
  );
}
/** A deal: PROPOSE and ACCEPT between buyer and seller, optionally a notary assigned by the buyer. */
function deal(buyer: Uint8Array, seller: Uint8Array, c: Uint8Array, at: bigint, notary?: Uint8Array): IngestItem[] {
  const out = [env(MsgType.PROPOSE, buyer, seller, c, at), env(MsgType.ACCEPT, seller, buyer, c, at + S)];
  if (notary) out.push(env(MsgType.NOTARIZE_ASSIGN, buyer, notary, c, at + 2n * S));
  return out;
}

const ringItems: IngestItem[] = [];
let ringConv = 100;
const ring = (from: Uint8Array, target: Uint8Array, score: number, at: bigint) =>
  ringItems.push(feedback(from, target, score, conv(ringConv++), at * S));
ring(R1, R2, 95, 0n);
ring(R1, R2, 95, 100n);
ring(R2, R1, 90, 10n);
ring(R2, R1, 100, 130n);
ring(R1, R3, 95, 200n);
ring(R3, R1, 99, 205n);
ring(R2, R3, 97, 300n);
ring(R3, R2, 98, 320n);

const [d1, d2, d3, d4, d5, d6, u1, u2, s1] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(conv);
const honest: IngestItem[] = [
  ...deal(H1, H2, d1, 1000n * S, N),
  feedback(H1, H2, 80, d1, 1010n * S),
  feedback(H2, H1, 70, d1, 1011n * S),
  ...deal(H1, H2, d2, 1100n * S, N),
  ...deal(H2, H1, d3, 1200n * S, N),
  ...deal(H3, H1, d4, 1300n * S),
  ...deal(H3, H4, d5, 1400n * S, N),
  feedback(H3, H4, 60, d5, 1410n * S),
  feedback(H4, H3, 65, d5, 1412n * S),
  ...deal(H4, H3, d6, 1500n * S, M),
  // The notary of u1 is unknown (a broadcast assignment), the pair of u2 (nobody negotiated there).
  env(MsgType.NOTARIZE_ASSIGN, H1, BROADCAST, u1, 1600n * S),
  env(MsgType.NOTARIZE_ASSIGN, H3, N, u2, 1700n * S),
  feedback(SYBIL, H1, 100, s1, 1800n * S),
];

async function load(store: Store, inTimeOrder = false) {
  // Shuffled into small batches: the figures may not depend on arrival order. A window is the
  // latest envelopes stored, so the window test stores them in time order.
  const all = [...ringItems, ...honest];
  for (let i = all.length - 1; i > 0; i--) {
    const j = (i * 7919 + 13) % (i + 1);
    [all[i], all[j]] = [all[j], all[i]];
  }
  if (inTimeOrder)
    all.sort((a, b) =>
      a.envelope.timestamp < b.envelope.timestamp ? -1 : a.envelope.timestamp > b.envelope.timestamp ? 1 : 0,
    );
  for (let i = 0; i < all.length; i += 5) await store.ingestEnvelopes(all.slice(i, i + 5));
  await store.upsertStake({ agentId: R1, amount: 10_000_000n, status: 'locked', slot: 5n });
  await store.upsertStake({ agentId: H1, amount: 18_446_744_073_709_551_615n, status: 'unlocking', slot: 6n });
}

testOnEachStore(
  'collusion signals of a feedback ring, a sybil and honest deals, exactly',
  async (store) => {
    await load(store);
    const s = await store.collusionSignals({ window: 1_000 });

    assert.deepEqual(s.windows.feedback, { limit: 1_000, read: 13, truncated: false, oldest: T });
    assert.equal(s.windows.assignments.read, 7);
    assert.equal(s.windows.assignments.truncated, false);
    assert.equal(s.windows.conversations.read, 8 + 9);

    // Reciprocal feedback: the ring first (two counterparts each, none backed by a deal).
    assert.deepEqual(
      s.reciprocal.map((r) => [
        name(r.agent),
        r.counterparts,
        r.counterpartsWithoutDeal,
        r.given,
        r.received,
        r.givenScoreSum,
        r.receivedScoreSum,
        r.medianGapUs,
      ]),
      [
        ['R1', 2, 2, 3, 3, 285, 289, 10n * S],
        ['R2', 2, 2, 3, 3, 287, 288, 20n * S],
        ['R3', 2, 2, 2, 2, 197, 192, 5n * S],
        ['H1', 1, 0, 1, 1, 80, 70, 1n * S],
        ['H2', 1, 0, 1, 1, 70, 80, 1n * S],
        ['H3', 1, 0, 1, 1, 60, 65, 2n * S],
        ['H4', 1, 0, 1, 1, 65, 60, 2n * S],
      ],
    );
    const r1 = s.reciprocal[0];
    assert.deepEqual(
      r1.pairs.map((p) => [name(p.counterpart), p.given, p.received, p.givenWithoutDeal, p.receivedWithoutDeal]),
      [
        ['R2', 2, 2, 2, 2],
        ['R3', 1, 1, 1, 1],
      ],
    );
    assert.equal(toHex(r1.pairs[0].latestGiven), toHex(ringItems[1].id), 'the latest R1 → R2 feedback envelope');
    assert.equal(toHex(r1.pairs[0].latestReceived), toHex(ringItems[3].id), 'the latest R2 → R1 feedback envelope');
    for (const h of s.reciprocal.filter((r) => name(r.agent).startsWith('H')))
      assert.equal(h.counterpartsWithoutDeal, 0, `${name(h.agent)}'s reciprocal feedback is backed by deals`);

    // Concentration: H2 dealt only with H1; H4's two deals are too few for a figure.
    assert.deepEqual(
      s.concentration.map((r) => [
        name(r.agent),
        r.deals,
        r.counterparties,
        r.squares,
        name(r.topCounterparty),
        r.topDeals,
        toHex(r.latestDeal),
      ]),
      [
        ['H2', 3, 1, 9, 'H1', 3, toHex(d3)],
        ['H1', 4, 2, 10, 'H2', 3, toHex(d3)],
        ['H3', 3, 2, 5, 'H4', 2, toHex(d6)],
        ['H4', 2, 1, 4, 'H3', 2, toHex(d6)],
      ],
    );

    // Notary reuse: H1 and H2 had N in all three conversations; H3 and H4 in one of two.
    assert.deepEqual(
      s.notaryReuse.map((r) => [
        r.agents.map(name),
        r.assigned,
        r.distinctNotaries,
        name(r.notary),
        r.sameNotary,
        r.conversations.map(toHex),
      ]),
      [
        [['H1', 'H2'], 3, 1, 'N', 3, [d3, d2, d1].map(toHex)],
        [['H3', 'H4'], 2, 2, 'N', 1, [toHex(d5)]],
      ],
    );
    assert.deepEqual(s.notaryUnknown, { notary: 1, pair: 1 });

    // Feedback from raters with no deal at all: the ring's and the sybil's; never H2's.
    assert.deepEqual(
      s.dealless.map((r) => [name(r.agent), r.received, r.fromDealless, r.raterCount, r.raters.map(name), r.scoreSum]),
      [
        ['R1', 3, 3, 2, ['R2', 'R3'], 289],
        ['R2', 3, 3, 2, ['R1', 'R3'], 288],
        ['R3', 2, 2, 2, ['R1', 'R2'], 192],
        ['H1', 2, 1, 1, ['SYBIL'], 100],
      ],
    );
    assert.deepEqual(s.dealless[3].latest.map(toHex), [toHex(honest[honest.length - 1].id)]);
    assert.ok(
      !s.dealless.some((r) => name(r.agent) === 'H2'),
      'an honest agent rated only by dealing agents is not flagged',
    );

    // Stake beside them, exact.
    assert.deepEqual(s.stakes.map((x) => [name(x.agent), x.amount, x.status]).sort(), [
      ['H1', 18_446_744_073_709_551_615n, 'unlocking'],
      ['R1', 10_000_000n, 'locked'],
    ]);
  },
  { dbPrefix: 'collusion' },
);

testOnEachStore(
  'collusion signals of one agent, and a window that leaves older rows out',
  async (store) => {
    await load(store, true);
    const one = await store.collusionSignals({ agent: H3 });
    assert.deepEqual(
      one.reciprocal.map((r) => name(r.agent)),
      ['H3'],
    );
    assert.deepEqual(
      one.concentration.map((r) => name(r.agent)),
      ['H3'],
    );
    assert.deepEqual(
      one.notaryReuse.map((r) => r.agents.map(name)),
      [['H3', 'H4']],
    );
    assert.deepEqual(one.dealless, []);
    assert.deepEqual(
      (await store.collusionSignals({ agent: N })).notaryReuse.map((r) => r.agents.map(name)),
      [
        ['H1', 'H2'],
        ['H3', 'H4'],
      ],
      'the reused notary finds its pairs',
    );

    // The latest three feedback envelopes stored (here also the newest by time): the sybil's and the H3/H4 pair's.
    const w = await store.collusionSignals({ window: 3, limit: 2 });
    assert.deepEqual(w.windows.feedback, { limit: 3, read: 3, truncated: true, oldest: T + 1410n * S });
    assert.deepEqual(
      w.reciprocal.map((r) => name(r.agent)),
      ['H3', 'H4'],
    );
    assert.deepEqual(
      w.dealless.map((r) => [name(r.agent), r.fromDealless]),
      [['H1', 1]],
    );
    assert.equal(w.reciprocal.length, 2, 'limit');
    await assert.rejects(store.collusionSignals({ window: 0 }), RangeError);
  },
  { dbPrefix: 'collusion' },
);

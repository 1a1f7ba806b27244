// The haggle tables on their own: transitions come back in slot order as numbers (9 before 10,
// not as text), the latest negotiations newest first, an event applied twice changes nothing, and
// an event of a negotiation never seen created is skipped; the dataset's read of many
// conversations at once. PGlite.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../index';
import { rawDb } from '../testing';
import { type HaggleEventInput, onChainNegotiationsOf } from './haggle';

const conv = new Uint8Array(16).fill(7);
const ev = (slot: bigint, kind: HaggleEventInput['kind'], over: Partial<HaggleEventInput> = {}): HaggleEventInput => ({
  signature: `sig-${slot}`,
  index: 0,
  slot,
  at: null,
  negotiation: 'Neg1111111111111111111111111111111111111111',
  conversationId: conv,
  kind,
  side: null,
  round: null,
  amount: null,
  decay: null,
  escrow: null,
  status: null,
  data: { slot: String(slot) },
  ...over,
});
const created = (slot: bigint, negotiation?: string) =>
  ev(slot, 'created', {
    status: 'created',
    amount: 2000n,
    escrow: 2000n,
    ...(negotiation ? { negotiation } : {}),
    created: {
      buyer: 'B',
      seller: 'S',
      deposit: 2000n,
      deadline: 99n,
      responseWindow: 60,
      decayBps: 50,
      minOfferBps: 0,
      protocolFeeBps: 200,
      maxRounds: 20,
      zopaDetection: false,
    },
  });
const offer = (slot: bigint, round: number, amount: bigint, escrow: bigint) =>
  ev(slot, 'offer', {
    side: 2 - (round % 2),
    round,
    amount,
    decay: 10n,
    escrow,
    status: round % 2 ? 'proposed' : 'countered',
    set: { rounds: round, currentOffer: amount, escrow },
  });

test('slot order is numeric, replays are no-ops, orphans are skipped', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  try {
    const events = [created(9n), offer(10n, 1, 400n, 1990n), offer(100n, 2, 900n, 1980n), offer(1000n, 3, 500n, 1970n)];
    assert.equal(await store.applyHaggleEvents(events), 4);
    assert.equal(await store.applyHaggleEvents(events), 0, 'the same events again');
    assert.equal(
      await store.applyHaggleEvents([ev(5n, 'joined', { negotiation: 'Other11111111111111111111111111111111111111' })]),
      0,
      'no negotiation for it',
    );
    await store.applyHaggleEvents([created(20n, 'Neg2222222222222222222222222222222222222222')]);
    const [n] = await store.onChainNegotiations(conv);
    assert.deepEqual(
      n.transitions.map((t) => [t.slot, t.kind, t.amount]),
      [
        [9n, 'created', 2000n],
        [10n, 'offer', 400n],
        [100n, 'offer', 900n],
        [1000n, 'offer', 500n],
      ],
    );
    assert.deepEqual(
      [n.status, n.rounds, n.currentOffer, n.escrow, n.decayed, n.slot],
      ['proposed', 3, 500n, 1970n, 30n, 1000n],
    );
    assert.deepEqual(
      (await store.recentOnChainNegotiations()).map((x) => x.createdSlot),
      [20n, 9n],
    );
    assert.deepEqual(
      (await store.recentOnChainNegotiations({ status: 'created' })).map((x) => x.createdSlot),
      [20n],
    );
    await assert.rejects(store.recentOnChainNegotiations({ limit: 0 }), /limit must be an integer in 1..500/);
    await assert.rejects(store.onChainNegotiations(new Uint8Array(3)), /conversationId must be 16 bytes/);
  } finally {
    await store.close();
  }
});

test(
  'the negotiations of many conversations in one read: grouped ' +
    'by conversation, oldest first, strangers and bad ids refused',
  async () => {
    const store = await openStore({ dataDir: ':memory:' });
    try {
      const other = new Uint8Array(16).fill(3);
      await store.applyHaggleEvents([created(9n), offer(10n, 1, 400n, 1990n)]);
      await store.applyHaggleEvents([
        { ...created(30n, 'Neg3333333333333333333333333333333333333333'), conversationId: other },
      ]);
      await store.applyHaggleEvents([
        { ...created(40n, 'Neg4444444444444444444444444444444444444444'), conversationId: other },
      ]);
      const rows = await onChainNegotiationsOf(rawDb(store), [conv, other, new Uint8Array(16)]);
      assert.deepEqual(
        rows.map((r) => [Buffer.from(r.conversationId).toString('hex'), r.createdSlot, r.transitions.length]),
        [
          ['03'.repeat(16), 30n, 1],
          ['03'.repeat(16), 40n, 1],
          ['07'.repeat(16), 9n, 2],
        ],
      );
      assert.deepEqual(await onChainNegotiationsOf(rawDb(store), []), []);
      await assert.rejects(
        onChainNegotiationsOf(rawDb(store), [new Uint8Array(15)]),
        /conversationIds must be 16 bytes each/,
      );
    } finally {
      await store.close();
    }
  },
);

// Reputation points (reputation-points.ts): the authoritative fold kept per verified batch equals
// lib/protocol foldBatches over the same batches whatever order the verdicts come in, and the
// gossip fold's points are its state at the end of each epoch, kept right when late feedback
// forces a refold.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { BehaviorBatch, FeedbackEvent } from '../../protocol/batch';
import { buildEnvelope } from '../../protocol/envelope';
import { encodeFeedback } from '../../protocol/payloads';
import {
  applyFeedback,
  batchFoldInput,
  decayAfterBatch,
  emptyReputation,
  foldBatches,
  foldNextBatch,
  type ReputationState,
} from '../../protocol/reputation';
import { MsgType } from '../../protocol/types';
import { testOnEachStore } from '../backends-testing';
import type { IngestItem } from '../types';

const id = (b: number) => new Uint8Array(32).fill(b);
const A = id(0x0a);

function batch(epoch: bigint, evs: Array<[number, number, number]>, disputes = 0n): BehaviorBatch {
  const feedbackEvents: FeedbackEvent[] = evs.map(([score, outcome, role], i) => ({
    // Slots out of order on purpose: the fold sorts them (§7 order).
    conversationId: new Uint8Array(16).fill(i),
    fromAgent: id(i + 1),
    score,
    outcome,
    role,
    slot: BigInt((evs.length - i) * 7),
    satiAttestationHash: new Uint8Array(32),
  }));
  return { epochNumber: epoch, feedbackEvents, disputes } as unknown as BehaviorBatch;
}

const arbBatches = fc.uniqueArray(
  fc.record({
    epoch: fc.bigInt({ min: 0n, max: 60n }),
    evs: fc.array(
      fc.tuple(fc.integer({ min: -100, max: 100 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 1 })),
      { maxLength: 5 },
    ),
    disputes: fc.bigInt({ min: 0n, max: 3n }),
  }),
  { selector: (b) => b.epoch, minLength: 1, maxLength: 12 },
);

test('foldNextBatch, batch after batch, gives foldBatches after each batch and decayAfterBatch gives it later', () => {
  fc.assert(
    fc.property(arbBatches, fc.bigInt({ min: 0n, max: 40n }), (raw, tail) => {
      const bs = raw
        .map((b) => batch(b.epoch, b.evs, b.disputes))
        .sort((a, b) => (a.epochNumber < b.epochNumber ? -1 : 1));
      let s = emptyReputation();
      let prev: bigint | null = null;
      for (const [i, b] of bs.entries()) {
        s = foldNextBatch({ state: s, previousEpoch: prev, epoch: b.epochNumber, ...batchFoldInput(b) });
        prev = b.epochNumber;
        assert.deepEqual(s, foldBatches({ batches: bs.slice(0, i + 1), fromEpoch: 0n, toEpoch: b.epochNumber }));
      }
      const to = prev! + tail;
      assert.deepEqual(decayAfterBatch(s, prev!, to), foldBatches({ batches: bs, fromEpoch: 0n, toEpoch: to }));
    }),
    { numRuns: 300 },
  );
});

const pointsOf = async (
  store: {
    reputationPoints: (
      a: Uint8Array,
      k: 'gossip' | 'batch',
      n: number,
    ) => Promise<{ points: { epoch: bigint; state: ReputationState; folded: number }[] }>;
  },
  kind: 'gossip' | 'batch',
) => (await store.reputationPoints(A, kind, 100)).points;

testOnEachStore(
  "batch points: each verified batch's fold, whatever the " +
    'verdict order; a batch leaving verified refolds those after it',
  async (store) => {
    const bs = [
      batch(10n, [
        [80, 2, 0],
        [-20, 0, 0],
      ]),
      batch(30n, [[50, 1, 1]], 1n),
      batch(20n, [[100, 2, 0]]),
      batch(40n, [
        [-100, 0, 0],
        [10, 2, 0],
      ]),
    ];
    for (const b of bs)
      await store.upsertBatch({
        agentId: A,
        epoch: b.epochNumber,
        batchHash: new Uint8Array(32).fill(1),
        root: new Uint8Array(32).fill(2),
        slot: b.epochNumber,
      });
    const expect = async (verified: BehaviorBatch[]) => {
      const sorted = [...verified].sort((a, b) => (a.epochNumber < b.epochNumber ? -1 : 1));
      const got = await pointsOf(store, 'batch');
      assert.deepEqual(
        got.map((p) => p.epoch),
        sorted.map((b) => b.epochNumber),
      );
      sorted.forEach((b, i) => {
        assert.deepEqual(
          got[i].state,
          foldBatches({ batches: sorted.slice(0, i + 1), fromEpoch: 10n, toEpoch: b.epochNumber }),
          `point of epoch ${b.epochNumber}`,
        );
        assert.equal(got[i].folded, i + 1);
      });
    };
    // 10, then 30 (idle 11..29: decays), then 20 late: 30 is refolded after it.
    await store.setBatchStatus(A, 10n, 'verified', undefined, bs[0]);
    await store.setBatchStatus(A, 30n, 'verified', undefined, bs[1]);
    await expect([bs[0], bs[1]]);
    await store.setBatchStatus(A, 20n, 'verified', undefined, bs[2]);
    await store.setBatchStatus(A, 40n, 'verified', undefined, bs[3]);
    await expect(bs);
    // 20 turns out a mismatch: its point goes, 30 and 40 fold without it.
    await store.setBatchStatus(A, 20n, 'mismatch', undefined);
    await expect([bs[0], bs[1], bs[3]]);
    // The same verdict again changes nothing.
    await store.setBatchStatus(A, 40n, 'verified', undefined, bs[3]);
    await expect([bs[0], bs[1], bs[3]]);
    assert.equal((await store.backfillBatchPoints()).looked, 0, 'every verified batch has its point');
  },
  { dbPrefix: 'rep_points_batch' },
);

const EPOCH = 86_400n;
const T0 = 1_790_000_000_000_000n;
let nonce = 0n;
function feedback(score: number, outcome: number, atUs: bigint): IngestItem {
  nonce++;
  const payload = encodeFeedback({
    conversationId: new Uint8Array(16).fill(Number(nonce % 200n)),
    targetAgent: A,
    score,
    outcome,
    isDispute: false,
    role: 0,
  });
  const b = buildEnvelope(
    {
      msgType: MsgType.FEEDBACK,
      sender: id(0x0c),
      recipient: new Uint8Array(32),
      timestamp: atUs,
      nonce,
      conversationId: new Uint8Array(16).fill(Number(nonce % 200n)),
      payload,
    },
    new Uint8Array(32).fill(0x0c),
  );
  return {
    id: b.id,
    envelope: b.envelope,
    raw: b.bytes,
    source: 'gossip',
    topic: '/0x01/v1/reputation',
    receivedAt: new Date(),
  };
}

testOnEachStore(
  'gossip points: the fold at the end of each epoch with feedback, continued and refolded',
  async (store) => {
    const day = (d: number, s: number) => T0 + BigInt(d) * EPOCH * 1_000_000n + BigInt(s) * 1_000_000n;
    const items: IngestItem[] = [feedback(90, 2, day(0, 10)), feedback(-30, 0, day(0, 20)), feedback(70, 2, day(2, 5))];
    const expected = (all: IngestItem[]) => {
      const rows = [...all].sort((a, b) => (a.envelope.timestamp < b.envelope.timestamp ? -1 : 1));
      const out = new Map<bigint, { state: ReputationState; folded: number }>();
      let s = emptyReputation();
      rows.forEach((r, i) => {
        s = applyFeedback(s, scoreOf.get(r)!);
        out.set(r.envelope.timestamp / (EPOCH * 1_000_000n), { state: s, folded: i + 1 });
      });
      return [...out].map(([epoch, v]) => ({ epoch, ...v }));
    };
    const scoreOf = new Map<IngestItem, { score: number; outcome: number; role: number }>();
    const add = (it: IngestItem, score: number, outcome: number) => {
      scoreOf.set(it, { score, outcome, role: 0 });
      return it;
    };
    add(items[0], 90, 2);
    add(items[1], -30, 0);
    add(items[2], 70, 2);
    await store.ingestEnvelopes(items);
    await store.getReputation(A);
    assert.deepEqual(await pointsOf(store, 'gossip'), expected(items));
    // Newer feedback: the fold continues and adds a point.
    const later = add(feedback(10, 1, day(5, 1)), 10, 1);
    await store.ingestEnvelopes([later]);
    await store.getReputation(A);
    assert.deepEqual(await pointsOf(store, 'gossip'), expected([...items, later]));
    // Late feedback for day 1: the fold is redone, every point after it changes.
    const late = add(feedback(-80, 0, day(1, 3)), -80, 0);
    await store.ingestEnvelopes([late]);
    const now = await store.getReputation(A);
    const want = expected([...items, later, late]);
    assert.deepEqual(await pointsOf(store, 'gossip'), want);
    assert.equal(
      now?.reliabilityScore,
      want[want.length - 1].state.reliabilityScore,
      'the newest point is the current fold',
    );
  },
  { dbPrefix: 'rep_points_gossip', epochSeconds: Number(EPOCH) },
);

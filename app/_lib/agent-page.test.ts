// The agent page's authoritative reputation from the newest stored batch point equals what
// GET /api/reputation/{agent} folds from every verified log (lib/indexer reputationJson), idle
// decays through the last batch epoch included; a verified batch not folded yet makes it unknown,
// with the reason, until the indexer's backfill folds it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reputationJson } from '../../lib/indexer/queries';
import { buildEnvelope } from '../../lib/protocol/envelope';
import { encodeFeedback } from '../../lib/protocol/payloads';
import { MsgType } from '../../lib/protocol/types';
import { openStore } from '../../lib/store/index';
import { rawQuery } from '../../lib/store/testing';
import { AuthoritativeSummarySchema } from '../../lib/wire';
import { loadAuthoritative } from './agent-page';
import type { Services } from './services';

const EPOCH_S = 86_400n;
const A = new Uint8Array(32).fill(0x51);
const C = new Uint8Array(32).fill(0x52);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

test(
  'authoritative reputation from the newest batch point equals ' +
    'the fold of every verified log; unknown while one is not folded',
  async () => {
    const store = await openStore({ dataDir: ':memory:', epochSeconds: Number(EPOCH_S) });
    try {
      const o = { reads: store, config: { epochSeconds: Number(EPOCH_S) } } as unknown as Services;
      let nonce = 0n;
      // Epochs 100 (verified), 101 (mismatch), 103 (verified), then a batch without a verdict at 120: 16 idle epochs to
      // decay.
      for (const [epoch, score, status] of [
        [100n, 90, 'verified'],
        [101n, -50, 'mismatch'],
        [103n, 40, 'verified'],
        [120n, 10, null],
      ] as const) {
        nonce++;
        const conv = new Uint8Array(16).fill(Number(nonce));
        const payload = encodeFeedback({
          conversationId: conv,
          targetAgent: A,
          score,
          outcome: 2,
          isDispute: false,
          role: 0,
        });
        const b = buildEnvelope(
          {
            msgType: MsgType.FEEDBACK,
            sender: C,
            recipient: A,
            timestamp: epoch * EPOCH_S * 1_000_000n + 5n,
            nonce,
            conversationId: conv,
            payload,
          },
          new Uint8Array(32).fill(C[0]),
        );
        await store.ingestEnvelopes([
          { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'stream', receivedAt: new Date() },
        ]);
        await store.saveEpochLog(A, epoch, [b.id]);
        await store.upsertBatch({
          agentId: A,
          epoch,
          batchHash: new Uint8Array(32).fill(1),
          root: new Uint8Array(32).fill(2),
          slot: epoch,
        });
        if (status) await store.setBatchStatus(A, epoch, status, new Uint8Array(32).fill(2));
      }
      const want = (await reputationJson(store, A, { epochSeconds: EPOCH_S })).authoritative;
      const got = AuthoritativeSummarySchema.parse(await loadAuthoritative(o, hex(A)));
      assert.equal(got.known, true);
      assert.deepEqual({ ...got.state, fromEpoch: got.fromEpoch, toEpoch: got.toEpoch }, want);
      assert.equal(got.folded, 2);
      assert.notEqual(want.reliabilityScore, '0', 'the fold saw the feedback');

      // A batch verified by a process that kept no point (as before points existed): unknown, then folded by the
      // backfill.
      await rawQuery(store)(`UPDATE batch SET status = 'verified' WHERE agent_id = $1 AND epoch = 120`, [A]);
      const behind = await loadAuthoritative(o, hex(A));
      assert.equal(behind.known, false);
      assert.match(behind.reason ?? '', /epoch 120 is verified but not folded yet \(the fold reaches epoch 103\)/);
      assert.deepEqual(await store.backfillBatchPoints(), { looked: 1, folded: 1 });
      const after = await loadAuthoritative(o, hex(A));
      assert.deepEqual(
        { ...after.state, fromEpoch: after.fromEpoch, toEpoch: after.toEpoch },
        (await reputationJson(store, A, { epochSeconds: EPOCH_S })).authoritative,
      );
      assert.equal(after.folded, 3);
    } finally {
      await store.close();
    }
  },
);

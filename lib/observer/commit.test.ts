/**
 * Commit-and-publish on a real store (PGlite in memory): what a committed batch stored becomes
 * events, in batch order, `agent_joined` once per new agent before its first message; a re-seen
 * envelope makes none.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toHex } from '../protocol/hex';
import { encodeFeedback } from '../protocol/payloads';
import { applyFeedback, emptyReputation } from '../protocol/reputation';
import { MsgType } from '../protocol/types';
import { openStore } from '../store';
import { bytes32, conv16, makeItem } from '../store/testing';
import { createCommitQueue } from './commit';
import type { LiveEvent } from './types';

const A = bytes32(1, 0xa),
  B = bytes32(2, 0xb);
const T0 = 1_800_000_000_000_000n;

test('each commit publishes its stored envelopes as events, once', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  const published: LiveEvent[][] = [];
  const queue = createCommitQueue(store, { clock: () => 42, publish: (events) => published.push(events) });
  try {
    const cid = conv16(1);
    const propose = makeItem({
      msgType: MsgType.PROPOSE,
      sender: A,
      recipient: B,
      conversationId: cid,
      nonce: T0,
      timestamp: T0,
    });
    const feedback = makeItem({
      msgType: MsgType.FEEDBACK,
      sender: A,
      conversationId: cid,
      nonce: T0 + 1n,
      timestamp: T0 + 1000n,
      payload: encodeFeedback({
        conversationId: cid,
        targetAgent: B,
        score: 60,
        outcome: 2,
        isDispute: false,
        role: 0,
      }),
    });
    const results = await Promise.all([queue.push(propose), queue.push(feedback)]);
    assert.deepEqual(
      results.map((r) => r.inserted),
      [true, true],
    );
    await queue.flush();
    const events = published.flat() as Array<{ type: string; at: number; data: Record<string, any> }>;
    assert.deepEqual(
      events.map((e) => [e.type, e.at]),
      [
        ['agent_joined', 42],
        ['agent_joined', 42],
        ['message', 42],
        ['message', 42],
        ['reputation_update', 42],
      ],
    );
    assert.deepEqual(new Set(events.slice(0, 2).map((e) => e.data.agent)), new Set([toHex(A), toHex(B)]));
    assert.equal(events[2].data.id, toHex(propose.id));
    assert.equal(events[3].data.id, toHex(feedback.id));
    assert.equal(events[4].data.agent, toHex(B));
    const f1 = { conversationId: cid, targetAgent: B, score: 60, outcome: 2, isDispute: false, role: 0 } as const;
    const once = applyFeedback(emptyReputation(), f1);
    assert.deepEqual(
      events[4].data.reputation,
      Object.fromEntries(Object.entries(once).map(([k, v]) => [k, String(v)])),
    );

    // A later batch folds into the same state (kept across commits).
    const f2 = {
      conversationId: conv16(2),
      targetAgent: B,
      score: -20,
      outcome: 0,
      isDispute: false,
      role: 0,
    } as const;
    const second = makeItem({
      msgType: MsgType.FEEDBACK,
      sender: A,
      conversationId: conv16(2),
      nonce: T0 + 2n,
      timestamp: T0 + 2000n,
      payload: encodeFeedback(f2),
    });
    await queue.push(second);
    const rep = published
      .flat()
      .filter((e) => e.type === 'reputation_update')
      .at(-1)!;
    assert.deepEqual(
      rep.data.reputation,
      Object.fromEntries(Object.entries(applyFeedback(once, f2)).map(([k, v]) => [k, String(v)])),
    );

    // The same envelope again: stored already, so no event.
    const before = published.length;
    assert.equal((await queue.push(propose)).inserted, false);
    await queue.flush();
    assert.deepEqual(published.slice(before).flat(), []);
  } finally {
    await queue.close();
    await store.close();
  }
});

// Gossip ↔ chain reconciliation on both stores: a constructed epoch of three agents with exactly
// one envelope seen but not logged and one logged but never seen per committed log, the
// per-topic shares (counted in the sender's row, against every committed log of the epoch), a
// mismatched batch shown as not comparable, and the totals kept by the verdicts.
import assert from 'node:assert/strict';
import { buildEnvelope } from '../../protocol/envelope';
import { toHex } from '../../protocol/hex';
import { encodeFeedback, encodeNotarizeBid } from '../../protocol/payloads';
import { MsgType } from '../../protocol/types';
import { testOnEachStore } from '../backends-testing';
import type { Store } from '../index';
import type { IngestItem } from '../types';

const EPOCH = 86_400n;
const T = 1_790_000_000_000_000n; // epoch 20717
const E = T / (EPOCH * 1_000_000n);
const id = (b: number) => new Uint8Array(32).fill(b);
const [A, B, C] = [id(0x0a), id(0x0b), id(0x0c)];
let nonce = 0n;

function env(
  from: Uint8Array,
  msgType: number,
  o: { to?: Uint8Array; payload?: Uint8Array; source: IngestItem['source']; topic?: string },
): IngestItem {
  nonce++;
  const b = buildEnvelope(
    {
      msgType,
      sender: from,
      recipient: o.to ?? new Uint8Array(32),
      timestamp: T + nonce * 1_000_000n,
      nonce,
      conversationId: new Uint8Array(16).fill(Number(nonce)),
      payload: o.payload ?? new Uint8Array([1, 2, 3]),
    },
    new Uint8Array(32).fill(from[0]),
  );
  return { id: b.id, envelope: b.envelope, raw: b.bytes, source: o.source, topic: o.topic, receivedAt: new Date() };
}
const fb = (about: Uint8Array) =>
  encodeFeedback({
    conversationId: new Uint8Array(16).fill(7),
    targetAgent: about,
    score: 50,
    outcome: 2,
    isDispute: false,
    role: 0,
  });

const e1 = env(A, MsgType.PROPOSE, { to: B, source: 'stream' }); // A's and B's logs
const e2 = env(A, MsgType.ADVERTISE, { source: 'gossip', topic: '/0x01/v1/broadcast' }); // seen, in no log
const e3 = env(B, MsgType.COUNTER, { to: A, source: 'upload' }); // never seen live, in A's and B's logs
// about A, in A's log
const e4 = env(C, MsgType.FEEDBACK, { payload: fb(A), source: 'gossip', topic: '/0x01/v1/reputation' });
const e5 = env(A, MsgType.NOTARIZE_BID, {
  payload: encodeNotarizeBid({ bidType: 0, conversationId: new Uint8Array(16).fill(5), terms: new Uint8Array(0) }),
  source: 'gossip',
  topic: '/0x01/v1/notary',
});
const e6 = env(A, MsgType.BEACON, { source: 'gossip', topic: '/0x01/v1/broadcast' });
const e7 = env(A, MsgType.FEEDBACK, { payload: fb(B), source: 'gossip', topic: '/0x01/v1/reputation' }); // about B
const e9 = env(B, MsgType.DELIVER, { to: A, source: 'stream' }); // in A's log, B left it out of its own

async function verdict(
  store: Store,
  agent: Uint8Array,
  log: IngestItem[],
  status: 'verified' | 'mismatch',
  slot: bigint,
) {
  await store.saveEpochLog(
    agent,
    E,
    log.map((x) => x.id),
  );
  const root = new Uint8Array(32).fill(Number(slot));
  await store.upsertBatch({ agentId: agent, epoch: E, batchHash: new Uint8Array(32).fill(0xee), root, slot });
  await store.setBatchStatus(agent, E, status, root);
}

testOnEachStore(
  'reconciliation: seen but not logged, logged but never seen, per-topic shares, totals',
  async (store) => {
    await store.ingestEnvelopes([e1, e2, e3, e4, e5, e6, e7, e9]);
    assert.deepEqual(await store.reconciliationTotals(), {
      verified: 0,
      mismatch: 0,
      logEntries: 0,
      seen: 0,
      seenLogged: 0,
      seenNotLogged: 0,
      loggedNotSeen: 0,
      topics: {
        broadcast: { seen: 0, committed: 0 },
        notary: { seen: 0, committed: 0 },
        reputation: { seen: 0, committed: 0 },
        stream: { seen: 0, committed: 0 },
      },
    });

    // B first: its DELIVER (e9) is in no committed log yet.
    await verdict(store, B, [e1, e3, e7], 'verified', 10n);
    let [b] = await store.listReconciliation({ agent: B });
    assert.deepEqual(
      [b.status, b.logEntries, b.seen, b.seenLogged, b.seenNotLogged, b.loggedNotSeen],
      ['verified', 3, 3, 2, 1, 1],
    );
    assert.deepEqual(b.topics?.stream, { seen: 1, committed: 0 });

    await verdict(store, A, [e1, e3, e4, e5, e6, e7, e9], 'verified', 11n);
    const [a] = await store.listReconciliation({ agent: A });
    // Seen live and belonging in A's log: e1 e2 e4 e5 e6 e7 e9 (e3 came only by upload).
    assert.deepEqual(
      [a.status, a.epoch, a.logEntries, a.seen, a.seenLogged, a.seenNotLogged, a.loggedNotSeen],
      ['verified', E, 7, 7, 6, 1, 1],
    );
    assert.deepEqual(a.topics, {
      broadcast: { seen: 2, committed: 1 },
      notary: { seen: 1, committed: 1 },
      reputation: { seen: 1, committed: 1 },
      stream: { seen: 1, committed: 1 },
    });
    // A's committed log holds B's DELIVER: B's row was recomputed when A's verdict was reached.
    [b] = await store.listReconciliation({ agent: B });
    assert.deepEqual(b.topics?.stream, { seen: 1, committed: 1 });

    // C's batch contradicts its log: nothing is compared, the figures are unknown.
    await verdict(store, C, [e4], 'mismatch', 12n);
    const [c] = await store.listReconciliation({ agent: C });
    assert.deepEqual(
      [c.status, c.logEntries, c.seen, c.seenNotLogged, c.loggedNotSeen, c.topics],
      ['mismatch', 1, null, null, null, null],
    );

    const totals = {
      verified: 2,
      mismatch: 1,
      logEntries: 10,
      seen: 10,
      seenLogged: 8,
      seenNotLogged: 2,
      loggedNotSeen: 2,
      topics: {
        broadcast: { seen: 2, committed: 1 },
        notary: { seen: 1, committed: 1 },
        reputation: { seen: 1, committed: 1 },
        stream: { seen: 2, committed: 2 },
      },
    };
    assert.deepEqual(await store.reconciliationTotals(), totals);
    // The same verdict again changes nothing; the indexer re-checks batches every poll.
    await store.setBatchStatus(A, E, 'verified', new Uint8Array(32).fill(11));
    await store.setBatchStatus(C, E, 'mismatch', new Uint8Array(32).fill(12));
    assert.deepEqual(await store.reconciliationTotals(), totals);
    assert.deepEqual(
      (await store.listReconciliation()).map((r) => toHex(r.agent)),
      [toHex(A), toHex(B), toHex(C)],
    );

    // The ids behind A's figures, read live by its keys.
    const d = await store.reconciliationDetail(A, E);
    assert.equal(d.status, 'verified');
    assert.deepEqual([d.live?.seen, d.live?.seenLogged, d.live?.seenNotLogged, d.live?.loggedNotSeen], [7, 6, 1, 1]);
    assert.deepEqual(
      d.live?.seenNotLoggedIds.map((x) => [toHex(x.id), x.via, x.topic]),
      [[toHex(e2.id), 'gossip', '/0x01/v1/broadcast']],
    );
    assert.deepEqual(
      d.live?.loggedNotSeenIds.map((x) => [toHex(x.id), x.via]),
      [[toHex(e3.id), 'upload']],
    );
    assert.deepEqual(
      d.live?.topics.broadcast.notCommittedIds.map((x) => toHex(x.id)),
      [toHex(e2.id)],
    );
    assert.deepEqual(d.live?.topics.stream.notCommittedIds, []);
    const dc = await store.reconciliationDetail(C, E);
    assert.deepEqual([dc.status, dc.live, dc.stored?.seen], ['mismatch', null, null]);
    const none = await store.reconciliationDetail(A, E + 1n);
    assert.deepEqual([none.status, none.logEntries, none.stored, none.live], [null, 0, null, null]);

    // A new batch hash withdraws A's verdict: its row leaves the totals (and B's DELIVER is no longer committed).
    await store.upsertBatch({
      agentId: A,
      epoch: E,
      batchHash: new Uint8Array(32).fill(0xef),
      root: new Uint8Array(32).fill(13),
      slot: 13n,
    });
    await store.setBatchStatus(A, E, 'unverified');
    // Its batch is still listed for the agent, with no figures: nothing is committed to compare with.
    assert.deepEqual(
      (await store.listReconciliation({ agent: A })).map((r) => [r.status, r.seen, r.topics, r.computedAt]),
      [['unverified', null, null, null]],
    );
    assert.deepEqual(
      (await store.listReconciliation()).map((r) => toHex(r.agent)),
      [toHex(B), toHex(C)],
    );
    assert.deepEqual(await store.reconciliationTotals(), {
      verified: 1,
      mismatch: 1,
      logEntries: 3,
      seen: 3,
      seenLogged: 2,
      seenNotLogged: 1,
      loggedNotSeen: 1,
      topics: {
        broadcast: { seen: 0, committed: 0 },
        notary: { seen: 0, committed: 0 },
        reputation: { seen: 0, committed: 0 },
        stream: { seen: 1, committed: 0 },
      },
    });
  },
  { dbPrefix: 'zx_recon', timeout: 60_000 },
);

/**
 * Search and the list queries (search.ts, agent-list.ts) on PGlite and, with TEST_DATABASE_URL,
 * Postgres: id prefixes as key ranges, labels, batches by agent and epoch, base58 prefixes taken
 * literally (LIKE wildcards escaped), keyset pages that neither repeat nor skip.
 */

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { toHex } from '../../protocol/hex';
import { MsgType } from '../../protocol/types';
import { describeOnEachStore } from '../backends-testing';
import type { Store } from '../index';
import { bytes32, conv16, makeItem } from '../testing';
import { prefixRange } from './search';

const A = bytes32(1, 0xa1),
  B = bytes32(2, 0xa2),
  C = bytes32(3, 0xb1);
const T0 = 1_800_000_000_000_000n;

test('prefixRange: inclusive bounds of every id with the prefix; odd lengths; bad input', () => {
  const [lo, hi] = prefixRange('ab1', 2)!;
  assert.equal(toHex(lo), 'ab10');
  assert.equal(toHex(hi), 'ab1f');
  assert.equal(prefixRange('xyz', 2), null);
  assert.equal(prefixRange('abcdef', 2), null, 'longer than the id');
});

function suite(open: () => Promise<Store>): void {
  let s: Store;
  before(async () => {
    s = await open();
    // Three conversations between A, B and C, one message each, a second apart.
    const items = [
      [A, B],
      [B, C],
      [A, C],
    ].map(([x, y], i) =>
      makeItem({
        msgType: MsgType.PROPOSE,
        sender: x,
        recipient: y,
        conversationId: conv16(0xc0de00 + i),
        nonce: T0 + BigInt(i),
        timestamp: T0 + BigInt(i) * 1_000_000n,
        source: 'upload',
      }),
    );
    await s.ingestEnvelopes(items);
    await s.setAgentLabel(C, 'weather_oracle');
    await s.upsertBatch({
      agentId: A,
      epoch: 7n,
      batchHash: bytes32(70),
      root: bytes32(71),
      slot: 10n,
      signature: '5ig%Batch7',
    });
    await s.upsertBatch({
      agentId: B,
      epoch: 7n,
      batchHash: bytes32(72),
      root: bytes32(73),
      slot: 11n,
      signature: '5igBatchB7',
    });
    await s.upsertChallenge({
      address: 'Chal1enge111',
      agentId: A,
      epoch: 7n,
      challenger: B,
      status: 'pending',
      slot: 12n,
      signature: 'Sig0penChal',
    });
    await s.upsertStake({ agentId: A, amount: 10n, status: 'locked', slot: 1n });
    await s.upsertStake({ agentId: B, amount: 10n, status: 'slashed', slot: 2n });
  });
  after(async () => {
    await s?.close();
  });

  test('hex prefixes find agents, conversations and envelopes through key ranges', async () => {
    const r = await s.search({ hexPrefix: 'a', limit: 10 });
    assert.deepEqual(r.agents.map((a) => toHex(a.id)).sort(), [toHex(A), toHex(B)].sort());
    const conv = toHex(conv16(0xc0de01));
    const c = await s.search({ hexPrefix: conv.slice(0, 27), limit: 10 });
    assert.deepEqual(
      c.conversations.map((x) => toHex(x.id)),
      [toHex(conv16(0xc0de00)), conv, toHex(conv16(0xc0de02))],
    );
    const [env] = await s.recentEnvelopes({ limit: 1 });
    const e = await s.search({ hexPrefix: toHex(env.id), limit: 10 });
    assert.deepEqual(
      e.envelopes.map((x) => toHex(x.id)),
      [toHex(env.id)],
    );
    assert.equal((await s.search({ hexPrefix: 'a1', limit: 1 })).agents.length, 1, 'limit per kind');
  });

  test('labels, batches by agent and epoch, challenges and signatures by base58 prefix', async () => {
    assert.deepEqual(
      (await s.search({ text: 'ORACLE', limit: 10 })).agents.map((a) => a.label),
      ['weather_oracle'],
    );
    const b = await s.search({ agent: A, epoch: 7n, limit: 10 });
    assert.deepEqual(
      b.batches.map((x) => [toHex(x.agent), x.epoch]),
      [[toHex(A), 7n]],
    );
    assert.deepEqual(
      b.challenges.map((x) => x.address),
      ['Chal1enge111'],
    );
    assert.equal((await s.search({ epoch: 7n, limit: 10 })).batches.length, 2, 'a bare epoch lists every agent of it');
    assert.deepEqual(
      (await s.search({ base58Prefix: 'Chal1', limit: 10 })).challenges.map((x) => x.address),
      ['Chal1enge111'],
    );
    const tx = await s.search({ base58Prefix: '5igB', limit: 10 });
    assert.deepEqual(
      tx.transactions.map((x) => [x.signature, x.what, toHex(x.agent!)]),
      [['5igBatchB7', 'batch', toHex(B)]],
    );
    // `%` is a LIKE wildcard: a query holding one must match it literally, not everything.
    assert.deepEqual(
      (await s.search({ base58Prefix: '5ig%', limit: 10 })).transactions.map((x) => x.signature),
      ['5ig%Batch7'],
    );
    assert.deepEqual(
      (await s.search({ base58Prefix: 'Sig0pen', limit: 10 })).transactions.map((x) => x.what),
      ['challenge pending'],
    );
  });

  test('conversation pages: keyset on (last_seen, id), filters by participant', async () => {
    const p1 = await s.listConversationsPage({ limit: 2 });
    assert.equal(p1.rows.length, 2);
    assert.ok(p1.next);
    const p2 = await s.listConversationsPage({ limit: 2, cursor: p1.next! });
    assert.equal(p2.rows.length, 1);
    assert.equal(p2.next, null);
    assert.equal(new Set([...p1.rows, ...p2.rows].map((r) => toHex(r.id))).size, 3);
    assert.equal((await s.listConversationsPage({ limit: 10, agent: C })).rows.length, 2);
    assert.equal(
      (await s.listConversationsPage({ limit: 10, fromMs: 4_102_444_800_000 })).rows.length,
      0,
      'a window in the future is empty',
    );
  });

  test('agent pages: stake filter, sort by envelopes, keyset cursor', async () => {
    const base = { onlineSinceMs: 0, limit: 10 };
    assert.deepEqual(
      (await s.listAgentsPage({ ...base, sort: 'last_seen', stake: 'locked' })).rows.map((r) => toHex(r.id)),
      [toHex(A)],
    );
    assert.deepEqual(
      (await s.listAgentsPage({ ...base, sort: 'last_seen', stake: 'none' })).rows.map((r) => toHex(r.id)),
      [toHex(C)],
    );
    const p1 = await s.listAgentsPage({ ...base, sort: 'envelopes', limit: 1 });
    assert.ok(p1.more);
    const last = p1.rows[0];
    const p2 = await s.listAgentsPage({
      ...base,
      sort: 'envelopes',
      limit: 5,
      cursor: { value: last.sortValue, id: last.id },
    });
    const all = [...p1.rows, ...p2.rows];
    assert.equal(new Set(all.map((r) => toHex(r.id))).size, 3);
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].sent >= all[i].sent);
    assert.deepEqual(
      (await s.listAgentsPage({ ...base, sort: 'last_seen', stake: 'slashed' })).rows.map((r) => r.stake?.status),
      ['slashed'],
    );
  });
}

describeOnEachStore('search', suite, { dbPrefix: 'zx_search' });

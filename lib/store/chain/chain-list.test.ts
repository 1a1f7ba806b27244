/**
 * Keyset pages of the lists (chain-list.ts batches and challenges, search.ts conversations) on
 * PGlite and, with TEST_DATABASE_URL, Postgres: with more rows than a page and ties on every sort
 * key, walking `next` to the end yields each row once, in the order the sort promises (checked
 * against an order computed here, not by the database).
 */

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { toHex } from '../../protocol/hex';
import { MsgType } from '../../protocol/types';
import { describeOnEachStore } from '../backends-testing';
import type { Store } from '../index';
import { bytes32, conv16, makeItem } from '../testing';
import type { BatchPageFilter, ChallengePageFilter } from './chain-list';

const AGENTS = [bytes32(1, 0xa1), bytes32(2, 0x0b), bytes32(3, 0xff), bytes32(4, 0x5c)];
const T0 = 1_800_000_000_000_000n;
const cmpBytes = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b);
const cmpBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const cmpText = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Every page of `fetch` from the start, following the cursor of the last row. */
async function walk<R, C>(
  fetch: (cursor: C | undefined) => Promise<{ rows: R[]; more: boolean }>,
  cursorOf: (r: R) => C,
): Promise<R[][]> {
  const pages: R[][] = [];
  let cursor: C | undefined;
  for (;;) {
    const p = await fetch(cursor);
    pages.push(p.rows);
    if (!p.more) return pages;
    assert.equal(p.rows.length > 0, true, 'a page with more after it is not empty');
    cursor = cursorOf(p.rows[p.rows.length - 1]);
    assert.ok(pages.length < 100, 'paging ends');
  }
}

type BatchCursor = BatchPageFilter['cursor'];
type BatchRow = Awaited<ReturnType<Store['listBatchesPage']>>['rows'][number];
type ChallengeRow = Awaited<ReturnType<Store['listChallengesPage']>>['rows'][number];

function suite(open: () => Promise<Store>): void {
  let s: Store;
  // 4 agents × 6 epochs = 24 batches; slots repeat (three batches per slot) so the tie-breaks
  // matter, and epochs and slots cross a power of ten, where text order and number order differ.
  const batches = AGENTS.flatMap((agentId, a) =>
    [0, 1, 2, 3, 4, 5].map((e) => ({ agentId, epoch: BigInt(7 + e), slot: BigInt(97 + Math.floor((a * 6 + e) / 3)) })),
  );
  // 14 challenges; opened slots repeat, addresses differ in case (byte order is not a locale's).
  const challenges = Array.from({ length: 14 }, (_, i) => ({
    address: `${i % 2 ? 'a' : 'B'}Chal${String.fromCharCode(65 + i)}${i}`,
    agentId: AGENTS[i % 4],
    epoch: BigInt(9 + (i % 3)),
    slot: BigInt(98 + Math.floor(i / 4)),
  }));
  before(async () => {
    s = await open();
    for (const [i, b] of batches.entries())
      await s.upsertBatch({ ...b, batchHash: bytes32(i, 1), root: bytes32(i, 2), signature: `sig${i}` });
    for (const b of batches.filter((_, i) => i % 3 === 0)) await s.setBatchStatus(b.agentId, b.epoch, 'verified');
    for (const c of challenges)
      await s.upsertChallenge({ ...c, challenger: AGENTS[0], status: 'pending', signature: `t${c.address}` });
    // 13 conversations with 1..3 messages each, sent in an order unrelated to their ids.
    const items = [];
    for (let i = 0; i < 13; i++) {
      const n = (i * 7) % 13;
      for (let m = 0; m <= i % 3; m++) {
        items.push(
          makeItem({
            msgType: MsgType.PROPOSE,
            sender: AGENTS[i % 4],
            recipient: AGENTS[(i + 1) % 4],
            conversationId: conv16(0xd00 + n),
            nonce: BigInt(i * 10 + m),
            timestamp: T0 + BigInt(i % 5) * 1_000_000n + BigInt(m) * 60_000_000n,
            source: 'upload',
          }),
        );
      }
    }
    const r = await s.ingestEnvelopes(items);
    assert.equal(r.inserted, items.length);
  });
  after(async () => {
    await s?.close();
  });

  test('batches by epoch and by slot: every row once, newest first, filters kept across pages', async () => {
    const key = (b: { agentId: Uint8Array; epoch: bigint }) => `${toHex(b.agentId)}/${b.epoch}`;
    const orders = {
      epoch: [...batches].sort((x, y) => cmpBig(y.epoch, x.epoch) || cmpBytes(y.agentId, x.agentId)),
      slot: [...batches].sort(
        (x, y) => cmpBig(y.slot, x.slot) || cmpBytes(y.agentId, x.agentId) || cmpBig(y.epoch, x.epoch),
      ),
    };
    for (const sort of ['epoch', 'slot'] as const) {
      const pages = await walk<BatchRow, BatchCursor>(
        (cursor) => s.listBatchesPage({ sort, limit: 5, cursor }),
        (r) => ({ slot: r.slot, agent: r.agentId, epoch: r.epoch }),
      );
      assert.equal(pages.length, 5, `${sort}: 24 rows in pages of 5`);
      assert.deepEqual(pages.flat().map(key), orders[sort].map(key), `sort=${sort}`);
    }
    const verified = await walk<BatchRow, BatchCursor>(
      (cursor) => s.listBatchesPage({ sort: 'slot', status: 'verified', limit: 3, cursor }),
      (r) => ({ slot: r.slot, agent: r.agentId, epoch: r.epoch }),
    );
    assert.deepEqual(verified.flat().map(key), orders.slot.filter((b) => batches.indexOf(b) % 3 === 0).map(key));
    const one = await walk<BatchRow, BatchCursor>(
      (cursor) => s.listBatchesPage({ sort: 'epoch', agent: AGENTS[2], limit: 4, cursor }),
      (r) => ({ slot: r.slot, agent: r.agentId, epoch: r.epoch }),
    );
    assert.deepEqual(
      one.flat().map((b) => b.epoch),
      [12n, 11n, 10n, 9n, 8n, 7n],
    );
  });

  test(
    'challenges by opened slot and by epoch, both ' + 'orders: every row once, ties broken by address bytes',
    async () => {
      for (const sort of ['opened_slot', 'epoch'] as const) {
        const k = (c: { slot: bigint; epoch: bigint }) => (sort === 'epoch' ? c.epoch : c.slot);
        for (const order of ['asc', 'desc'] as const) {
          const pages = await walk<ChallengeRow, ChallengePageFilter['cursor']>(
            (cursor) => s.listChallengesPage({ sort, order, limit: 4, cursor }),
            (r) => ({ key: sort === 'epoch' ? r.epoch : r.openedSlot, address: r.address }),
          );
          const want = [...challenges].sort((x, y) => cmpBig(k(x), k(y)) || cmpText(x.address, y.address));
          if (order === 'desc') want.reverse();
          assert.equal(pages.length, 4, `${sort} ${order}: 14 rows in pages of 4`);
          assert.deepEqual(
            pages.flat().map((c) => c.address),
            want.map((c) => c.address),
            `sort=${sort} order=${order}`,
          );
        }
      }
      const page = await s.listChallengesPage({ sort: 'opened_slot', order: 'asc', epoch: 11n, limit: 10 });
      assert.deepEqual(
        page.rows.map((c) => c.address),
        challenges.filter((c) => c.epoch === 11n).map((c) => c.address),
      );
      assert.deepEqual(
        page.rows[0].transitions.map((t) => t.status),
        ['pending'],
      );
    },
  );

  test('conversations by last activity, first seen and message count: every row once, keyset order', async () => {
    const all = (await s.listConversationsPage({ limit: 100 })).rows;
    assert.equal(all.length, 13);
    const keys = {
      last_seen: (c: (typeof all)[number]) => c.lastSeen.getTime(),
      first_seen: (c: (typeof all)[number]) => c.firstSeen.getTime(),
      messages: (c: (typeof all)[number]) => c.messageCount,
    };
    for (const sort of ['last_seen', 'first_seen', 'messages'] as const) {
      const want = [...all]
        .sort((x, y) => keys[sort](y) - keys[sort](x) || cmpBytes(y.id, x.id))
        .map((c) => toHex(c.id));
      const pages: string[][] = [];
      let cursor: { value: number; id: Uint8Array } | undefined;
      do {
        const p = await s.listConversationsPage({ sort, limit: 4, cursor });
        pages.push(p.rows.map((c) => toHex(c.id)));
        cursor = p.next ?? undefined;
      } while (cursor);
      assert.equal(pages.length, 4, `${sort}: 13 rows in pages of 4`);
      assert.deepEqual(pages.flat(), want, `sort=${sort}`);
    }
    assert.ok(
      new Set(all.map((c) => c.messageCount)).size === 3,
      'message counts tie, so the id tie-break is exercised',
    );
  });
}

describeOnEachStore('list pages', suite, { dbPrefix: 'zx_lists' });

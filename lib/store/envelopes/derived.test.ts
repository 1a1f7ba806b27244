/**
 * Derived rows (agents, conversations, pairs, feedback, bids, per-type counters) are exact
 * whatever the batching: overlapping re-ingest and concurrent writers give the same tables, row
 * for row, as one ingest of the same envelopes (ingest is batched and idempotent;
 * ingest.ts). The reference is an in-memory PGlite store fed in one batch.
 */

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { encodeFeedback, encodeNotarizeBid } from '../../protocol/payloads';
import { applyFeedback, emptyReputation, type ReputationState } from '../../protocol/reputation';
import { MsgType } from '../../protocol/types';
import { createIngestQueue, type IngestItem, openStore, type Store } from '../index';
import {
  bytes32,
  conv16,
  createTestDatabase,
  makeItem,
  rawQuery,
  skipWithoutPostgres,
  testPostgresUrl,
} from '../testing';

const T0 = 1_800_000_000_000_000n;
const TYPES = [
  MsgType.BEACON,
  MsgType.ADVERTISE,
  MsgType.DISCOVER,
  MsgType.PROPOSE,
  MsgType.COUNTER,
  MsgType.ACCEPT,
  MsgType.REJECT,
  MsgType.DELIVER,
  MsgType.NOTARIZE_BID,
  MsgType.NOTARIZE_ASSIGN,
  MsgType.VERDICT,
  MsgType.FEEDBACK,
  MsgType.DISPUTE,
];

/** Deterministic PRNG (mulberry32) so every run uses the same envelopes and orders. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 600 envelopes over 12 agents and 40 conversations, with timestamp ties and decodable payloads. */
function corpus(): IngestItem[] {
  const r = rng(7);
  const out: IngestItem[] = [];
  for (let i = 0; i < 600; i++) {
    const msgType = TYPES[Math.floor(r() * TYPES.length)];
    const s = Math.floor(r() * 12),
      t = Math.floor(r() * 12);
    const c = Math.floor(r() * 40);
    const broadcast =
      msgType === MsgType.BEACON || msgType === MsgType.ADVERTISE || msgType === MsgType.FEEDBACK || r() < 0.1;
    const payload =
      msgType === MsgType.FEEDBACK
        ? encodeFeedback({
            conversationId: conv16(c),
            targetAgent: bytes32(t),
            score: Math.floor(r() * 201) - 100,
            outcome: i % 3,
            isDispute: r() < 0.2,
            role: i % 4 === 0 ? 1 : 0,
          })
        : msgType === MsgType.NOTARIZE_BID
          ? encodeNotarizeBid({ bidType: 0, conversationId: conv16(c), terms: new Uint8Array([i & 0xff]) })
          : new Uint8Array([i & 0xff, 1]);
    out.push(
      makeItem({
        msgType,
        sender: bytes32(s),
        recipient: broadcast ? undefined : bytes32(t),
        conversationId: conv16(c),
        nonce: BigInt(i),
        // Coarse timestamps: many envelopes of one conversation share one, so ties must break the same way.
        timestamp: T0 + BigInt(Math.floor(r() * 50)) * 1000n,
        payload,
        receivedAt: new Date(1_800_000_000_000 + Math.floor(r() * 100_000)),
      }),
    );
  }
  return out;
}

function shuffle<T>(xs: readonly T[], seed: number): T[] {
  const r = rng(seed),
    a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** Overlapping windows (size 37, step 23) over a shuffled order: most envelopes arrive twice. */
function overlapping(xs: readonly IngestItem[], seed: number): IngestItem[][] {
  const a = shuffle(xs, seed),
    out: IngestItem[][] = [];
  for (let i = 0; i < a.length; i += 23) out.push(a.slice(i, i + 37));
  return out;
}

/** One FEEDBACK about each of the corpus's agents: every third days older, every third days newer than the corpus. */
function later(): IngestItem[] {
  const out: IngestItem[] = [];
  for (let t = 0; t < 12; t++) {
    const shift = [0n, -3n * 86_400_000_000n, 5n * 86_400_000_000n][t % 3];
    out.push(
      makeItem({
        msgType: MsgType.FEEDBACK,
        sender: bytes32((t + 1) % 12),
        conversationId: conv16(t),
        nonce: 10_000n + BigInt(t),
        timestamp: T0 + 25_000n + shift,
        payload: encodeFeedback({
          conversationId: conv16(t),
          targetAgent: bytes32(t),
          score: 37 - t * 7,
          outcome: t % 3,
          isDispute: t % 2 === 0,
          role: t % 5 === 0 ? 1 : 0,
        }),
      }),
    );
  }
  return out;
}

/** Every derived table as comparable text rows. */
async function snapshot(s: Store): Promise<Record<string, string[]>> {
  const q = async (sql: string) => (await rawQuery(s)<{ r: string }>(sql)).map((x) => x.r);
  return {
    envelopes: await q(`SELECT count(*)::text AS r FROM envelope`),
    agents: await q(
      `SELECT concat_ws(' ', encode(id, 'hex'), first_seen, last_seen, sent) AS r FROM agent ORDER BY id`,
    ),
    conversations: await q(`SELECT concat_ws(' ', encode(id, 'hex'), (SELECT string_agg(encode(p, 'hex'), ',') FROM
        unnest(participants) p),
      first_seen, last_seen, last_ts, last_type, state, types_seen, outcome, message_count) AS r FROM conversation ORDER
        BY id`),
    pairs: await q(
      `SELECT concat_ws(' ', encode(agent_a, 'hex'), encode(agent_b, 'hex'), ` +
        `messages, last_seen) AS r FROM agent_pair ORDER BY agent_a, agent_b`,
    ),
    feedback: await q(
      `SELECT concat_ws(' ', encode(envelope_id, 'hex'), encode(target_agent, ` +
        `'hex'), score, is_dispute, epoch) AS r FROM feedback ORDER BY envelope_id`,
    ),
    bids: await q(
      `SELECT concat_ws(' ', encode(envelope_id, 'hex'), encode(bidder, ` +
        `'hex'), encode(terms, 'hex')) AS r FROM notary_bid ORDER BY envelope_id`,
    ),
    counters: await q(`SELECT msg_type || ':' || count AS r FROM msg_type_counter ORDER BY msg_type`),
  };
}

const repText = (r: ReputationState) =>
  [r.reliabilityScore, r.cooperationIndex, r.notaryAccuracy, r.totalTasks, r.totalNotarized, r.totalDisputes].join(' ');

/** lib/protocol's gossip fold of every stored feedback, per target agent (hex), in (timestamp, envelope_id) order. */
async function jsFolds(s: Store): Promise<Map<string, string>> {
  const rows = await rawQuery(s)<{ t: string; score: number; outcome: number; role: number; is_dispute: boolean }>(
    `SELECT encode(target_agent, 'hex') AS t, score, outcome, role, ` +
      `is_dispute FROM feedback ORDER BY target_agent, timestamp, envelope_id`,
  );
  const folds = new Map<string, ReputationState>();
  for (const r of rows)
    folds.set(
      r.t,
      applyFeedback(folds.get(r.t) ?? emptyReputation(), {
        score: r.score,
        outcome: r.outcome,
        role: r.role,
        isDispute: r.is_dispute,
      }),
    );
  return new Map([...folds].map(([t, st]) => [t, repText(st)]));
}

/** The stored gossip folds per agent (hex), as the store reads them. */
async function storedFolds(s: Store): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const ids = await rawQuery(s)<{ id: Uint8Array; t: string }>(
    `SELECT agent_id AS id, encode(agent_id, 'hex') AS t FROM reputation_state WHERE kind = 'gossip'`,
  );
  for (const { id, t } of ids) {
    const r = await s.getReputation(id, 'gossip');
    out.set(t, r ? repText(r) : null);
  }
  return out;
}

/**
 * Every agent with feedback has a gossip row whose count is its feedback's, and reads as
 * lib/protocol's fold; read twice (the second from what the first stored). Returns how many
 * the first read had to bring up to date.
 */
async function assertFolds(s: Store): Promise<number> {
  const counts = await rawQuery(s)<{
    ok: boolean;
  }>(`SELECT r.feedback_count = (SELECT count(*) FROM feedback f WHERE f.target_agent = r.agent_id) AS ok
    FROM reputation_state r WHERE r.kind = 'gossip'`);
  assert.ok(
    counts.every((c) => c.ok),
    "feedback_count is each agent's number of feedback rows",
  );
  const [{ n: behind }] = await rawQuery(s)<{ n: number }>(
    `SELECT count(*)::int AS n FROM reputation_state WHERE kind = 'gossip' AND folded <> feedback_count`,
  );
  const want = await jsFolds(s);
  for (let pass = 0; pass < 2; pass++) {
    const got = await storedFolds(s);
    assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort());
    for (const [t, v] of got) assert.equal(v, want.get(t), `gossip fold of ${t}`);
    const [{ n }] = await rawQuery(s)<{ n: number }>(
      `SELECT count(*)::int AS n FROM reputation_state WHERE kind = 'gossip' AND folded <> feedback_count`,
    );
    assert.equal(n, 0, 'a read stores what it folded');
  }
  return behind;
}

const items = corpus();
let reference: Record<string, string[]>;

before(async () => {
  const ref = await openStore({ dataDir: ':memory:' });
  try {
    const r = await ref.ingestEnvelopes(items);
    assert.equal(r.inserted, new Set(items.map((i) => Buffer.from(i.id).toString('hex'))).size);
    reference = await snapshot(ref);
    assert.ok((await assertFolds(ref)) > 0);
  } finally {
    await ref.close();
  }
  assert.equal(reference.counters.length, TYPES.length);
  assert.ok(reference.feedback.length > 20 && reference.bids.length > 20 && reference.pairs.length > 20);
});

/** `fresh()` makes an empty database and returns an opener for it (called twice when `shared`). */
function suite(name: string, fresh: () => Promise<() => Promise<Store>>, shared: boolean) {
  describe(name, () => {
    test('overlapping, shuffled re-ingest gives exactly the one-batch rows', async () => {
      const s = await (await fresh())();
      try {
        let inserted = 0;
        for (const b of overlapping(items, 1)) inserted += (await s.ingestEnvelopes(b)).inserted;
        for (const b of overlapping(items, 2)) inserted += (await s.ingestEnvelopes(b)).inserted;
        assert.equal(inserted, items.length);
        assert.deepEqual(await snapshot(s), reference);
        // Shuffled batches bring older feedback after newer: still the exact fold.
        await assertFolds(s);
      } finally {
        await s.close();
      }
    });

    test('the migration folds the feedback already stored, and ingest continues that fold', async () => {
      const s = await (await fresh())();
      try {
        await s.ingestEnvelopes(items);
        await rawQuery(s)(`DELETE FROM reputation_state`);
        const sql = await readFile(
          new URL('../../../prisma/migrations/20261124070000_gossip_reputation/migration.sql', import.meta.url),
          'utf8',
        );
        await rawQuery(s)(sql.slice(sql.indexOf('INSERT INTO "reputation_state"')).replace(/;\s*$/, ''));
        assert.equal(await assertFolds(s), 0);
        await s.ingestEnvelopes(later());
        assert.equal(await assertFolds(s), 12);
      } finally {
        await s.close();
      }
    });

    test(
      shared
        ? 'two stores writing at once store and count each envelope once'
        : 'two queues writing at once store and count each envelope once',
      async () => {
        const open = await fresh();
        const a = await open();
        const b = shared ? await open() : a;
        try {
          const qa = createIngestQueue(a, { maxBatch: 41, maxDelayMs: 1, concurrency: 2 });
          const qb = createIngestQueue(b, { maxBatch: 29, maxDelayMs: 1, concurrency: 2 });
          const [ra, rb] = await Promise.all([qa.pushMany(shuffle(items, 3)), qb.pushMany(shuffle(items, 4))]);
          await Promise.all([qa.close(), qb.close()]);
          assert.equal(ra.filter((r) => r.inserted).length + rb.filter((r) => r.inserted).length, items.length);
          assert.deepEqual(await snapshot(a), reference);
          await assertFolds(a);
          // More feedback about every agent after the folds were stored (newer, older and in other
          // epochs, some twice): the stored folds are continued or refolded, exactly.
          const more = later();
          await a.ingestEnvelopes(more.slice(0, 20));
          await b.ingestEnvelopes(more);
          assert.equal(await assertFolds(a), 12);
        } finally {
          if (b !== a) await b.close();
          await a.close();
        }
      },
    );
  });
}

suite('derived rows on PGlite', async () => () => openStore({ dataDir: ':memory:' }), false);

const pgUrl = testPostgresUrl();
if (!pgUrl) {
  test('derived rows on Postgres', { skip: skipWithoutPostgres() }, () => {});
} else {
  const dbs: Array<{ url: string; drop(): Promise<void> }> = [];
  after(async () => {
    for (const d of dbs) await d.drop();
  });
  suite(
    'derived rows on Postgres',
    async () => {
      const d = await createTestDatabase(pgUrl, 'zx_derived');
      dbs.push(d);
      return () => openStore({ databaseUrl: d.url });
    },
    true,
  );
}

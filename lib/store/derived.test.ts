/**
 * Derived rows (agents, conversations, pairs, feedback, bids, per-type counters) are exact
 * whatever the batching: overlapping re-ingest and concurrent writers give the same tables, row
 * for row, as one ingest of the same envelopes (ingest is batched and idempotent;
 * ingest.ts). The reference is an in-memory PGlite store fed in one batch.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFeedback, encodeNotarizeBid } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { createIngestQueue, openStore, type IngestItem, type Store } from './index';
import { bytes32, conv16, createTestDatabase, makeItem } from './testing';

const T0 = 1_800_000_000_000_000n;
const TYPES = [MsgType.BEACON, MsgType.ADVERTISE, MsgType.DISCOVER, MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT, MsgType.REJECT,
  MsgType.DELIVER, MsgType.NOTARIZE_BID, MsgType.NOTARIZE_ASSIGN, MsgType.VERDICT, MsgType.FEEDBACK, MsgType.DISPUTE];

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
    const s = Math.floor(r() * 12), t = Math.floor(r() * 12);
    const c = Math.floor(r() * 40);
    const broadcast = msgType === MsgType.BEACON || msgType === MsgType.ADVERTISE || msgType === MsgType.FEEDBACK || r() < 0.1;
    const payload = msgType === MsgType.FEEDBACK
      ? encodeFeedback({ conversationId: conv16(c), targetAgent: bytes32(t), score: Math.floor(r() * 200) - 100, outcome: 1, isDispute: r() < 0.2, role: 0 })
      : msgType === MsgType.NOTARIZE_BID ? encodeNotarizeBid({ bidType: 0, conversationId: conv16(c), terms: new Uint8Array([i & 0xff]) }) : new Uint8Array([i & 0xff, 1]);
    out.push(makeItem({
      msgType, sender: bytes32(s), recipient: broadcast ? undefined : bytes32(t), conversationId: conv16(c), nonce: BigInt(i),
      // Coarse timestamps: many envelopes of one conversation share one, so ties must break the same way.
      timestamp: T0 + BigInt(Math.floor(r() * 50)) * 1000n, payload, receivedAt: new Date(1_800_000_000_000 + Math.floor(r() * 100_000)),
    }));
  }
  return out;
}

function shuffle<T>(xs: readonly T[], seed: number): T[] {
  const r = rng(seed), a = [...xs];
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}

/** Overlapping windows (size 37, step 23) over a shuffled order: most envelopes arrive twice. */
function overlapping(xs: readonly IngestItem[], seed: number): IngestItem[][] {
  const a = shuffle(xs, seed), out: IngestItem[][] = [];
  for (let i = 0; i < a.length; i += 23) out.push(a.slice(i, i + 37));
  return out;
}

/** Every derived table as comparable text rows. */
async function snapshot(s: Store): Promise<Record<string, string[]>> {
  const q = async (sql: string) => (await s.query<{ r: string }>(sql)).map((x) => x.r);
  return {
    envelopes: await q(`SELECT count(*)::text AS r FROM envelope`),
    agents: await q(`SELECT concat_ws(' ', encode(id, 'hex'), first_seen, last_seen, sent) AS r FROM agent ORDER BY id`),
    conversations: await q(`SELECT concat_ws(' ', encode(id, 'hex'), (SELECT string_agg(encode(p, 'hex'), ',') FROM unnest(participants) p),
      first_seen, last_seen, last_ts, last_type, state, state_rank, outcome, message_count) AS r FROM conversation ORDER BY id`),
    pairs: await q(`SELECT concat_ws(' ', encode(agent_a, 'hex'), encode(agent_b, 'hex'), messages, last_seen) AS r FROM agent_pair ORDER BY agent_a, agent_b`),
    feedback: await q(`SELECT concat_ws(' ', encode(envelope_id, 'hex'), encode(target_agent, 'hex'), score, is_dispute, epoch) AS r FROM feedback ORDER BY envelope_id`),
    bids: await q(`SELECT concat_ws(' ', encode(envelope_id, 'hex'), encode(bidder, 'hex'), encode(terms, 'hex')) AS r FROM notary_bid ORDER BY envelope_id`),
    counters: await q(`SELECT msg_type || ':' || count AS r FROM msg_type_counter ORDER BY msg_type`),
  };
}

const items = corpus();
let reference: Record<string, string[]>;

before(async () => {
  const ref = await openStore({ dataDir: ':memory:' });
  try {
    const r = await ref.ingestEnvelopes(items);
    assert.equal(r.inserted, new Set(items.map((i) => Buffer.from(i.id).toString('hex'))).size);
    reference = await snapshot(ref);
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
      } finally {
        await s.close();
      }
    });

    test(shared ? 'two stores writing at once store and count each envelope once' : 'two queues writing at once store and count each envelope once', async () => {
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
      } finally {
        if (b !== a) await b.close();
        await a.close();
      }
    });
  });
}

suite('derived rows on PGlite', async () => () => openStore({ dataDir: ':memory:' }), false);

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) {
  test('derived rows on Postgres', { skip: 'TEST_DATABASE_URL is not set' }, () => {});
} else {
  const dbs: Array<{ url: string; drop(): Promise<void> }> = [];
  after(async () => { for (const d of dbs) await d.drop(); });
  suite('derived rows on Postgres', async () => {
    const d = await createTestDatabase(pgUrl, 'zx_derived');
    dbs.push(d);
    return () => openStore({ databaseUrl: d.url });
  }, true);
}

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { toHex } from '../protocol/hex';
import { encodeFeedback, encodeNotarizeBid } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { MIGRATIONS_DIR } from './engine/migrate';
import { createIngestQueue, type IngestItem, openStore, type Store } from './index';
import {
  bytes32,
  conv16,
  createTestDatabase,
  makeItem,
  rawQuery,
  skipWithoutPostgres,
  testPostgresUrl,
} from './testing';

const A = bytes32(1, 0xa),
  B = bytes32(2, 0xb),
  N = bytes32(3, 0xc);
const T0 = 1_800_000_000_000_000n;
const hex = (items: { id: Uint8Array }[]) => items.map((i) => toHex(i.id)).sort();

/** A full negotiation A↔B with notary N (spec §6): 9 envelopes. */
function negotiation(c: number, base = T0): IngestItem[] {
  const cid = conv16(c);
  let k = 0;
  const mk = (msgType: number, sender: Uint8Array, recipient: Uint8Array | undefined, payload?: Uint8Array) =>
    makeItem({
      msgType,
      sender,
      recipient,
      conversationId: cid,
      nonce: base + BigInt(k),
      timestamp: base + BigInt(k++) * 1000n,
      payload,
      source: recipient ? 'upload' : 'gossip',
    });
  return [
    mk(MsgType.PROPOSE, A, B, new TextEncoder().encode('NEG1x')),
    mk(MsgType.COUNTER, B, A),
    mk(MsgType.ACCEPT, A, B),
    mk(MsgType.DELIVER, B, A),
    mk(
      MsgType.NOTARIZE_BID,
      A,
      undefined,
      encodeNotarizeBid({ bidType: 0, conversationId: cid, terms: new Uint8Array([7, 7]) }),
    ),
    mk(MsgType.NOTARIZE_ASSIGN, A, N),
    mk(MsgType.VERDICT, N, A),
    mk(
      MsgType.FEEDBACK,
      A,
      undefined,
      encodeFeedback({ conversationId: cid, targetAgent: B, score: 80, outcome: 2, isDispute: false, role: 0 }),
    ),
    mk(
      MsgType.FEEDBACK,
      B,
      undefined,
      encodeFeedback({ conversationId: cid, targetAgent: A, score: -5, outcome: 1, isDispute: false, role: 0 }),
    ),
  ];
}

async function count(s: Store, table: string): Promise<number> {
  const [r] = await rawQuery(s)<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`);
  return Number(r.n);
}

function suite(
  name: string,
  open: () => Promise<Store>,
  reopen: (s: Store) => Promise<Store>,
  second?: () => Promise<Store>,
) {
  describe(name, () => {
    let s: Store;
    before(async () => {
      s = await open();
    });
    after(async () => {
      await s?.close();
    });

    test('migrations are recorded in _prisma_migrations as the CLI does', async () => {
      const dirs = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort();
      const rows = await rawQuery(s)<{
        migration_name: string;
        checksum: string;
        finished_at: Date | null;
        rolled_back_at: Date | null;
        applied_steps_count: number;
      }>(
        'SELECT migration_name, checksum, finished_at, rolled_back_at, ' +
          'applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
      );
      assert.deepEqual(
        rows.map((r) => r.migration_name),
        dirs,
      );
      for (const r of rows) {
        assert.equal(
          r.checksum,
          createHash('sha256')
            .update(readFileSync(join(MIGRATIONS_DIR, r.migration_name, 'migration.sql')))
            .digest('hex'),
        );
        assert.ok(r.finished_at instanceof Date);
        assert.equal(r.rolled_back_at, null);
        assert.equal(Number(r.applied_steps_count), 1);
      }
    });

    test('ingest is idempotent and derives the conversation exactly', async () => {
      const items = negotiation(1);
      const shuffled = [items[8], items[2], items[0], items[5], items[1]];
      const r1 = await s.ingestEnvelopes(shuffled);
      assert.deepEqual([r1.inserted, r1.duplicates], [5, 0]);
      assert.deepEqual(r1.newAgents.map(toHex).sort(), [A, B, N].map(toHex).sort());
      const r2 = await s.ingestEnvelopes([...items, items[3]]);
      assert.deepEqual([r2.inserted, r2.duplicates], [4, 6]);
      assert.deepEqual(r2.newIds.map(toHex).sort(), hex([items[3], items[4], items[6], items[7]]));
      assert.equal(r2.newAgents.length, 0);
      const r3 = await s.ingestEnvelopes(items);
      assert.deepEqual([r3.inserted, r3.duplicates, r3.newIds.length], [0, 9, 0]);
      assert.equal(await count(s, 'envelope'), 9);

      const c = await s.getConversation(conv16(1));
      assert.ok(c);
      assert.equal(c.messageCount, 9);
      assert.equal(c.state, 'completed');
      assert.equal(c.outcome, 'agreed');
      assert.equal(c.lastType, MsgType.FEEDBACK);
      assert.deepEqual(c.participants.map(toHex), [A, B, N].map(toHex).sort());
      assert.deepEqual(
        c.envelopes.map((e) => toHex(e.id)),
        items.map((i) => toHex(i.id)),
      );
      assert.deepEqual(
        c.envelopes.map((e) => toHex(e.raw)),
        items.map((i) => toHex(i.raw)),
      );
      assert.deepEqual(
        c.feedback.map((f) => [toHex(f.fromAgent), toHex(f.targetAgent), f.score, f.outcome, f.isDispute, f.role]),
        [
          [toHex(A), toHex(B), 80, 2, false, 0],
          [toHex(B), toHex(A), -5, 1, false, 0],
        ],
      );
      assert.deepEqual(
        c.notaryBids.map((b) => [toHex(b.bidder), b.bidType, toHex(b.terms)]),
        [[toHex(A), 0, '0707']],
      );

      assert.deepEqual(await s.countsByType(), { 3: 1, 4: 1, 5: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 2 });
      const agents = new Map((await s.listAgents()).map((a) => [toHex(a.id), a.sent]));
      assert.deepEqual([agents.get(toHex(A)), agents.get(toHex(B)), agents.get(toHex(N))], [5, 3, 1]);
      const g = await s.conversationGraph();
      assert.deepEqual(
        g.edges.map((e) => [toHex(e.a), toHex(e.b), e.messages]).sort(),
        [
          [toHex(A), toHex(B), 4],
          [toHex(A), toHex(N), 2],
        ].sort(),
      );
      const h = await s.health();
      assert.deepEqual([h.ok, h.envelopes, h.agents, h.conversations], [true, 9, 3, 1]);
    });

    test('queries return the exact rows', async () => {
      const big = makeItem({
        msgType: MsgType.DISCOVER,
        sender: B,
        conversationId: conv16(2),
        nonce: (1n << 64n) - 1n,
        blockRef: (1n << 64n) - 2n,
        timestamp: T0 + 5_000_000n,
        payload: new Uint8Array([1, 2, 3]),
      });
      await s.ingestEnvelopes([big]);
      const got = await s.getEnvelope(big.id);
      assert.ok(got);
      assert.deepEqual(got.envelope, big.envelope);
      assert.deepEqual(
        [got.source, got.topic, got.receivedAt.getTime(), got.epoch],
        ['gossip', null, big.receivedAt.getTime(), Number(big.envelope.timestamp / 86_400_000_000n)],
      );
      assert.equal(await s.getEnvelope(new Uint8Array(32)), null);
      const recent = await s.recentEnvelopes({ limit: 3 });
      assert.equal(recent.length, 3);
      assert.equal(toHex(recent[0].id), toHex(big.id));
      assert.ok(recent[0].seq > recent[1].seq && recent[1].seq > recent[2].seq);
      const older = await s.recentEnvelopes({ before: recent[0].seq, limit: 50 });
      assert.equal(older.length, 9);
      assert.deepEqual(
        (await s.recentEnvelopes({ type: MsgType.FEEDBACK })).map((e) => e.envelope.msgType),
        [11, 11],
      );
      assert.equal((await s.recentEnvelopes({ agent: N })).length, 2);
      assert.deepEqual(
        (await s.recentEnvelopes({ conversation: conv16(2) })).map((e) => toHex(e.id)),
        [toHex(big.id)],
      );
      assert.deepEqual(
        (await s.listConversations({ agent: N })).map((c) => toHex(c.id)),
        [toHex(conv16(1))],
      );
      assert.equal((await s.getConversation(conv16(2)))?.state, 'discovery');
    });

    test('drops, signer keys, reputation', async () => {
      await s.recordDrops([
        { reason: 'signature', peer: 'p1' },
        { reason: 'replay' },
        { reason: 'signature', source: 'gossip', detail: 'bad' },
      ]);
      await s.recordDrops([{ reason: 'decode' }]);
      assert.deepEqual(await s.dropCounts(), { decode: 1, replay: 1, signature: 2 });
      assert.equal(await count(s, '"drop"'), 4);
      const k1 = bytes32(77),
        k2 = bytes32(78);
      await s.registerSignerKey({ agentId: A, publicKey: k1 });
      await s.registerSignerKey({ agentId: A, publicKey: k1 });
      await s.registerSignerKey({ agentId: A, publicKey: k2, role: 'delegate' });
      assert.deepEqual((await s.keysFor(A)).map(toHex), [toHex(k1), toHex(k2)]);
      assert.deepEqual(await s.keysFor(B), []);
      await assert.rejects(s.registerSignerKey({ agentId: A, publicKey: new Uint8Array(3) }), TypeError);
      // The batch (authoritative) row as written: the gossip one is the fold of B's stored feedback (reputation.ts).
      const rep = {
        agentId: B,
        kind: 'batch' as const,
        reliabilityScore: 80_000_000n,
        cooperationIndex: -1n,
        notaryAccuracy: 0n,
        totalTasks: 1n,
        totalNotarized: 0n,
        totalDisputes: 0n,
        lastEpoch: 3,
      };
      await s.upsertReputation(rep);
      await s.upsertReputation({ ...rep, totalTasks: 2n });
      const got = await s.getReputation(B, 'batch');
      assert.deepEqual(
        { ...got, updatedAt: undefined, agentId: toHex(got!.agentId) },
        { ...rep, totalTasks: 2n, updatedAt: undefined, agentId: toHex(B) },
      );
    });

    test('chain tables are idempotent by natural key and move forward in slot', async () => {
      assert.equal(await s.upsertStake({ agentId: A, amount: 10_000_000n, status: 'locked', slot: 10n }), true);
      assert.equal(await s.upsertStake({ agentId: A, amount: 1n, status: 'stale', slot: 9n }), false);
      assert.deepEqual(
        (await s.listStakes()).map((x) => [x.amount, x.status, x.slot]),
        [[10_000_000n, 'locked', 10n]],
      );
      await s.upsertLease({ agentId: A, paidThroughEpoch: 5n, active: true, slot: 11n });
      assert.deepEqual(
        (await s.listLeases()).map((x) => [x.paidThroughEpoch, x.active]),
        [[5n, true]],
      );
      const batch = { agentId: A, epoch: 4n, batchHash: bytes32(5), root: bytes32(6), slot: 20n, signature: 'sig1' };
      await s.upsertBatch(batch);
      await s.setBatchStatus(A, 4n, 'verified', bytes32(6));
      await s.upsertBatch(batch);
      assert.deepEqual(
        (await s.listBatches({ agent: A })).map((b) => [b.epoch, b.status, toHex(b.logRoot!)]),
        [[4n, 'verified', toHex(bytes32(6))]],
      );
      const ch = {
        address: 'Ch1',
        agentId: A,
        epoch: 4n,
        challenger: B,
        status: 'submitted',
        slot: 30n,
        signature: 's1',
      };
      assert.deepEqual(await s.upsertChallenge(ch), { transitioned: true });
      assert.deepEqual(await s.upsertChallenge(ch), { transitioned: false });
      assert.deepEqual(await s.upsertChallenge({ ...ch, status: 'upheld', slot: 40n, signature: 's2' }), {
        transitioned: true,
      });
      const [c] = await s.listChallenges();
      assert.deepEqual(
        [c.status, c.openedSlot, c.transitions.map((t) => t.status)],
        ['upheld', 30n, ['submitted', 'upheld']],
      );
      const ev = [
        { signature: 's1', index: 0, slot: 30n, program: 'P', name: 'ChallengeSubmitted', data: { amount: 5n } },
        { signature: 's1', index: 1, slot: 30n, program: 'P', name: 'X', data: {} },
      ];
      assert.equal((await s.insertChainEvents(ev)).inserted, 2);
      assert.deepEqual(await s.insertChainEvents(ev).then((r) => [r.inserted, r.duplicates]), [0, 2]);
      assert.deepEqual(
        (await s.listChainEvents({ name: 'ChallengeSubmitted' })).map((e) => e.data),
        [{ amount: '5' }],
      );
      await s.setCursor({ name: 'idx', signature: 's2', slot: 40n });
      await s.setCursor({ name: 'idx', signature: 's1', slot: 30n });
      assert.deepEqual(await s.getCursor('idx'), { name: 'idx', signature: 's2', slot: 40n });
    });

    test('ingest queue coalesces pushes; duplicates resolve inserted=false', async () => {
      const items = Array.from({ length: 1234 }, (_, i) =>
        makeItem({
          msgType: MsgType.BEACON,
          sender: bytes32(100 + (i % 7)),
          conversationId: conv16(1000),
          nonce: BigInt(i),
          timestamp: T0 + BigInt(i),
        }),
      );
      let batches = 0;
      const q = createIngestQueue(s, {
        maxBatch: 500,
        maxDelayMs: 5,
        onCommit: () => {
          batches++;
        },
      });
      const res = await Promise.all([...items.map((it) => q.push(it)), q.push(items[0])]);
      assert.equal(res.filter((r) => r.inserted).length, 1234);
      assert.equal(res[1234].inserted, false);
      assert.ok(batches >= 3 && batches <= 4, `batches ${batches}`);
      assert.deepEqual(
        (await q.pushMany(items.slice(0, 10))).map((r) => r.inserted),
        Array(10).fill(false),
      );
      await q.close();
      assert.equal((await s.countsByType())[MsgType.BEACON], 1234);
    });

    test('live updates through listen/notify', async () => {
      const got: string[] = [];
      const other = second ? await second() : s;
      const off = await other.listen('zx_test', (p) => got.push(p));
      await s.notify('zx_test', 'hello');
      for (let i = 0; i < 100 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await off();
      if (other !== s) await other.close();
      assert.deepEqual(got, ['hello']);
    });

    test('notifyMany sends every JSON payload in order, text verbatim', async () => {
      const got: string[] = [];
      const other = second ? await second() : s;
      const off = await other.listen('zx_test_many', (p) => got.push(p));
      const payloads = ['{"a":1}', '{"b" : [1, 2],  "c":"x"}', '{"d":null}'];
      await s.notifyMany('zx_test_many', payloads);
      await s.notifyMany('zx_test_many', ['{"e":true}']);
      await s.notifyMany('zx_test_many', []);
      for (let i = 0; i < 100 && got.length < 4; i++) await new Promise((r) => setTimeout(r, 20));
      await off();
      if (other !== s) await other.close();
      assert.deepEqual(got, [...payloads, '{"e":true}']);
    });

    test('a restart loses nothing and duplicates nothing', async () => {
      const before = await s.health();
      s = await reopen(s);
      const after = await s.health();
      assert.deepEqual(after, before);
      const r = await s.ingestEnvelopes(negotiation(1));
      assert.deepEqual([r.inserted, r.duplicates], [0, 9]);
      assert.equal((await s.getConversation(conv16(1)))?.messageCount, 9);
      const rows = await rawQuery(s)<{ n: string }>('SELECT count(*)::text AS n FROM _prisma_migrations');
      assert.equal(
        Number(rows[0].n),
        readdirSync(MIGRATIONS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).length,
      );
    });

    if (second) {
      test('two store instances on one Postgres store each envelope once', async () => {
        const t = await second();
        try {
          const sets = Array.from({ length: 40 }, (_, i) => negotiation(5000 + i, T0 + BigInt(i) * 100_000_000n));
          const all = sets.flat();
          const qa = createIngestQueue(s, { maxBatch: 50, maxDelayMs: 1 });
          const qb = createIngestQueue(t, { maxBatch: 37, maxDelayMs: 1 });
          const [ra, rb] = await Promise.all([qa.pushMany(all), qb.pushMany([...all].reverse())]);
          const inserted = ra.filter((r) => r.inserted).length + rb.filter((r) => r.inserted).length;
          assert.equal(inserted, all.length);
          const [r] = await rawQuery(s)<{ n: string }>(
            `SELECT count(*)::text AS n FROM envelope WHERE conversation_id = ANY($1::bytea[])`,
            [sets.map((_, i) => conv16(5000 + i))],
          );
          assert.equal(Number(r.n), all.length);
          for (const i of [0, 17, 39]) assert.equal((await t.getConversation(conv16(5000 + i)))?.messageCount, 9);
          const [f] = await rawQuery(s)<{ n: string }>(
            `SELECT count(*)::text AS n FROM feedback WHERE conversation_id = ANY($1::bytea[])`,
            [sets.map((_, i) => conv16(5000 + i))],
          );
          assert.equal(Number(f.n), 80);
        } finally {
          await t.close();
        }
      });
    }
  });
}

const dir = mkdtempSync(join(tmpdir(), 'zx-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));
suite(
  'store on PGlite (file)',
  () => openStore({ dataDir: dir }),
  async (s) => {
    await s.close();
    return openStore({ dataDir: dir });
  },
);

const pgUrl = testPostgresUrl();
if (!pgUrl) {
  test('store on Postgres', { skip: skipWithoutPostgres() }, () => {});
} else {
  let dbh: Awaited<ReturnType<typeof createTestDatabase>>;
  before(async () => {
    dbh = await createTestDatabase(pgUrl);
  });
  after(async () => {
    await dbh?.drop();
  });
  suite(
    'store on Postgres',
    () => openStore({ databaseUrl: dbh.url }),
    async (s) => {
      await s.close();
      return openStore({ databaseUrl: dbh.url });
    },
    () => openStore({ databaseUrl: dbh.url }),
  );
}

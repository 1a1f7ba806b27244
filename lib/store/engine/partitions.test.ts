import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MsgType } from '../../protocol/types';
import { ingestBatch } from '../envelopes/ingest';
import { openStore, type Store } from '../index';
import {
  bytes32,
  conv16,
  createTestDatabase,
  makeItem,
  rawQuery,
  skipWithoutPostgres,
  testPostgresUrl,
} from '../testing';
import { type Db, openPglite, openPostgres } from './db';
import { applyMigrations } from './migrate';
import { epochsPerPartition, maxWindowPartitions, partitionKeeper } from './partitions';

const EPOCH = 60; // seconds: one partition = 10,080 epochs (a week)
const SPAN = epochsPerPartition(EPOCH);
const epochUs = BigInt(EPOCH) * 1_000_000n;
const A = bytes32(1, 0xa),
  B = bytes32(2, 0xb);

const item = (n: number, ts: bigint) =>
  makeItem({
    msgType: MsgType.PROPOSE,
    sender: A,
    recipient: B,
    conversationId: conv16(n),
    nonce: BigInt(n),
    timestamp: ts,
  });
const partOf = async (s: Store, id: Uint8Array) =>
  (await rawQuery(s)<{ p: string }>('SELECT tableoid::regclass::text AS p FROM envelope WHERE id = $1', [id])).map(
    (r) => r.p,
  );
const rangeName = (epoch: bigint) => {
  const lo = Number(epoch) - (Number(epoch) % SPAN);
  return `envelope_e${lo}_${lo + SPAN}`;
};

function suite(name: string, open: () => Promise<Store>) {
  describe(name, () => {
    let s: Store;
    before(async () => {
      s = await open();
    });
    after(async () => {
      await s?.close();
    });
    const nowUs = () => BigInt(Date.now()) * 1000n;
    const far = item(2, nowUs() + 400n * 86_400_000_000n); // no partition yet: the default

    test('the current and next epoch ranges and the default exist at start', async () => {
      assert.equal(s.envelopePartitions.span, SPAN);
      const names = (await s.envelopePartitions.list()).map((p) => p.name);
      const cur = nowUs() / epochUs;
      assert.ok(names.includes(rangeName(cur)), names.join());
      assert.ok(names.includes(rangeName(cur + BigInt(SPAN))), names.join());
      assert.ok(names.includes('envelope_default'));
    });

    test('rows land in the partition of their epoch; an id stored twice is one row', async () => {
      const now = item(1, nowUs());
      const r1 = await s.ingestEnvelopes([now, far, now]);
      assert.deepEqual([r1.inserted, r1.duplicates], [2, 1]);
      const r2 = await s.ingestEnvelopes([far, now]);
      assert.deepEqual([r2.inserted, r2.duplicates], [0, 2]);
      assert.deepEqual(await partOf(s, now.id), [rangeName(now.envelope.timestamp / epochUs)]);
      assert.deepEqual(await partOf(s, far.id), ['envelope_default']);
      const [row] = await rawQuery(s)<{ epoch: number }>('SELECT epoch FROM envelope WHERE id = $1', [now.id]);
      assert.equal(BigInt(row.epoch), now.envelope.timestamp / epochUs);
      assert.equal((await s.getEnvelope(far.id))?.epoch, Number(far.envelope.timestamp / epochUs));
    });

    test('creating a range moves its rows out of the default, keeping seq', async () => {
      const seq = (await s.getEnvelope(far.id))!.seq;
      const e = Number(far.envelope.timestamp / epochUs);
      await s.envelopePartitions.cover(e, e);
      assert.deepEqual(await partOf(s, far.id), [rangeName(BigInt(e))]);
      assert.equal((await s.getEnvelope(far.id))!.seq, seq);
      const again = await s.ingestEnvelopes([far]);
      assert.equal(again.duplicates, 1);
      const def = (await s.envelopePartitions.list()).find((p) => p.name === 'envelope_default');
      assert.equal(def?.rows, 0);
    });

    test('a time window reads exactly its envelopes across an epoch boundary', async () => {
      const edge = (nowUs() / epochUs - 3n) * epochUs; // start of an epoch three minutes ago
      const before = item(10, edge - 1n),
        at = item(11, edge),
        after = item(12, edge + epochUs);
      await s.ingestEnvelopes([before, at, after]);
      const got = await s.recentEnvelopes({
        agent: A,
        fromMs: Number(edge / 1000n),
        toMs: Number((edge + epochUs) / 1000n),
      });
      assert.deepEqual(got.map((g) => g.envelope.timestamp).sort(), [at.envelope.timestamp, after.envelope.timestamp]);
      const upTo = await s.recentEnvelopes({ type: MsgType.PROPOSE, toMs: Number((edge - 1n) / 1000n) });
      assert.ok(upTo.some((g) => g.envelope.timestamp === before.envelope.timestamp));
      assert.ok(!upTo.some((g) => g.envelope.timestamp >= edge));
    });

    test('a type in a time window pages newest-first by seq exactly, epoch by epoch or in one scan', async () => {
      const base = (nowUs() / epochUs - 200n) * epochUs;
      // 90 envelopes over 6 epochs, stored in an order unrelated to their timestamps, so seq and time disagree.
      const mine = Array.from({ length: 90 }, (_, i) =>
        makeItem({
          msgType: i % 3 === 0 ? MsgType.COUNTER : MsgType.PROPOSE,
          sender: B,
          recipient: A,
          conversationId: conv16(100 + i),
          nonce: 1000n + BigInt(i),
          timestamp: base + BigInt((i * 37) % 90) * (epochUs / 15n) + BigInt(i),
        }),
      );
      for (let i = 0; i < mine.length; i += 13) await s.ingestEnvelopes(mine.slice(i, i + 13).reverse());
      const all = await rawQuery(s)<{ seq: string; t: number; ts: string }>(
        `SELECT seq::text AS seq, msg_type AS t, timestamp::text AS ts FROM envelope`,
      );
      const ms = (us: bigint) => Number(us / 1000n);
      const windows = [
        [base, base + epochUs / 2n],
        [base + epochUs / 3n, base + 3n * epochUs + 5n],
        [base - 2n * epochUs, base + 10n * epochUs],
        [base - 100n * epochUs, base + 6n * epochUs], // wider than the epoch-by-epoch limit: one scan
      ];
      let compared = 0;
      for (const [from, to] of windows) {
        for (const type of [MsgType.PROPOSE, MsgType.COUNTER]) {
          const want = all
            .filter(
              (r) =>
                r.t === type &&
                BigInt(r.ts) >= BigInt(ms(from)) * 1000n &&
                BigInt(r.ts) <= BigInt(ms(to)) * 1000n + 999n,
            )
            .map((r) => BigInt(r.seq))
            .sort((a, b) => (a < b ? 1 : -1));
          let before: bigint | undefined;
          const got: bigint[] = [];
          for (;;) {
            const page = await s.recentEnvelopes({
              type,
              fromMs: ms(from),
              toMs: ms(to),
              limit: 7,
              ...(before !== undefined ? { before } : {}),
            });
            got.push(...page.map((e) => e.seq));
            if (page.length < 7) break;
            before = page[page.length - 1].seq;
          }
          assert.deepEqual(got, want, `type ${type}, window ${from}..${to}`);
          compared += want.length;
        }
      }
      assert.ok(compared > 100);
    });
  });
}

suite('envelope partitions on PGlite', () => openStore({ dataDir: ':memory:', epochSeconds: EPOCH }));

test('the next range is created when the clock enters a new one, and default rows move at start', async () => {
  const db = await openPglite();
  try {
    await applyMigrations({ db, factory: db.adapter });
    let clock = Date.UTC(2030, 0, 1);
    const k = partitionKeeper(db, EPOCH, { now: () => clock });
    await k.start();
    const names = async () => (await k.list()).map((p) => p.name).filter((n) => n !== 'envelope_default');
    const lo = Math.floor(clock / 1000 / EPOCH / SPAN) * SPAN;
    assert.deepEqual(await names(), [`envelope_e${lo}_${lo + SPAN}`, `envelope_e${lo + SPAN}_${lo + 2 * SPAN}`].sort());
    assert.equal(k.beforeIngest(), undefined); // nothing due within the range
    clock += SPAN * EPOCH * 1000;
    const due = k.beforeIngest();
    assert.ok(due);
    await due;
    assert.ok((await names()).includes(`envelope_e${lo + 2 * SPAN}_${lo + 3 * SPAN}`));
    // A row of a range with no partition waits in the default until the next start, which
    // creates its range when it lies in the archive window (20 days back) and not otherwise (2020).
    const recent = item(20, BigInt(clock - 20 * 86_400_000) * 1000n);
    const old = item(21, BigInt(Date.UTC(2020, 0, 1)) * 1000n);
    for (const it of [recent, old]) {
      await db.query(
        `INSERT INTO envelope (id, version, msg_type, sender, recipient, timestamp, block_ref, nonce, conversation_id,
        payload_hash, payload_len, signature, raw, source, received_at, epoch) VALUES ($1, 1, 3, $2, $3, $4, 0, 0, $5,
          $6, 0, $7, $8, 'upload', now(), $9)`,
        [
          it.id,
          A,
          B,
          it.envelope.timestamp.toString(),
          conv16(20),
          new Uint8Array(32),
          new Uint8Array(64),
          it.raw,
          Number(it.envelope.timestamp / epochUs),
        ],
      );
    }
    assert.equal((await k.list()).find((p) => p.name === 'envelope_default')?.rows, 2);
    await partitionKeeper(db, EPOCH, { now: () => clock }).start();
    const parts = await k.list();
    assert.equal(parts.find((p) => p.name === 'envelope_default')?.rows, 1, 'the 2020 row stays in the default');
    const epoch = Number(recent.envelope.timestamp / epochUs);
    const home = parts.find((p) => p.from !== null && p.from <= epoch && epoch < p.to!);
    assert.equal(home?.rows, 1);
  } finally {
    await db.close();
  }
});

/** 300 rows in 300 different weeks (250 back, 49 ahead), then a start: only the window's ranges are created. */
async function boundedSweep(db: Db): Promise<void> {
  await applyMigrations({ db, factory: db.adapter });
  const clock = Date.now();
  const k = partitionKeeper(db, EPOCH, { now: () => clock });
  await k.start();
  const WEEK_US = 7n * 86_400_000_000n;
  const nowUs = BigInt(clock) * 1000n;
  const rows = Array.from({ length: 300 }, (_, i) => item(5_000 + i, nowUs + BigInt(i - 250) * WEEK_US));
  await ingestBatch(db, rows, EPOCH);
  await partitionKeeper(db, EPOCH, { now: () => clock }).start();
  const parts = await k.list();
  const ranges = parts.filter((p) => p.name !== 'envelope_default');
  const bound = maxWindowPartitions(EPOCH);
  assert.ok(ranges.length <= bound, `${ranges.length} partitions, at most ${bound}`);
  assert.ok(ranges.length >= 4, 'the weeks inside the window did get their ranges');
  assert.equal(
    parts.reduce((n, p) => n + p.rows, 0),
    300,
    'every row is kept',
  );
  assert.ok(parts.find((p) => p.name === 'envelope_default')!.rows >= 290, 'the rest wait in the default');
}

test("300 rows in 300 different weeks create at most the archive window's partitions (PGlite)", async () => {
  const db = await openPglite();
  try {
    await boundedSweep(db);
  } finally {
    await db.close();
  }
});

const pgUrl = testPostgresUrl();
if (!pgUrl) {
  test('envelope partitions on Postgres', { skip: skipWithoutPostgres() }, () => {});
} else {
  let dbh: Awaited<ReturnType<typeof createTestDatabase>>;
  before(async () => {
    dbh = await createTestDatabase(pgUrl, 'zx_part');
  });
  after(async () => {
    await dbh?.drop();
  });
  suite('envelope partitions on Postgres', () => openStore({ databaseUrl: dbh.url, epochSeconds: EPOCH }));

  test("300 rows in 300 different weeks create at most the archive window's partitions (Postgres)", async () => {
    const h = await createTestDatabase(pgUrl, 'zx_part_bound');
    const db = await openPostgres(h.url, 2);
    try {
      await boundedSweep(db);
    } finally {
      await db.close();
      await h.drop();
    }
  });

  test('an unpartitioned database keeps its rows through the migration', async () => {
    // Migrations up to the one before partitioning, rows, then the rest: nothing lost, seq kept.
    const dir = mkdtempSync(join(tmpdir(), 'zx-part-mig-'));
    const h = await createTestDatabase(pgUrl, 'zx_part_mig');
    try {
      const { cpSync, readdirSync } = await import('node:fs');
      const { MIGRATIONS_DIR } = await import('./migrate');
      const { openPostgres } = await import('./db');
      for (const d of readdirSync(MIGRATIONS_DIR))
        if (d < '20261124040100') cpSync(join(MIGRATIONS_DIR, d), join(dir, d), { recursive: true });
      const db = await openPostgres(h.url, 2);
      try {
        await applyMigrations({ db, factory: db.adapter, migrationsDir: dir });
        const it = item(30, BigInt(Date.now()) * 1000n);
        await db.query(
          `INSERT INTO envelope (id, version, msg_type, sender, recipient, timestamp, block_ref, nonce, conversation_id,
          payload_hash, payload_len, signature, raw, source, received_at, epoch) VALUES ($1, 1, 3, $2, $3, $4, 0, 0, $5,
            $6, 0, $7, $8, 'upload', now(), $9)`,
          [
            it.id,
            A,
            B,
            it.envelope.timestamp.toString(),
            conv16(30),
            new Uint8Array(32),
            new Uint8Array(64),
            it.raw,
            Number(it.envelope.timestamp / epochUs),
          ],
        );
        const [{ seq }] = await db.query<{ seq: string }>('SELECT seq::text AS seq FROM envelope');
        await db.close();
        const s = await openStore({ databaseUrl: h.url, epochSeconds: EPOCH });
        try {
          assert.deepEqual(await partOf(s, it.id), [rangeName(it.envelope.timestamp / epochUs)]);
          assert.equal((await s.getEnvelope(it.id))!.seq.toString(), seq);
          const r = await s.ingestEnvelopes([it, item(31, BigInt(Date.now()) * 1000n)]);
          assert.deepEqual([r.inserted, r.duplicates], [1, 1]);
          const seqs = await rawQuery(s)<{ seq: string }>('SELECT seq::text AS seq FROM envelope ORDER BY seq');
          assert.ok(BigInt(seqs[1].seq) > BigInt(seq), 'the sequence continues after the moved rows');
        } finally {
          await s.close();
        }
      } catch (e) {
        await db.close().catch(() => undefined);
        throw e;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await h.drop();
    }
  });
}

/**
 * The stats rollups are kept by the writers (ingest statement, chain event insert, batch
 * verdicts) and read back as series: counts per interval at every resolution, distinct active
 * agents, exact volume and median price per service, rates with "unknown" when nothing divides;
 * a re-ingested duplicate, a replayed chain event or a repeated verdict counts nothing; a split
 * of the same envelopes into other batches gives the same rollups. On PGlite and Postgres.
 */

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { encodeNeg1 } from '../../protocol/neg1';
import { MsgType } from '../../protocol/types';
import { testOnEachStore } from '../backends-testing';
import { openPglite } from '../engine/db';
import { applyMigrations, MIGRATIONS_DIR } from '../engine/migrate';
import type { IngestItem, Store } from '../index';
import { openStore } from '../store';
import {
  bytes32,
  conv16,
  createTestDatabase,
  makeItem,
  rawQuery,
  skipWithoutPostgres,
  testPostgresUrl,
} from '../testing';

const MIN_US = 60_000_000n;
/** 2027-01-15T10:00:00Z: an hour starts here. */
const T0_S = 1_800_007_200;
const T0 = BigInt(T0_S) * 1_000_000n;
const SERVICE = bytes32(77, 1);
const ZERO = new Uint8Array(32);
const BIG = (1n << 70n) + 3n; // beyond 2^53 and int8: exactness end to end

const neg1 = (price: bigint) =>
  encodeNeg1({
    bidValue: price,
    tokenMint: ZERO,
    serviceHash: SERVICE,
    round: 0,
    deadline: 0n,
    decayBps: 0,
    maxRounds: 4,
    verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
    reason: 0,
    metadata: new Uint8Array(0),
  });

let nonce = 0n;
function item(msgType: number, sender: number, at: bigint, payload?: Uint8Array): IngestItem {
  return makeItem({
    msgType,
    sender: bytes32(sender),
    recipient: bytes32(900),
    conversationId: conv16(Number(nonce % 50n)),
    nonce: nonce++,
    timestamp: at,
    payload,
  });
}

/**
 * Minute 0: agents 1, 2, 3 send; 3 PROPOSE, 2 ACCEPT (prices 100 and BIG), 1 REJECT, 1 DISPUTE.
 * Minute 1: agent 1 sends twice; 1 ACCEPT at 100, 1 ACCEPT at 300, 1 ACCEPT at 200 (median 200).
 */
function corpus(): IngestItem[] {
  return [
    item(MsgType.PROPOSE, 1, T0 + 1n),
    item(MsgType.PROPOSE, 2, T0 + 2n),
    item(MsgType.PROPOSE, 3, T0 + 3n),
    item(MsgType.ACCEPT, 1, T0 + 4n, neg1(100n)),
    item(MsgType.ACCEPT, 2, T0 + 5n, neg1(BIG)),
    item(MsgType.REJECT, 3, T0 + 6n),
    item(MsgType.DISPUTE, 2, T0 + 7n),
    item(MsgType.BEACON, 1, T0 + MIN_US + 1n),
    item(MsgType.BEACON, 1, T0 + MIN_US + 2n),
    item(MsgType.ACCEPT, 4, T0 + MIN_US + 3n, neg1(100n)),
    item(MsgType.ACCEPT, 4, T0 + MIN_US + 4n, neg1(300n)),
    item(MsgType.ACCEPT, 5, T0 + MIN_US + 5n, neg1(200n)),
  ];
}

/** nowMs inside minute 1, so the 1h window ends with it. */
const NOW = (T0_S + 90) * 1000;
const series = (
  s: Store,
  metric: Parameters<Store['statsSeries']>[0]['metric'],
  range: '1h' | '24h' | '7d' | 'all' = '1h',
) => s.statsSeries({ metric, range, nowMs: NOW });
const last2 = (v: (string | null)[]) => v.slice(-2);
const snapshot = (s: Store) =>
  s.foldStats().then(() =>
    rawQuery(s)<
      Record<string, string>
    >(`SELECT res, bucket::text, envelopes::text, active_agents::text, opened::text, agreed::text,
  rejected::text, disputes::text FROM stats_bucket ORDER BY res, bucket`).then(async (b) => ({
      b,
      p: await rawQuery(s)(
        'SELECT res, bucket::text, price::text, deals::text FROM stats_price ORDER BY res, bucket, price',
      ),
      a: await rawQuery(s)<{ n: string }>(
        'SELECT COALESCE(sum(bit_count(mask::bit(64))), 0)::text AS n FROM stats_active_mask',
      ),
      v: await rawQuery(s)(
        'SELECT res, bucket::text, deals::text, volume::text FROM stats_service ORDER BY res, bucket',
      ),
      pending: await rawQuery(s)<{ n: string }>('SELECT count(*)::text AS n FROM stats_pending'),
    })),
  );

testOnEachStore(
  'ingest keeps the rollups: counts, active agents, exact volume and median, rates',
  async (s) => {
    const items = corpus();
    await s.ingestEnvelopes(items.slice(0, 5));
    await s.ingestEnvelopes(items.slice(3)); // overlaps: items 3 and 4 are duplicates now
    await s.ingestEnvelopes(items); // everything again
    const env = await series(s, 'envelopes');
    assert.equal(env.stepSeconds, 60);
    assert.equal(env.series[0].values.length, 60);
    assert.equal(
      env.to,
      new Date((T0_S + 120) * 1000).toISOString().replace('.000Z', 'Z'),
      'the window ends with the interval holding now',
    );
    assert.deepEqual(last2(env.series[0].values), ['0.116', '0.083'], '7 and 5 envelopes per 60 s');
    // Before the first observed minute nothing was seen: unknown, not a quiet mesh.
    assert.equal(env.observedFrom, new Date(Math.floor(T0_S / 60) * 60_000).toISOString().replace('.000Z', 'Z'));
    assert.deepEqual(
      env.series[0].values.slice(0, -2),
      new Array(58).fill(null),
      'intervals before anything was observed are null',
    );
    assert.deepEqual(last2((await series(s, 'active_agents')).series[0].values), ['3', '3'], 'agents 1,2,3 then 1,4,5');
    const neg = await series(s, 'negotiations');
    assert.deepEqual(
      neg.series.map((x) => [x.key, last2(x.values)]),
      [
        ['opened', ['3', '0']],
        ['agreed', ['2', '3']],
        ['rejected', ['1', '0']],
        ['expired', ['0', '0']],
      ],
    );
    assert.deepEqual(last2((await series(s, 'agreement_rate')).series[0].values), ['0.6666', '1.0000']);
    const dr = await series(s, 'dispute_rate');
    assert.deepEqual(last2(dr.series[0].values), ['0.5000', '0.0000']);
    assert.equal(dr.series[0].values[0], null, 'no agreement: unknown, not 0');
    const vol = await series(s, 'volume');
    assert.equal(vol.series.length, 1);
    assert.equal(vol.series[0].service, Buffer.from(SERVICE).toString('hex'));
    assert.deepEqual(last2(vol.series[0].values), [String(100n + BIG), '600']);
    const med = await series(s, 'median_price');
    assert.deepEqual(
      last2(med.series[0].values),
      ['100', '200'],
      'lower median of {100, BIG}; median of {100, 200, 300}',
    );
    assert.equal(med.series[0].values[0], null, 'no deal: no median');
    // Coarser resolutions hold the same totals; a day's median is over all five prices.
    const day = await series(s, 'median_price', '7d');
    assert.equal(day.stepSeconds, 3600);
    assert.equal(day.series[0].values.at(-1), '200', 'median of 100, 100, 200, 300, BIG');
    assert.equal((await series(s, 'active_agents', '24h')).series[0].values.at(-1), '5');
    const all = await series(s, 'envelopes', 'all');
    assert.equal(all.stepSeconds, 60, 'two minutes of data: minute points');
    assert.equal(all.series[0].values.length, 2);
  },
  { dbPrefix: 'zx_stats' },
);

testOnEachStore(
  'a median is stored once its interval is read, and a deal arriving late makes the next read recompute it',
  async (s) => {
    await s.ingestEnvelopes(corpus());
    await s.foldStats();
    const stored = () =>
      rawQuery(s)<{
        bucket: string;
        deals: string;
        volume: string;
        median: string | null;
        median_deals: string | null;
      }>(`SELECT bucket::text,
    deals::text, volume::text, median::text, median_deals::text FROM stats_service WHERE res = 60 ORDER BY bucket`);
    assert.deepEqual(
      (await stored()).map((r) => [r.deals, r.volume, r.median]),
      [
        ['2', String(100n + BIG), null],
        ['3', '600', null],
      ],
      'ingest keeps count and volume; no median before a read',
    );
    assert.deepEqual(last2((await series(s, 'median_price')).series[0].values), ['100', '200']);
    assert.deepEqual(
      (await stored()).map((r) => [r.median, r.median_deals]),
      [
        ['100', '2'],
        [null, null],
      ],
      "the read stored the ended minute's median with its count, not that of the minute holding now",
    );
    // A stored median is what the next read shows (nothing recomputes it while the count stands).
    await rawQuery(s)(`UPDATE stats_service SET median = 7 WHERE res = 60 AND bucket = $1::int8`, [String(T0_S)]);
    assert.deepEqual(last2((await series(s, 'median_price')).series[0].values), ['7', '200']);
    // A late ACCEPT in minute 0 moves its count past the stored one: that interval is recomputed.
    await s.ingestEnvelopes([item(MsgType.ACCEPT, 6, T0 + 8n, neg1(BIG)), item(MsgType.ACCEPT, 6, T0 + 9n, neg1(BIG))]);
    assert.deepEqual(
      last2((await series(s, 'median_price')).series[0].values),
      [String(BIG), '200'],
      'median of 100, BIG, BIG, BIG',
    );
    assert.deepEqual(
      (await stored()).map((r) => [r.deals, r.median, r.median_deals]),
      [
        ['4', String(BIG), '4'],
        ['3', null, null],
      ],
    );
    // Read once that minute has ended, its median is stored too.
    assert.equal(
      (await s.statsSeries({ metric: 'median_price', range: '1h', nowMs: NOW + 60_000 })).series[0].values.at(-2),
      '200',
    );
    assert.deepEqual(
      (await stored()).map((r) => r.median_deals),
      ['4', '3'],
    );
    assert.deepEqual(last2((await series(s, 'volume')).series[0].values), [String(100n + 3n * BIG), '600']);
  },
  { dbPrefix: 'zx_stats' },
);

testOnEachStore(
  'per-service charts show the services with the most deals in the window, most first',
  async (s) => {
    // Services 1..9 with k deals each at price 10 × k in minute 0: the one with a single deal is left out.
    const svc = (k: number) => bytes32(k, 0x5e);
    const accept = (k: number, i: number) =>
      item(
        MsgType.ACCEPT,
        100 + k,
        T0 + BigInt(k * 20 + i),
        encodeNeg1({
          bidValue: 10n * BigInt(k),
          tokenMint: ZERO,
          serviceHash: svc(k),
          round: 0,
          deadline: 0n,
          decayBps: 0,
          maxRounds: 4,
          verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
          reason: 0,
          metadata: new Uint8Array(0),
        }),
      );
    const items = [];
    for (let k = 1; k <= 9; k++) for (let i = 0; i < k; i++) items.push(accept(k, i));
    await s.ingestEnvelopes(items);
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
    const vol = await series(s, 'volume');
    assert.deepEqual(
      vol.series.map((x) => x.service),
      [9, 8, 7, 6, 5, 4, 3, 2].map((k) => hex(svc(k))),
      'eight, by deals',
    );
    assert.deepEqual(
      vol.series.map((x) => x.values.at(-2)),
      [9, 8, 7, 6, 5, 4, 3, 2].map((k) => String(10n * BigInt(k * k))),
    );
    assert.deepEqual(
      vol.series.map((x) => x.values.at(-1)),
      new Array(8).fill('0'),
      'no deal: zero volume',
    );
    const med = await series(s, 'median_price');
    assert.deepEqual(
      med.series.map((x) => [x.values.at(-2), x.values.at(-1)]),
      [9, 8, 7, 6, 5, 4, 3, 2].map((k) => [String(10 * k), null]),
    );
  },
  { dbPrefix: 'zx_stats' },
);

testOnEachStore(
  'without the stats rollups (what bench:query measures them against) ingest stores the envelopes and no rollup row',
  async (s) => {
    assert.equal((await s.ingestEnvelopes(corpus())).inserted, 12);
    const [r] = await rawQuery(s)<{
      n: string;
    }>(`SELECT ((SELECT count(*) FROM stats_bucket) + (SELECT count(*) FROM stats_active_mask)
    + (SELECT count(*) FROM stats_price) + (SELECT count(*) FROM stats_service))::text AS n`);
    assert.equal(r.n, '0');
    const [e] = await rawQuery(s)<{ n: string }>('SELECT count(*)::text AS n FROM envelope');
    assert.equal(e.n, '12');
  },
  { dbPrefix: 'zx_stats', statsRollups: false },
);

testOnEachStore(
  'a re-ingested duplicate counts nothing, and any batching gives the same rollups',
  async (s) => {
    const items = corpus();
    await s.ingestEnvelopes(items);
    const once = await snapshot(s);
    assert.ok(once.b.length > 0 && Number(once.a[0].n) > 0, 'rollups were written');
    await s.ingestEnvelopes(items);
    for (const it of items) await s.ingestEnvelopes([it]);
    assert.deepEqual(await snapshot(s), once, 'duplicates changed nothing');
    // The same envelopes one by one, reversed, into a second database agree with one batch,
    // whether each is folded alone or all of them in one fold.
    const clear = () =>
      rawQuery(s)(
        'TRUNCATE stats_bucket, stats_active_mask, stats_price, stats_service, ' +
          'stats_pending, envelope, agent, conversation, agent_pair, msg_type_counter',
      );
    await clear();
    for (const it of [...items].reverse()) await s.ingestEnvelopes([it]);
    const [{ n }] = await rawQuery(s)<{ n: string }>('SELECT count(*)::text AS n FROM stats_pending');
    assert.equal(n, String(items.length), 'one pending row per statement that inserted');
    assert.deepEqual(await snapshot(s), once, 'one by one in reverse, folded at once = one batch');
    await clear();
    for (const it of [...items].reverse()) {
      await s.ingestEnvelopes([it]);
      await s.foldStats();
    }
    assert.deepEqual(await snapshot(s), once, 'one by one in reverse, each folded alone = one batch');
  },
  { dbPrefix: 'zx_stats' },
);

testOnEachStore(
  'chain events and batch verdicts are counted once, by block time',
  async (s) => {
    const at = new Date((T0_S + 30) * 1000);
    const ev = (sig: string, name: string, data: unknown) => ({
      signature: sig,
      index: 0,
      slot: 1n,
      program: 'p',
      name,
      data,
      blockTime: at,
    });
    const events = [
      ev('a', 'BatchSubmitted', {}),
      ev('b', 'ChallengeSubmitted', {}),
      ev('c', 'ChallengeResolved', {}),
      ev('d', 'NegotiationRefunded', { status: 6 }),
      ev('e', 'NegotiationRefunded', { status: 7 }),
      ev('f', 'LeasePaid', {}),
    ];
    assert.equal((await s.insertChainEvents(events)).inserted, 6);
    assert.equal((await s.insertChainEvents(events)).inserted, 0);
    const ch = await series(s, 'challenges');
    assert.deepEqual(
      ch.series.map((x) => [x.key, x.values.at(-2)]),
      [
        ['opened', '1'],
        ['resolved', '1'],
      ],
    );
    assert.deepEqual(
      (await series(s, 'negotiations')).series.find((x) => x.key === 'expired')?.values.at(-2),
      '1',
      'only the expired refund',
    );
    // Verdicts count when they change, in the interval they were reached (now, by the database clock).
    const A = bytes32(5);
    await s.upsertBatch({ agentId: A, epoch: 4n, batchHash: bytes32(6), root: bytes32(7), slot: 2n, signature: 'a' });
    await s.setBatchStatus(A, 4n, 'unverified');
    await s.setBatchStatus(A, 4n, 'verified', bytes32(7));
    await s.setBatchStatus(A, 4n, 'verified', bytes32(7));
    await s.upsertBatch({ agentId: A, epoch: 5n, batchHash: bytes32(6), root: bytes32(7), slot: 3n, signature: 'b' });
    await s.setBatchStatus(A, 5n, 'mismatch', bytes32(8));
    const b = await s.statsSeries({ metric: 'batches', range: '1h', nowMs: Date.now() });
    assert.deepEqual(
      b.series.map((x) => [x.key, x.values.reduce((t, v) => t + Number(v), 0)]),
      [
        ['verified', 1],
        ['mismatched', 1],
        ['submitted', 0],
      ],
    );
    assert.equal(
      (await s.statsSeries({ metric: 'batches', range: '1h', nowMs: NOW })).series[2].values.at(-2),
      '1',
      'submitted by block time',
    );
  },
  { dbPrefix: 'zx_stats' },
);

/**
 * A PGlite database migrated up to (not including) the migration whose name ends with `suffix`,
 * handed to `fn`; closed and its copied migrations removed afterwards.
 */
async function beforeMigration(
  suffix: string,
  fn: (db: Awaited<ReturnType<typeof openPglite>>) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'zx-stats-migrations-'));
  const names = readdirSync(MIGRATIONS_DIR).sort();
  const target = names.find((n) => n.endsWith(suffix));
  assert.ok(target, `the ${suffix} migration exists`);
  for (const n of names)
    if (n < target! || n === 'migration_lock.toml') cpSync(join(MIGRATIONS_DIR, n), join(dir, n), { recursive: true });
  const db = await openPglite();
  try {
    await applyMigrations({ db, factory: db.adapter, migrationsDir: dir });
    await fn(db);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('upgrading a database that holds envelopes and chain events backfills the rollups', async () => {
  // The migrations before the stats one, then rows, then the stats migration.
  await beforeMigration('_stats_rollups', async (db) => {
    const env = (i: number, type: number, sender: number) =>
      db.query(
        `INSERT INTO envelope (id, version, msg_type, sender, recipient, timestamp, block_ref, nonce,
      conversation_id, payload_hash, payload_len, signature, raw, source, received_at, epoch)
      VALUES ($1, 1, $2, $3, $4, $5::int8, 0, $6, $7, $1, 0, $1, $1, 'gossip', now(), 0)`,
        [bytes32(i, 9), type, bytes32(sender), bytes32(900), String(T0 + BigInt(i)), i, conv16(i)],
      );
    await env(1, MsgType.PROPOSE, 1);
    await env(2, MsgType.PROPOSE, 2);
    await env(3, MsgType.PROPOSE, 1);
    await env(4, MsgType.ACCEPT, 2);
    await db.query(
      `INSERT INTO chain_event (signature, index, slot, program, name, data, ` +
        `block_time) VALUES ('s', 0, 1, 'p', 'BatchSubmitted', '{}', to_timestamp($1))`,
      [T0_S + 5],
    );
    await applyMigrations({ db, factory: db.adapter });
    const [row] = await db.query<Record<string, string>>(
      `SELECT envelopes::text, active_agents::text, opened::text, agreed::text, batches_submitted::text
      FROM stats_bucket WHERE res = 60 AND bucket = $1::int8`,
      [String(T0_S)],
    );
    assert.deepEqual(row, { envelopes: '4', active_agents: '2', opened: '3', agreed: '1', batches_submitted: '1' });
    const [{ n }] = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM stats_bucket WHERE res = 86400');
    assert.equal(n, '1', 'one day row');
  });
});

test('upgrading a database that holds price rows fills the per-service rows, medians included', async () => {
  await beforeMigration('_stats_service', async (db) => {
    // Minute 0: 100 ×2, 300 ×1 (median 100). Minute 1: 5, BIG (lower median 5). Their quarter hour: all five (median
    // 100).
    await db.query(
      `INSERT INTO stats_price (res, bucket, service, token, price, deals) VALUES
      (60, $1::int8, $3, $4, 100, 2), (60, $1::int8, $3, $4, 300, 1), (60, $2::int8, $3, $4, 5, 1), (60, $2::int8, $3,
        $4, $5::numeric, 1),
      (900, $1::int8, $3, $4, 5, 1), (900, $1::int8, $3, $4, 100, 2), (900, $1::int8, $3, $4, 300, 1), (900, $1::int8,
        $3, $4, $5::numeric, 1)`,
      [String(T0_S), String(T0_S + 60), SERVICE, ZERO, String(BIG)],
    );
    await applyMigrations({ db, factory: db.adapter });
    const rows = await db.query<
      Record<string, string>
    >(`SELECT res::text, bucket::text, deals::text, volume::text, median::text, median_deals::text
      FROM stats_service ORDER BY res, bucket`);
    assert.deepEqual(rows, [
      { res: '60', bucket: String(T0_S), deals: '3', volume: '500', median: '100', median_deals: '3' },
      { res: '60', bucket: String(T0_S + 60), deals: '2', volume: String(5n + BIG), median: '5', median_deals: '2' },
      { res: '900', bucket: String(T0_S), deals: '5', volume: String(505n + BIG), median: '100', median_deals: '5' },
    ]);
    const [{ n }] = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM stats_price WHERE res <> 60');
    assert.equal(n, '0', 'prices are kept per minute only');
  });
});

test('upgrading a database that holds per-agent active rows turns them into masks with the same agents', async () => {
  await beforeMigration('_stats_active_mask', async (db) => {
    // 70 agents, so the masks span two words; agent k active in the minute when k is even, all in the quarter hour.
    for (let k = 1; k <= 70; k++) {
      await db.query('INSERT INTO agent (id, first_seen, last_seen) VALUES ($1, now(), now())', [bytes32(k)]);
      if (k % 2 === 0)
        await db.query('INSERT INTO stats_active (res, bucket, agent) VALUES (60, $1::int8, $2)', [
          String(T0_S),
          bytes32(k),
        ]);
      await db.query('INSERT INTO stats_active (res, bucket, agent) VALUES (900, $1::int8, $2)', [
        String(T0_S),
        bytes32(k),
      ]);
    }
    await applyMigrations({ db, factory: db.adapter });
    const active = async (res: number) =>
      (
        await db.query<{ hex: string }>(
          `SELECT encode(a.id, 'hex') AS hex FROM agent a JOIN stats_active_mask m
      ON m.res = $1 AND m.bucket = $2::int8 AND m.word = a.idx / 64 AND (m.mask >> (a.idx % 64)) & 1 = 1 ORDER BY 1`,
          [res, String(T0_S)],
        )
      ).map((r) => r.hex);
    const hexOf = (k: number) => Buffer.from(bytes32(k)).toString('hex');
    assert.deepEqual(await active(60), Array.from({ length: 35 }, (_, i) => hexOf(2 * (i + 1))).sort());
    assert.deepEqual(await active(900), Array.from({ length: 70 }, (_, i) => hexOf(i + 1)).sort());
    const [{ words }] = await db.query<{ words: string }>(
      'SELECT count(*)::text AS words FROM stats_active_mask WHERE res = 900',
    );
    assert.equal(words, '2', '70 agents fill two words');
  });
});

testOnEachStore(
  'active agents across mask words: each agent once per interval, at every resolution',
  async (s) => {
    // 130 agents (three 64-agent words) in the first minute, the same 130 and one more in the next.
    const first = Array.from({ length: 130 }, (_, k) => item(MsgType.ADVERTISE, 1000 + k, T0 + BigInt(k)));
    await s.ingestEnvelopes(first.slice(0, 70));
    await s.ingestEnvelopes(first.slice(50)); // 20 already stored: duplicates add nothing
    const second = Array.from({ length: 131 }, (_, k) => item(MsgType.ADVERTISE, 1000 + k, T0 + MIN_US + BigInt(k)));
    for (let i = 0; i < second.length; i += 40) await s.ingestEnvelopes(second.slice(i, i + 40));
    await s.foldStats();
    const rows = await rawQuery(s)<{ res: number; bucket: string; active_agents: string }>(
      `SELECT res, bucket::text, active_agents::text FROM stats_bucket
    WHERE bucket >= $1::int8 - 86400 ORDER BY res, bucket`,
      [String(T0_S)],
    );
    const at = (res: number, bucket: number) =>
      rows.find((r) => r.res === res && r.bucket === String(bucket))?.active_agents;
    assert.equal(at(60, T0_S), '130');
    assert.equal(at(60, T0_S + 60), '131');
    assert.equal(at(900, T0_S), '131');
    assert.equal(at(3600, T0_S), '131');
    assert.equal(at(86400, Math.floor(T0_S / 86400) * 86400), '131');
  },
  { dbPrefix: 'zx_stats' },
);

testOnEachStore(
  'the "all" range ranks services by their all-time rows, as a window over the same data would',
  async (s) => {
    // Nine services (one more than a chart shows), service k agreeing k deals at price 10 + k, in the last hour.
    const deal = (k: number, i: number) =>
      item(
        MsgType.ACCEPT,
        300 + k,
        T0 + BigInt(i) * MIN_US,
        encodeNeg1({
          bidValue: BigInt(10 + k),
          tokenMint: ZERO,
          serviceHash: bytes32(500 + k, 2),
          round: 0,
          deadline: 0n,
          decayBps: 0,
          maxRounds: 4,
          verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
          reason: 0,
          metadata: new Uint8Array(0),
        }),
      );
    const items = [];
    for (let k = 1; k <= 9; k++) for (let i = 0; i < k; i++) items.push(deal(k, i));
    for (let i = 0; i < items.length; i += 7) await s.ingestEnvelopes(items.slice(i, i + 7));
    const nowMs = (T0_S + 600) * 1000;
    const all = await s.statsSeries({ metric: 'volume', range: 'all', nowMs });
    const hour = await s.statsSeries({ metric: 'volume', range: '1h', nowMs });
    const services = (x: typeof all) => x.series.map((v) => v.service);
    assert.equal(all.series.length, 8);
    assert.deepEqual(services(all), services(hour), 'same ranking as the window read');
    assert.deepEqual(
      services(all),
      [9, 8, 7, 6, 5, 4, 3, 2].map((k) => Buffer.from(bytes32(500 + k, 2)).toString('hex')),
    );
    const total = (x: typeof all) => x.series.map((v) => v.values.reduce((t, y) => t + BigInt(y ?? 0), 0n));
    assert.deepEqual(
      total(all),
      [9, 8, 7, 6, 5, 4, 3, 2].map((k) => BigInt(k * (10 + k))),
    );
    const [t] = await rawQuery(s)<{ deals: string; volume: string }>(
      'SELECT sum(deals)::text AS deals, sum(volume)::text AS volume FROM stats_service WHERE res = 0',
    );
    assert.deepEqual(t, {
      deals: '45',
      volume: String([1, 2, 3, 4, 5, 6, 7, 8, 9].reduce((a, k) => a + k * (10 + k), 0)),
    });
  },
  { dbPrefix: 'zx_stats' },
);

test('stats a stopped process left pending are folded by the ' +
  'next one at open; stores folding at once count each row once', {
  skip: skipWithoutPostgres(),
}, async () => {
  const ref = await openStore({ dataDir: ':memory:' });
  const db = await createTestDatabase(testPostgresUrl()!, 'zx_stats');
  const stores: Store[] = [ref];
  try {
    const items = corpus();
    await ref.ingestEnvelopes(items);
    const want = await snapshot(ref);
    // A process that never folds: its ingest commits, its stats stay pending, as after a crash.
    const a = await openStore({ databaseUrl: db.url, statsFoldMs: 0 });
    stores.push(a);
    await a.ingestEnvelopes(items.slice(0, 6));
    const pending = async () =>
      Number((await rawQuery(a)<{ n: string }>('SELECT count(*)::text AS n FROM stats_pending'))[0].n);
    assert.equal(await pending(), 1);
    const b = await openStore({ databaseUrl: db.url, statsFoldMs: 20 });
    stores.push(b);
    for (let i = 0; i < 200 && (await pending()) > 0; i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(await pending(), 0, 'the store opened next folded what the first left');
    for (const it of items.slice(6)) await a.ingestEnvelopes([it]);
    await Promise.all([a.foldStats(), b.foldStats(), a.foldStats(), b.foldStats()]);
    assert.deepEqual(await snapshot(b), want, 'the same rollups as one store ingesting everything at once');
  } finally {
    for (const s of stores) await s.close();
    await db.drop();
  }
});

// The envelope snapshot a release reads (export.ts exportSeqWatermark): on Postgres a writer can take a lower
// `seq` and commit after another writer's higher one, so the answer must wait for writers in flight;
// a writer that holds on past the lock timeout fails the read (the release is retried).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { loadFixture, makeDeals } from '../../export/deals-testing';
import { openStore, type Store } from '..';
import { createTestDatabase, skipWithoutPostgres, testPostgresUrl } from '../testing';

const url = testPostgresUrl();
const EPOCH_SECONDS = 3_600;
const COLS =
  'version, msg_type, sender, recipient, timestamp, block_ref, nonce, conversation_id, ' +
  'payload_hash, payload_len, signature, raw, source, topic, received_at, epoch';

describe('the envelope snapshot on Postgres', { skip: skipWithoutPostgres() }, () => {
  let store: Store;
  let drop: () => Promise<void>;
  let dbUrl: string;
  const watermark = () => store.exportSource('release').seqWatermark();
  before(async () => {
    const d = await createTestDatabase(url!, 'zx_watermark');
    dbUrl = d.url;
    drop = d.drop;
    store = await openStore({ databaseUrl: dbUrl, epochSeconds: EPOCH_SECONDS, poolSize: 2 });
    await loadFixture(store, makeDeals({ deals: 2, seed: 5 }), EPOCH_SECONDS);
  });
  after(async () => {
    await store?.close();
    await drop?.();
  });

  /** A copy of a stored envelope under a new id, inserted on `c` (in whatever transaction it has open); its seq. */
  const insertCopy = async (c: pg.Client, tag: number) => {
    const r = await c.query(
      `INSERT INTO envelope (id, ${COLS}) SELECT sha256(id || $1::bytea), ` +
        `${COLS} FROM envelope ORDER BY seq LIMIT 1 RETURNING seq::text AS seq`,
      [Buffer.from([tag])],
    );
    return BigInt(r.rows[0].seq);
  };

  test('waits for a writer holding a lower seq, so every seq at or below the answer is committed', async () => {
    const slow = new pg.Client({ connectionString: dbUrl });
    const fast = new pg.Client({ connectionString: dbUrl });
    await slow.connect();
    await fast.connect();
    try {
      await slow.query('BEGIN');
      const low = await insertCopy(slow, 1);
      const high = await insertCopy(fast, 2); // committed at once, with the higher seq
      assert.ok(high > low);
      let committedAt = 0;
      const answer = watermark().then((w) => ({ w, at: Date.now() }));
      await new Promise((r) => setTimeout(r, 500));
      committedAt = Date.now();
      await slow.query('COMMIT');
      const { w, at } = await answer;
      assert.ok(at >= committedAt, 'answered only once the lower seq was committed');
      assert.ok(w >= high, `watermark ${w} covers ${high}`);
    } finally {
      await slow.end();
      await fast.end();
    }
  });

  test('a writer that holds on past the lock timeout fails the read instead of stalling ingest', async () => {
    const slow = new pg.Client({ connectionString: dbUrl });
    await slow.connect();
    try {
      await slow.query('BEGIN');
      await insertCopy(slow, 3);
      await assert.rejects(watermark(), /lock timeout/);
      await slow.query('ROLLBACK');
    } finally {
      await slow.end();
    }
  });
});

// The stored stage is the state machine of lib/protocol/conversation-state.ts: its SQL form agrees
// with the function on every set of types, and the migration re-derives stored conversations.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CONVERSATION_STAGES, conversationStateOfMask, typesSeenMask } from '../../protocol/conversation-state';
import { MsgType as T } from '../../protocol/types';
import { openPglite } from '../engine/db';
import { applyMigrations, MIGRATIONS_DIR } from '../engine/migrate';
import { bytes32, conv16 } from '../testing';
import { storedStateSql } from './derive';

const MIGRATION = '_conversation_state_machine';

test('the SQL form gives the same state as the function for every set of conversation types', async () => {
  const db = await openPglite();
  try {
    const { state, outcome } = storedStateSql('m');
    const types = [
      T.DISCOVER,
      T.PROPOSE,
      T.COUNTER,
      T.ACCEPT,
      T.REJECT,
      T.DELIVER,
      T.NOTARIZE_BID,
      T.NOTARIZE_ASSIGN,
      T.VERDICT,
      T.FEEDBACK,
      T.DISPUTE,
    ];
    const masks: number[] = [];
    for (let k = 0; k < 1 << types.length; k++) masks.push(typesSeenMask(types.filter((_, i) => k & (1 << i))));
    const rows = await db.query<{ m: number; state: string; outcome: string | null }>(
      `SELECT m, ${state} AS state, ${outcome} AS outcome FROM unnest($1::int[]) AS m`,
      [masks],
    );
    assert.equal(rows.length, 2048);
    for (const r of rows) {
      const want = conversationStateOfMask(r.m);
      assert.deepEqual([r.state, r.outcome ?? 'open'], [want.stage, want.outcome], `mask ${r.m}`);
      assert.ok((CONVERSATION_STAGES as readonly string[]).includes(r.state));
    }
  } finally {
    await db.close();
  }
});

test('the migration derives with the same expressions as the ingest statement', () => {
  const dir = readdirSync(MIGRATIONS_DIR).find((n) => n.endsWith(MIGRATION))!;
  const sql = readFileSync(join(MIGRATIONS_DIR, dir, 'migration.sql'), 'utf8');
  const { state, outcome } = storedStateSql('c.types_seen');
  assert.ok(
    sql.includes(`"state" = ${state}, "outcome" = ${outcome};`),
    "regenerate the migration's UPDATE from storedStateSql when the rules change",
  );
});

test('upgrading a database re-derives every stored conversation: feedback alone is no longer agreed', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zx-convstate-migrations-'));
  const names = readdirSync(MIGRATIONS_DIR).sort();
  const target = names.find((n) => n.endsWith(MIGRATION))!;
  for (const n of names)
    if (n < target || n === 'migration_lock.toml') cpSync(join(MIGRATIONS_DIR, n), join(tmp, n), { recursive: true });
  const db = await openPglite();
  try {
    await applyMigrations({ db, factory: db.adapter, migrationsDir: tmp });
    let i = 0;
    const env = (conv: number, type: number) =>
      db.query(
        `INSERT INTO envelope (id, version, msg_type, sender, recipient, timestamp, block_ref, nonce,
      conversation_id, payload_hash, payload_len, signature, raw, source, received_at, epoch)
      VALUES ($1, 1, $2, $3, $3, $4::int8, 0, $5, $6, $1, 0, $1, $1, 'gossip', now(), 0)`,
        [bytes32(++i, 9), type, bytes32(1), String(1_000 + i), i, conv16(conv)],
      );
    // As the old ingest stored them: the furthest rank reached, FEEDBACK counting as completed.
    const conv = (n: number, state: string, rank: number, outcome: string | null) =>
      db.query(
        `INSERT INTO conversation (id, participants, first_seen, last_seen, last_ts, state, state_rank,
      message_count, last_type, outcome) VALUES ($1, ARRAY[$2::bytea], now(), now(), 0, $3, $4, 1, 11, $5)`,
        [conv16(n), bytes32(1), state, rank, outcome],
      );
    await env(1, T.FEEDBACK);
    await env(1, T.FEEDBACK);
    await conv(1, 'completed', 7, 'agreed');
    for (const t of [T.PROPOSE, T.ACCEPT, T.DELIVER, T.FEEDBACK]) await env(2, t);
    await conv(2, 'completed', 7, 'agreed');
    await env(3, T.PROPOSE);
    await conv(3, 'negotiating', 1, null);
    await applyMigrations({ db, factory: db.adapter });
    const rows = await db.query<{ state: string; outcome: string | null; types_seen: number }>(
      'SELECT state, outcome, types_seen FROM conversation ORDER BY id',
    );
    assert.deepEqual(
      rows.map((r) => [r.state, r.outcome]),
      [
        ['feedback_without_deal', 'no_deal'],
        ['completed', 'agreed'],
        ['negotiating', null],
      ],
    );
    assert.equal(rows[1].types_seen, typesSeenMask([T.PROPOSE, T.ACCEPT, T.DELIVER, T.FEEDBACK]));
  } finally {
    await db.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

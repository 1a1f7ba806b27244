/**
 * PGlite has no checkpointer process: without checkpoints of its own the WAL since the last one
 * only grows, and past the checkpoint distance every new segment stalls the process for 60 s
 * (lib/store/engine/db.ts). The store checkpoints itself once the WAL since the last checkpoint passes a
 * threshold; this writes several times that threshold and checks the distance stays bounded.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openPglite } from './db';

const MB = 2 ** 20;

test('file-backed PGlite checkpoints itself: the WAL since the last checkpoint stays near the threshold', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zx-pglite-wal-'));
  const db = await openPglite(join(dir, 'db'), { checkpointBytes: 4 * MB, checkpointCheckMs: 20 });
  try {
    const sinceCheckpoint = async () =>
      Number(
        (
          await db.query<{ since: string }>(
            'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::text AS since FROM pg_control_checkpoint()',
          )
        )[0].since,
      );
    await db.query('CREATE TABLE filler (id serial PRIMARY KEY, b text)');
    let written = 0;
    const start = Number(
      (await db.query<{ lsn: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS lsn"))[0].lsn,
    );
    while (written < 24 * MB) {
      await db.query('INSERT INTO filler (b) SELECT repeat(md5(g::text), 16) FROM generate_series(1, 1000) g');
      await new Promise((r) => setTimeout(r, 30));
      written =
        Number(
          (await db.query<{ lsn: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS lsn"))[0].lsn,
        ) - start;
    }
    await new Promise((r) => setTimeout(r, 200));
    const since = await sinceCheckpoint();
    assert.ok(
      since < 8 * MB,
      `${(since / MB).toFixed(1)} MB of WAL since the last checkpoint ` +
        `after writing ${(written / MB).toFixed(1)} MB (threshold 4 MB)`,
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

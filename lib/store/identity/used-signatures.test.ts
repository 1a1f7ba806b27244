// A signature is used once, across restarts: the first claim of its 64 bytes wins (of many at
// once too), a reopened store on the same database still knows it, and rows are pruned only
// once expired. Both backends: PGlite on disk (reopened) and Postgres (a second store on it).

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStore, type Store } from '../index';
import { createTestDatabase, skipWithoutPostgres, testPostgresUrl } from '../testing';

const sig = (b: number) => new Uint8Array(64).fill(b);
const later = (ms: number) => new Date(Date.now() + ms);

async function story(open: () => Promise<Store>): Promise<void> {
  const first = await open();
  try {
    assert.equal(await first.usedSignatures.claim(sig(1), 'watchlist-bind', later(60_000)), true);
    assert.equal(
      await first.usedSignatures.claim(sig(1), 'watchlist-by-wallet', later(60_000)),
      false,
      'used once, whatever for',
    );
    const racing = await Promise.all(
      Array.from({ length: 10 }, () => first.usedSignatures.claim(sig(2), 'dispute-opinion', later(60_000))),
    );
    assert.equal(racing.filter(Boolean).length, 1, 'of ten concurrent uses exactly one wins');
    await assert.rejects(first.usedSignatures.claim(new Uint8Array(63), 'x', later(1)), RangeError);
    assert.equal(await first.usedSignatures.claim(sig(3), 'x', new Date(Date.now() - 1)), true);
  } finally {
    await first.close();
  }
  const again = await open();
  try {
    assert.equal(
      await again.usedSignatures.claim(sig(1), 'watchlist-bind', later(60_000)),
      false,
      'still used after the restart',
    );
    // That claim pruned the expired row (the first claim of a process prunes): its bytes are free again.
    assert.equal(await again.usedSignatures.prune(), 0);
    assert.equal(await again.usedSignatures.claim(sig(3), 'x', later(60_000)), true, 'the expired row was pruned');
    assert.equal(
      await again.usedSignatures.claim(sig(2), 'dispute-opinion', later(60_000)),
      false,
      'unexpired rows are kept',
    );
  } finally {
    await again.close();
  }
}

test('PGlite: a used signature stays used after the store is reopened on the same directory', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'zx-used-sig-'));
  try {
    await story(() => openStore({ dataDir: dir }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('Postgres: a used signature stays used after the store is reopened on the same database', {
  skip: skipWithoutPostgres(),
}, async () => {
  const db = await createTestDatabase(testPostgresUrl()!, 'zx_used_sig');
  try {
    await story(() => openStore({ databaseUrl: db.url }));
  } finally {
    await db.drop();
  }
});

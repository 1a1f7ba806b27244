// The release-signing key: created on first use, also where no data folder exists yet (an observer
// on a Postgres server has none before its first release), and the same key on every later start.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadOrCreateSigningKey } from './signing';

test('the key is created with its folder on first use and read back unchanged', () => {
  const root = mkdtempSync(join(tmpdir(), 'zerox1-signing-'));
  try {
    const path = join(root, 'not', 'yet', 'datasets-signing-key');
    const a = loadOrCreateSigningKey(path, 'observer');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const b = loadOrCreateSigningKey(path, 'observer');
    assert.deepEqual(b, a);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createRelease } from './release';
import { listReleases } from './release-list';
import type { ReleaseManifest } from './release-manifest';
import { startReleaseScheduler } from './release-scheduler';
import { TABLES } from './tables';
import { collect, EPOCH_SECONDS, type FixtureStore, fixtureStore } from './testing';
import { readManifests, readParquet, verifyRelease } from './verify';
import { writeFormat } from './writers';

const failures = (r: { ok: boolean; name: string; detail?: string }[]) => r.filter((c) => !c.ok);

describe('dataset releases', () => {
  let fs: FixtureStore;
  let dir: string;
  let epoch: number;
  let manifest: ReleaseManifest;
  before(async () => {
    fs = await fixtureStore('pglite');
    dir = mkdtempSync(join(tmpdir(), 'zx-datasets-'));
    epoch = Number(fs.fx.items[0].envelope.timestamp / BigInt(EPOCH_SECONDS * 1_000_000));
    manifest = await createRelease({ store: fs.store, epoch, dir });
  });
  after(async () => {
    await fs?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the manifest counts the rows of the epoch and names its batch roots and logs', async () => {
    const e = BigInt(EPOCH_SECONDS * 1_000_000);
    const inEpoch = fs.fx.items.filter((i) => i.envelope.timestamp / e === BigInt(epoch));
    assert.equal(manifest.tables.envelopes.rows, inEpoch.length);
    assert.ok(manifest.tables.offers.rows > 10 && manifest.tables.negotiations.rows > 3);
    const batches = await fs.store.listBatches({ epoch: BigInt(epoch) });
    assert.equal(manifest.batches.length, batches.length);
    assert.ok(manifest.batches.every((b) => b.log.length > 0));
    assert.equal(listReleases(dir)[0].epoch, epoch);
    // Immutable: a second call returns the stored manifest untouched.
    assert.deepEqual(await createRelease({ store: fs.store, epoch, dir }), manifest);
  });

  test('an untouched release verifies: hashes, ids, signatures, batch roots', async () => {
    const r = await verifyRelease(dir, readManifests(dir)[0]);
    assert.deepEqual(failures(r), []);
    // Per table its file and rows, the envelopes' bytes and columns, the derived tables, and per batch the table and
    // the log.
    assert.ok(r.length >= 14 + 5 + 2 * manifest.batches.length, String(r.length));
  });

  test('one changed byte in a file is caught', async () => {
    const path = join(dir, manifest.tables.negotiations.file);
    const orig = readFileSync(path);
    const bad = Buffer.from(orig);
    bad[Math.floor(bad.length / 2)] ^= 0x01;
    writeFileSync(path, bad);
    try {
      const f = failures(await verifyRelease(dir, manifest));
      assert.ok(
        f.some((c) => c.name.endsWith('negotiations: sha256')),
        JSON.stringify(f),
      );
    } finally {
      writeFileSync(path, orig);
    }
  });

  test('a removed envelope row is caught by the batch root, even with the manifest re-hashed', async () => {
    const path = join(dir, manifest.tables.envelopes.file);
    const orig = readFileSync(path);
    const rows = await readParquet(path);
    const victim = manifest.batches[0].log[0];
    const kept = rows.filter((r) => r.id !== victim);
    assert.equal(kept.length, rows.length - 1);
    const bytes = await collect(
      writeFormat(
        'parquet',
        TABLES.envelopes,
        (async function* () {
          yield kept;
        })(),
      ),
    );
    writeFileSync(path, bytes);
    const forged = structuredClone(manifest);
    forged.tables.envelopes.rows = kept.length;
    forged.tables.envelopes.sha256 = (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex');
    try {
      const f = failures(await verifyRelease(dir, forged));
      const roots = f.filter((c) => c.name.includes('batch root'));
      assert.ok(roots.length >= 1, JSON.stringify(f));
      assert.match(roots[0].detail ?? '', new RegExp(victim));
    } finally {
      writeFileSync(path, orig);
    }
  });

  test('the scheduler releases finished epochs only, once', async () => {
    const d2 = mkdtempSync(join(tmpdir(), 'zx-datasets-'));
    try {
      const last = Number(fs.fx.items[fs.fx.items.length - 1].envelope.timestamp / BigInt(EPOCH_SECONDS * 1_000_000));
      const s = startReleaseScheduler({
        store: fs.store,
        dir: d2,
        everyMs: 3_600_000,
        now: () => (last + 1) * EPOCH_SECONDS * 1000,
      });
      const made = await s.tick();
      const again = await s.tick();
      await s.stop();
      assert.deepEqual(
        made,
        Array.from({ length: last - epoch }, (_, i) => epoch + i),
        'the last epoch is not over for a whole epoch yet',
      );
      assert.deepEqual(again, [], 'a released epoch is not written again');
    } finally {
      rmSync(d2, { recursive: true, force: true });
    }
  });
});

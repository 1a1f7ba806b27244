import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { releaseFile } from './release-files';

test('release downloads: only released files inside the folder; bad names 400, missing 404', () => {
  const root = mkdtempSync(join(tmpdir(), 'zx-release-files-'));
  const dir = join(root, 'datasets');
  try {
    mkdirSync(join(dir, 'envelopes', 'epoch-5'), { recursive: true });
    writeFileSync(join(dir, 'envelopes', 'epoch-5', 'envelopes-epoch5.parquet'), 'PAR1');
    writeFileSync(join(dir, 'epoch=5.manifest.json'), '{}');
    writeFileSync(join(root, 'secret.txt'), 'not yours');
    mkdirSync(join(dir, 'offers', 'epoch-6'), { recursive: true });
    writeFileSync(join(dir, 'offers', 'epoch-6', 'offers-epoch6.parquet'), 'PAR1'); // no manifest yet
    mkdirSync(join(dir, 'feedback', 'epoch-5'), { recursive: true });
    symlinkSync(join(root, 'secret.txt'), join(dir, 'feedback', 'epoch-5', 'feedback-epoch5.parquet'));

    const ok = releaseFile(dir, ['envelopes', 'epoch-5', 'envelopes-epoch5.parquet']);
    assert.ok(ok.ok && ok.size === 4 && ok.contentType === 'application/vnd.apache.parquet');
    const m = releaseFile(dir, ['epoch=5.manifest.json']);
    assert.ok(m.ok && m.contentType === 'application/json');
    // A revision, its context file and its signature are served once its own manifest exists.
    mkdirSync(join(dir, 'revisions', 'envelopes', 'epoch-5'), { recursive: true });
    mkdirSync(join(dir, 'context', 'epoch-5'), { recursive: true });
    mkdirSync(join(dir, 'latest', 'envelopes'), { recursive: true });
    writeFileSync(join(dir, 'revisions', 'envelopes', 'epoch-5', 'envelopes-epoch5.r1.parquet'), 'PAR1');
    writeFileSync(join(dir, 'context', 'epoch-5', 'context-epoch5.r2.parquet'), 'PAR1');
    writeFileSync(join(dir, 'context', 'epoch-5', 'context-epoch5.parquet'), 'PAR1');
    writeFileSync(join(dir, 'latest', 'envelopes', 'envelopes-epoch5.parquet'), 'PAR1');
    writeFileSync(join(dir, 'epoch=5.r1.manifest.json'), '{}');
    writeFileSync(join(dir, 'epoch=5.r1.manifest.sig.json'), '{}');
    assert.ok(releaseFile(dir, ['revisions', 'envelopes', 'epoch-5', 'envelopes-epoch5.r1.parquet']).ok);
    assert.ok(releaseFile(dir, ['context', 'epoch-5', 'context-epoch5.parquet']).ok);
    assert.ok(releaseFile(dir, ['epoch=5.r1.manifest.sig.json']).ok);
    const unreleased = releaseFile(dir, ['context', 'epoch-5', 'context-epoch5.r2.parquet']);
    assert.ok(!unreleased.ok && unreleased.status === 404, 'revision 2 has no manifest yet');
    // The newest revision's copy: served, and marked as replaceable (not cached as immutable).
    const latest = releaseFile(dir, ['latest', 'envelopes', 'envelopes-epoch5.parquet']);
    assert.ok(latest.ok && latest.latest);
    assert.ok(ok.ok && !ok.latest);

    const bad: string[][] = [
      [],
      ['..', 'secret.txt'],
      ['envelopes', '..', '..', 'secret.txt'],
      ['secret.txt'],
      ['envelopes/epoch-5/envelopes-epoch5.parquet'],
      ['envelopes', 'epoch-5', 'offers-epoch5.parquet'],
      ['nope', 'epoch-5', 'nope-epoch5.parquet'],
      ['epoch=05.manifest.json'],
      ['envelopes', 'epoch-5', 'envelopes-epoch5.parquet.tmp-1'],
      ['envelopes', 'epoch=5', 'envelopes-epoch5.parquet'],
      ['envelopes', 'epoch-5', 'envelopes-epoch5.r1.parquet'],
      ['revisions', 'envelopes', 'epoch-5', 'envelopes-epoch5.parquet'],
      ['latest', 'envelopes', 'epoch-5', 'envelopes-epoch5.parquet'],
      ['latest', 'negmas', 'negmas-epoch5.parquet'],
      ['epoch=5.r0.manifest.json'],
      ['epoch=5.manifest.sig.json.tmp'],
      ['envelopes', 'epoch-5', 'envelopes-epoch6.r1.parquet'],
      ['%2e%2e', 'secret.txt'],
      ['/etc', 'passwd'],
      ['envelopes', 'epoch-5', '.'],
    ];
    for (const segs of bad) {
      const r = releaseFile(dir, segs);
      assert.ok(!r.ok && r.status === 400, `${JSON.stringify(segs)} → ${JSON.stringify(r)}`);
    }
    for (const segs of [
      ['epoch=7.manifest.json'],
      ['offers', 'epoch-6', 'offers-epoch6.parquet'],
      ['feedback', 'epoch-5', 'feedback-epoch5.parquet'],
    ]) {
      const r = releaseFile(dir, segs);
      assert.ok(!r.ok && r.status === 404, `${JSON.stringify(segs)} → ${JSON.stringify(r)}`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// Signed releases and final states: the observer signs each manifest's release id; a verifier
// given the observer's key accepts it and refuses one signed by another key. An epoch released
// while a challenge was pending gets a revision once the challenge resolves: the revision shows
// the final state, names the release it supersedes, the listing shows it first and keeps the
// older one, and both verify.

import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { listReleases } from './release-list';
import { type ReleaseManifest, releaseNames } from './release-manifest';
import { startReleaseScheduler } from './release-scheduler';
import { fileSha256, loadOrCreateSigningKey, type SigningKey, signatureName, signManifest } from './signing';
import { EPOCH_SECONDS, type FixtureStore, fixtureStore } from './testing';
import { type CheckResult, readParquet, readReleaseManifests, verifyRelease } from './verify';

const failures = (r: CheckResult[]) => r.filter((c) => !c.ok);

describe('signed releases and revisions', () => {
  let fs: FixtureStore;
  let dir: string;
  let key: SigningKey;
  let other: SigningKey;
  let epoch: number;
  let nowMs: number;
  before(async () => {
    fs = await fixtureStore('pglite');
    dir = mkdtempSync(join(tmpdir(), 'zx-revision-'));
    key = loadOrCreateSigningKey(join(dir, '..', `${dir.split('/').pop()}-key`), 'test observer');
    other = loadOrCreateSigningKey(join(dir, '..', `${dir.split('/').pop()}-other`), 'someone else');
    epoch = Number(fs.fx.items[0].envelope.timestamp / BigInt(EPOCH_SECONDS * 1_000_000));
    nowMs = (epoch + 2) * EPOCH_SECONDS * 1000 + 1000; // the epoch ended a whole epoch ago
    // A challenge of this epoch still pending when the epoch is released.
    const agentId = fs.fx.agents[2];
    await fs.store.upsertChallenge({
      address: 'Pend1111111111111111111111111111111111111111',
      agentId,
      epoch: BigInt(epoch),
      challenger: fs.fx.agents[3],
      status: 'pending',
      slot: 5_000n,
      signature: 'sigPendOpen',
    });
  });
  after(async () => {
    await fs?.close();
    for (const p of [dir, `${dir}-key`, `${dir}-other`]) rmSync(p, { recursive: true, force: true });
  });

  test(
    'a pending challenge is released, resolves, and the revision ' +
      'shows the final state and supersedes the first; both verify',
    async () => {
      const s = startReleaseScheduler({
        store: fs.store,
        dir,
        everyMs: 3_600_000,
        now: () => nowMs,
        signingKey: key,
        firstCheckMs: 3_600_000,
      });
      try {
        assert.deepEqual(await s.tick(), [epoch]);
        assert.equal(s.status().signingKey?.publicKey, key.publicKey);
        const first = JSON.parse(readFileSync(join(dir, releaseNames(epoch).manifest), 'utf8')) as ReleaseManifest;
        assert.equal(first.revision, 0);
        assert.equal(first.supersedes, null);
        assert.ok(first.moving.pendingChallenges.includes('Pend1111111111111111111111111111111111111111'));
        assert.equal(first.final, false);
        assert.deepEqual(await s.tick(), [], 'nothing settled: no revision');

        nowMs += 60_000;
        await fs.store.upsertChallenge({
          address: 'Pend1111111111111111111111111111111111111111',
          agentId: fs.fx.agents[2],
          epoch: BigInt(epoch),
          challenger: fs.fx.agents[3],
          status: 'upheld',
          slot: 5_001n,
          signature: 'sigPendResolve',
        });
        assert.deepEqual(await s.tick(), [epoch]);
        const rev = JSON.parse(readFileSync(join(dir, releaseNames(epoch, 1).manifest), 'utf8')) as ReleaseManifest;
        assert.equal(rev.revision, 1);
        assert.equal(rev.supersedes, fileSha256(join(dir, releaseNames(epoch).manifest)));
        assert.ok(!rev.moving.pendingChallenges.includes('Pend1111111111111111111111111111111111111111'));
        assert.ok(BigInt(rev.asOfUs) > BigInt(first.asOfUs));
        const status = (m: ReleaseManifest) =>
          readParquet(join(dir, m.tables.challenges.file)).then(
            (rows) => rows.find((r) => r.address === 'Pend1111111111111111111111111111111111111111')?.status,
          );
        assert.equal(await status(first), 'pending');
        assert.equal(await status(rev), 'upheld');

        // The listing shows the latest revision, the older one kept below it.
        const listed = listReleases(dir).find((r) => r.epoch === epoch)!;
        assert.equal(listed.revision, 1);
        assert.equal(listed.manifest, releaseNames(epoch, 1).manifest);
        assert.equal(listed.supersedes, listed.older[0].id);
        assert.deepEqual(
          listed.older.map((o) => o.revision),
          [0],
        );
        assert.equal(listed.signature, signatureName(releaseNames(epoch, 1).manifest));

        // Both verify, signatures under the observer's key included.
        const both = readReleaseManifests(dir).filter((r) => r.manifest.epoch === epoch);
        assert.equal(both.length, 2);
        for (const r of both) {
          const checks = await verifyRelease(dir, r.manifest, { manifestFile: r.file, trustedKey: key.publicKey });
          assert.deepEqual(failures(checks), [], r.file);
          assert.match(
            checks.find((c) => c.name.endsWith('manifest: signature'))!.detail!,
            /signed by "test observer" key [0-9a-f]{64}, the key given with --key/,
          );
          if (r.manifest.revision) assert.ok(checks.some((c) => c.name.endsWith('manifest: supersedes') && c.ok));
        }
      } finally {
        await s.stop();
      }
    },
  );

  test(
    'a manifest signed by another key fails against the ' +
      "observer's key; a changed manifest fails its own signature",
    async () => {
      const name = releaseNames(epoch).manifest;
      const m = JSON.parse(readFileSync(join(dir, name), 'utf8')) as ReleaseManifest;
      const sigPath = join(dir, signatureName(name));
      const orig = readFileSync(sigPath);
      const manifestBytes = readFileSync(join(dir, name));
      try {
        signManifest(dir, name, other);
        const f = failures(await verifyRelease(dir, m, { manifestFile: name, trustedKey: key.publicKey }));
        assert.equal(f.length, 1, JSON.stringify(f));
        assert.match(f[0].name, /manifest: signature$/);
        assert.match(
          f[0].detail!,
          new RegExp(
            `signed by "someone else" key ${other.publicKey}, not by the key given with --key ${key.publicKey}`,
          ),
        );
        // Without --key it verifies under the key it names, and says so.
        const own = (await verifyRelease(dir, m, { manifestFile: name })).find((c) =>
          c.name.endsWith('manifest: signature'),
        )!;
        assert.ok(own.ok && /not checked against a key you trust/.test(own.detail!));
        writeFileSync(sigPath, orig);
        // One changed byte of the manifest: its release id no longer matches the signature.
        writeFileSync(join(dir, name), Buffer.concat([manifestBytes, Buffer.from(' ')]));
        const g = failures(await verifyRelease(dir, m, { manifestFile: name, trustedKey: key.publicKey }));
        assert.ok(
          g.some(
            (c) =>
              c.name.endsWith('manifest: signature') &&
              /signed release id [0-9a-f]{64}, the manifest's sha256 is/.test(c.detail!),
          ),
          JSON.stringify(g),
        );
      } finally {
        writeFileSync(sigPath, orig);
        writeFileSync(join(dir, name), manifestBytes);
      }
    },
  );

  test(
    'one revision verifies alone from the files the listing ' + 'names: manifest, signature, card, tables, context',
    async () => {
      const listed = listReleases(dir).find((r) => r.epoch === epoch)!;
      assert.equal(listed.revision, 1);
      assert.ok(listed.context && listed.files.includes(listed.context.file), 'the listing names the context file');
      assert.ok(listed.signature && listed.files.includes(listed.signature), 'and the signature');
      assert.ok(
        listed.card &&
          [listed.card.readme, listed.card.datapackage, listed.card.citation].every((f) => listed.files.includes(f)),
        'and the card',
      );
      const alone = mkdtempSync(join(tmpdir(), 'zx-alone-'));
      try {
        // What a researcher downloads from the page: this revision's files only, no older revision.
        for (const f of listed.files) {
          mkdirSync(dirname(join(alone, f)), { recursive: true });
          copyFileSync(join(dir, f), join(alone, f));
        }
        const [only] = readReleaseManifests(alone);
        assert.equal(only.manifest.revision, 1);
        const checks = await verifyRelease(alone, only.manifest, {
          manifestFile: only.file,
          trustedKey: key.publicKey,
        });
        assert.deepEqual(failures(checks), []);
        assert.match(
          checks.find((c) => c.name.endsWith('manifest: supersedes'))!.detail!,
          /not in this folder; not needed to verify this revision/,
        );
        // An older revision put beside it with another id than the one it supersedes is refused.
        const r0 = releaseNames(epoch).manifest;
        writeFileSync(join(alone, r0), Buffer.concat([readFileSync(join(dir, r0)), Buffer.from(' ')]));
        const f = failures(await verifyRelease(alone, only.manifest, { manifestFile: only.file }));
        assert.ok(
          f.some((c) => c.name.endsWith('manifest: supersedes')),
          JSON.stringify(f),
        );
      } finally {
        rmSync(alone, { recursive: true, force: true });
      }
    },
  );

  test('past the settle time an epoch still moving gets a final revision', async () => {
    await fs.store.upsertChallenge({
      address: 'Late1111111111111111111111111111111111111111',
      agentId: fs.fx.agents[1],
      epoch: BigInt(epoch),
      challenger: fs.fx.agents[4],
      status: 'pending',
      slot: 6_000n,
      signature: 'sigLate',
    });
    const d2 = mkdtempSync(join(tmpdir(), 'zx-revision-'));
    let t = nowMs;
    const s = startReleaseScheduler({
      store: fs.store,
      dir: d2,
      everyMs: 3_600_000,
      now: () => t,
      settleMs: 3_600_000,
      firstCheckMs: 3_600_000,
    });
    try {
      assert.ok((await s.tick()).includes(epoch));
      t += 3_600_000;
      assert.ok((await s.tick()).includes(epoch));
      const last = listReleases(d2).find((r) => r.epoch === epoch)!;
      assert.equal(last.revision, 1);
      assert.equal(last.final, true);
      assert.equal(last.moving.pendingChallenges, 1, 'final by time, still moving');
      assert.equal(last.signature, null, 'unsigned without a key');
      assert.deepEqual(await s.tick(), [], 'a final release is not revised again');
    } finally {
      await s.stop();
      rmSync(d2, { recursive: true, force: true });
    }
  });
});

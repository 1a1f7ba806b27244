// Late data in a released epoch: a final release is revised when FEEDBACK envelopes dated inside
// the epoch arrive later, and when a batch's verdict changes; each revision says what changed and
// why, verifies, and an unchanged store makes no revision.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { publicKeyFromSeed } from '../protocol/crypto';
import { buildEnvelope } from '../protocol/envelope';
import { encodeFeedback } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { manifestFiles, type ReleaseManifest } from './release-manifest';
import { startReleaseScheduler } from './release-scheduler';
import { fileSha256, type SigningKey } from './signing';
import { EPOCH_SECONDS, type FixtureStore, fixtureStore } from './testing';
import { readParquet, verifyRelease } from './verify';

describe('late data makes a new revision, final releases included', () => {
  let fs: FixtureStore;
  let dir: string;
  let epoch: number;
  const seed = new Uint8Array(32).fill(9);
  const key: SigningKey = {
    seed,
    publicKey: Buffer.from(publicKeyFromSeed(seed)).toString('hex'),
    signer: 'late test',
  };
  before(async () => {
    fs = await fixtureStore('pglite');
    dir = mkdtempSync(join(tmpdir(), 'zx-late-'));
    epoch = Number(fs.fx.items[0].envelope.timestamp / BigInt(EPOCH_SECONDS * 1_000_000));
  });
  after(async () => {
    await fs?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const latest = () => {
    const names = manifestFiles(dir).get(epoch)!;
    const name = names[names.length - 1];
    return { name, m: JSON.parse(readFileSync(join(dir, name), 'utf8')) as ReleaseManifest };
  };

  test(
    'two late FEEDBACK envelopes and a changed batch ' + 'verdict are released as revisions saying what changed',
    async () => {
      let nowMs = (epoch + 2) * EPOCH_SECONDS * 1000 + 1000;
      // Settle time 0: every release of the epoch is final at once.
      const s = startReleaseScheduler({
        store: fs.store,
        dir,
        everyMs: 3_600_000,
        now: () => nowMs,
        signingKey: key,
        settleMs: 0,
        firstCheckMs: 3_600_000,
      });
      try {
        await s.tick();
        await s.tick();
        const settled = latest();
        assert.equal(settled.m.final, true);
        assert.deepEqual(await s.tick(), [], 'nothing new: no revision');

        // Two FEEDBACK envelopes dated inside the (final) epoch, stored late.
        const [a, b] = fs.fx.agents;
        const at = BigInt(epoch * EPOCH_SECONDS) * 1_000_000n + 1_234_567n;
        const late = [0, 1].map((i) => {
          const conv = new Uint8Array(16).fill(0x70 + i);
          const built = buildEnvelope(
            {
              msgType: MsgType.FEEDBACK,
              sender: a,
              recipient: b,
              conversationId: conv,
              nonce: 900_000n + BigInt(i),
              timestamp: at + BigInt(i),
              blockRef: 1n,
              payload: encodeFeedback({
                conversationId: conv,
                targetAgent: b,
                score: 50 + i,
                outcome: 2,
                isDispute: false,
                role: 0,
              }),
            },
            a,
          );
          return {
            id: built.id,
            envelope: built.envelope,
            raw: built.bytes,
            source: 'stream' as const,
            receivedAt: new Date(),
          }; // stored now: after the batches' verdicts
        });
        await fs.store.ingestEnvelopes(late);
        nowMs += 60_000;
        assert.deepEqual(await s.tick(), [epoch]);
        const rev = latest();
        assert.equal(rev.m.revision, settled.m.revision + 1);
        assert.equal(rev.m.final, true, 'still final');
        assert.equal(rev.m.supersedes, fileSha256(join(dir, settled.name)));
        assert.equal(rev.m.changes?.since, rev.m.supersedes);
        assert.equal(rev.m.changes?.reasons[0], 'late data');
        assert.ok(
          rev.m.changes!.reasons.some((r) => /^envelopes: \d+ row\(s\) in the store, \d+ in revision \d+$/.test(r)),
          JSON.stringify(rev.m.changes),
        );
        assert.deepEqual(rev.m.changes!.tables.envelopes, { added: 2, removed: 0, changed: 0 });
        assert.deepEqual(rev.m.changes!.tables.feedback, { added: 2, removed: 0, changed: 0 });
        assert.deepEqual(rev.m.changes!.tables.offers, { added: 0, removed: 0, changed: 0 });
        const ids = new Set(
          (await readParquet(join(dir, rev.m.tables.feedback.file))).map((r) => String(r.envelope_id)),
        );
        for (const l of late) assert.ok(ids.has(Buffer.from(l.id).toString('hex')), 'both late envelopes are released');
        assert.deepEqual(
          (await verifyRelease(dir, rev.m, { manifestFile: rev.name, trustedKey: key.publicKey })).filter((c) => !c.ok),
          [],
        );
        assert.deepEqual(await s.tick(), [], 'released: no further revision');

        // A batch verdict changes after the release.
        const agent = fs.fx.agents[2];
        await fs.store.setBatchStatus(agent, BigInt(epoch), 'mismatch', new Uint8Array(32).fill(1));
        nowMs += 60_000;
        assert.deepEqual(await s.tick(), [epoch]);
        const again = latest();
        assert.equal(again.m.revision, rev.m.revision + 1);
        assert.ok(
          again.m.changes!.reasons.some((r) =>
            r.startsWith(`batch of ${Buffer.from(agent).toString('hex').slice(0, 16)}: verified → mismatch`),
          ),
          JSON.stringify(again.m.changes),
        );
        assert.equal(again.m.changes!.tables.batches.changed, 1);
      } finally {
        await s.stop();
      }
    },
  );
});

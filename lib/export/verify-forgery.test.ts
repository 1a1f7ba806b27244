// Releases forged consistently (the file changed, its manifest entry re-hashed) must still fail
// verification, each naming the table, the row and the column: the derived tables are re-derived
// from the release's raw envelopes, the envelopes' columns from their bytes, and the manifest's
// roots held against the release's own batches table.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeEnvelope } from '../protocol/envelope';
import { leafHash, logEntryOf, merkleRoot } from '../protocol/merkle';
import { MsgType } from '../protocol/types';
import { createRelease } from './release';
import type { ReleaseManifest } from './release-manifest';
import type { ReleaseTableName as TableName } from './schema';
import { CONTEXT_SCHEMA, TABLES } from './tables';
import { collect, EPOCH_SECONDS, type FixtureStore, fixtureStore } from './testing';
import { type CheckResult, readParquet, verifyRelease } from './verify';
import { writeFormat } from './writers';

const failures = (r: CheckResult[]) => r.filter((c) => !c.ok);
const hx = (b: unknown) => (typeof b === 'string' ? b : Buffer.from(b as Uint8Array).toString('hex'));

describe('verify-dataset against consistent forgeries', () => {
  let fs: FixtureStore;
  let dir: string;
  let manifest: ReleaseManifest;
  before(async () => {
    // The deals start half an hour before an epoch ends, so the release has context envelopes.
    fs = await fixtureStore('pglite', 40, 1_767_225_600_000_000n + BigInt(EPOCH_SECONDS / 2) * 1_000_000n);
    dir = mkdtempSync(join(tmpdir(), 'zx-forgery-'));
    const epoch = Number(fs.fx.items[0].envelope.timestamp / BigInt(EPOCH_SECONDS * 1_000_000));
    manifest = await createRelease({ store: fs.store, epoch, dir });
  });
  after(async () => {
    await fs?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A copy of the release; `forge` rewrites tables through `put` (file written, manifest re-hashed). */
  async function forged(
    forge: (f: {
      d: string;
      rows: (t: TableName) => Promise<Record<string, unknown>[]>;
      put: (t: TableName, rows: Record<string, unknown>[]) => Promise<void>;
      m: ReleaseManifest;
    }) => Promise<void>,
  ): Promise<CheckResult[]> {
    const d = mkdtempSync(join(tmpdir(), 'zx-forged-'));
    try {
      cpSync(dir, d, { recursive: true });
      const m = structuredClone(manifest);
      await forge({
        m,
        d,
        rows: (t) => readParquet(join(d, m.tables[t].file)),
        put: async (t, rows) => {
          const bytes = await collect(
            writeFormat(
              'parquet',
              TABLES[t],
              (async function* () {
                yield rows;
              })(),
            ),
          );
          writeFileSync(join(d, m.tables[t].file), bytes);
          m.tables[t].rows = rows.length;
          m.tables[t].sha256 = createHash('sha256').update(bytes).digest('hex');
          // A consistent forger rewrites the card's datapackage too, and its hash in the manifest.
          const dpPath = join(d, m.card!.datapackage.file);
          const dp = JSON.parse(readFileSync(dpPath, 'utf8')) as {
            resources: { path: string; hash: string; bytes: number }[];
          };
          for (const r of dp.resources)
            if (r.path === m.tables[t].file) {
              r.hash = `sha256:${m.tables[t].sha256}`;
              r.bytes = bytes.length;
            }
          const text = JSON.stringify(dp, null, 2);
          writeFileSync(dpPath, text);
          m.card!.datapackage.sha256 = createHash('sha256').update(text).digest('hex');
        },
      });
      return await verifyRelease(d, m);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  }

  const named = (f: CheckResult[], table: string, column: string) =>
    f.filter((c) => new RegExp(`^epoch \\d+ ${table} row \\d+ \\([0-9a-f]+\\) column ${column}$`).test(c.name));

  test('the untouched release passes', async () => {
    assert.ok(manifest.context.rows > 0, 'a negotiation crosses the epoch boundary');
    assert.deepEqual(failures(await verifyRelease(dir, manifest)), []);
  });

  test('+1 on every offers price fails at offers, row and column offer', async () => {
    const f = failures(
      await forged(async ({ rows, put }) =>
        put(
          'offers',
          (await rows('offers')).map((r) => ({ ...r, offer: BigInt(String(r.offer)) + 1n })),
        ),
      ),
    );
    assert.ok(named(f, 'offers', 'offer').length > 0, JSON.stringify(f.slice(0, 3)));
    assert.ok(
      f.every((c) => / offers[ :]/.test(c.name)),
      JSON.stringify(f.filter((c) => !/ offers[ :]/.test(c.name)).slice(0, 3)),
    );
    assert.match(named(f, 'offers', 'offer')[0].detail!, /^file -?\d+, derived from the envelopes -?\d+$/);
  });

  test('every negotiation outcome set to agreed fails at negotiations, row and column outcome', async () => {
    const f = failures(
      await forged(async ({ rows, put }) =>
        put(
          'negotiations',
          (await rows('negotiations')).map((r) => ({ ...r, outcome: 'agreed' })),
        ),
      ),
    );
    const hit = named(f, 'negotiations', 'outcome');
    assert.ok(hit.length > 0, JSON.stringify(f.slice(0, 3)));
    assert.match(hit[0].detail!, /^file agreed, derived from the envelopes (rejected|expired|open|disputed)$/);
  });

  test(
    "an envelope's neg1_bid_value ×2 and timestamp +1 h " + 'with raw kept fail at envelopes, row and both columns',
    async () => {
      let victim = '';
      const f = failures(
        await forged(async ({ rows, put }) => {
          const all = await rows('envelopes');
          const i = all.findIndex((r) => r.neg1_bid_value !== null && r.neg1_bid_value !== undefined);
          victim = hx(all[i].id);
          all[i] = {
            ...all[i],
            neg1_bid_value: BigInt(String(all[i].neg1_bid_value)) * 2n,
            timestamp: (all[i].timestamp as bigint) + 3_600_000_000n,
          };
          await put('envelopes', all);
        }),
      );
      assert.equal(named(f, 'envelopes', 'neg1_bid_value').length, 1, JSON.stringify(f));
      assert.equal(named(f, 'envelopes', 'timestamp').length, 1, JSON.stringify(f));
      assert.ok(named(f, 'envelopes', 'timestamp')[0].name.includes(victim.slice(0, 32)));
    },
  );

  test(
    'an envelope deleted from the release and both logs, roots ' +
      'recomputed, fails at batches, row and column log_merkle_root',
    async () => {
      const f = failures(
        await forged(async ({ rows, put, m }) => {
          // A negotiation message both parties logged.
          const all = await rows('envelopes');
          const shared = m.batches[0].log.find(
            (id) =>
              m.batches.filter((b) => b.log.includes(id)).length === 2 &&
              (() => {
                const r = all.find((x) => hx(x.id) === id);
                return r && Number(r.msg_type) === MsgType.COUNTER;
              })(),
          )!;
          assert.ok(shared, 'a COUNTER in two logs');
          const kept = all.filter((r) => hx(r.id) !== shared);
          await put('envelopes', kept);
          const byId = new Map(kept.map((r) => [hx(r.id), r]));
          for (const b of m.batches) {
            if (!b.log.includes(shared)) continue;
            b.log = b.log.filter((id) => id !== shared);
            const env = (id: string) => {
              const d = decodeEnvelope(byId.get(id)!.raw as Uint8Array);
              assert.ok(d.ok);
              return d.envelope;
            };
            b.root = hx(merkleRoot(b.log.map((id) => leafHash(logEntryOf(env(id))))));
          }
        }),
      );
      const roots = named(f, 'batches', 'log_merkle_root');
      assert.equal(roots.length, 2, JSON.stringify(f));
      assert.match(roots[0].detail!, /^table [0-9a-f]{64}, manifest [0-9a-f]{64}$/);
      // The negotiation it belonged to no longer derives the same rows.
      assert.ok(
        f.some((c) => / (offers|negotiations) row \d+ \(/.test(c.name)),
        JSON.stringify(f),
      );
      assert.ok(!f.some((c) => c.name.includes('batch root of')), 'the logs themselves were made consistent');
    },
  );

  test("invented: a feedback score changed, a negotiation row removed, an offer's relative_time nudged", async () => {
    const f = failures(
      await forged(async ({ rows, put }) => {
        const fb = await rows('feedback');
        fb[0] = { ...fb[0], score: Number(fb[0].score) === 100 ? 99 : Number(fb[0].score) + 1 };
        await put('feedback', fb);
        await put('negotiations', (await rows('negotiations')).slice(1));
        const of = await rows('offers');
        of[3] = { ...of[3], relative_time: Number(of[3].relative_time) + 1e-9 };
        await put('offers', of);
      }),
    );
    assert.equal(named(f, 'feedback', 'score').length, 1, JSON.stringify(f));
    assert.ok(
      f.some((c) => /^epoch \d+ negotiations row \(none\) \([0-9a-f]+\) column \(row\)$/.test(c.name)),
      JSON.stringify(f),
    );
    assert.equal(named(f, 'offers', 'relative_time').length, 1, JSON.stringify(f));
  });

  test('invented: a batch the table has but the manifest dropped, and a context envelope removed', async () => {
    let removed = false;
    const f = failures(
      await forged(async ({ m, d }) => {
        m.batches = m.batches.slice(1);
        const ctx = await readParquet(join(d, m.context.file));
        const i = ctx.findIndex((r) => {
          const d = decodeEnvelope(r.raw as Uint8Array);
          return (
            d.ok &&
            ([MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT, MsgType.REJECT] as number[]).includes(
              d.envelope.msgType,
            )
          );
        });
        if (i < 0) return;
        removed = true;
        const bytes = await collect(
          writeFormat(
            'parquet',
            CONTEXT_SCHEMA,
            (async function* () {
              yield ctx.filter((_, j) => j !== i);
            })(),
          ),
        );
        writeFileSync(join(d, m.context.file), bytes);
        m.context.rows = ctx.length - 1;
        m.context.sha256 = createHash('sha256').update(bytes).digest('hex');
        const dpPath = join(d, m.card!.datapackage.file);
        const dp = JSON.parse(readFileSync(dpPath, 'utf8')) as { resources: { path: string; hash: string }[] };
        for (const r of dp.resources) if (r.path === m.context.file) r.hash = `sha256:${m.context.sha256}`;
        writeFileSync(dpPath, JSON.stringify(dp, null, 2));
        m.card!.datapackage.sha256 = createHash('sha256')
          .update(JSON.stringify(dp, null, 2))
          .digest('hex');
      }),
    );
    assert.ok(
      f.some((c) => /^epoch \d+ batches row \d+ \([0-9a-f]+\) column \(row\)$/.test(c.name)),
      JSON.stringify(f),
    );
    assert.ok(removed, "the fixture's first epoch has a negotiation that crosses into the next");
    assert.ok(
      f.some((c) => / (offers|negotiations) row /.test(c.name)),
      JSON.stringify(f),
    );
  });
});

// A release as readers read it: DuckDB over each table's folder with hive partitioning on and off
// gets the same rows (no folder name adds or overrides a column), a glob over a table's folder
// reads each row once (revisions and context files are elsewhere, `latest/` holds each epoch's
// newest revision), numeric figures are numeric types and lists are Parquet lists, and the
// `datapackage` npm validator (the Frictionless reference library) accepts every release.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Package } from 'datapackage';
import { duckQuery, duckSkip, sqlPath } from './duck-testing';
import { createRelease } from './release';
import { manifestFiles, type ReleaseManifest } from './release-manifest';
import { RELEASE_TABLE_NAMES } from './schema';
import { EPOCH_SECONDS, type FixtureStore, fixtureStore } from './testing';

const KEY: Record<string, string> = {
  envelopes: 'id',
  offers: 'envelope_id',
  negotiations: 'conversation_id',
  feedback: 'envelope_id',
  challenges: 'address',
  disputes: 'dispute_id',
};

describe('releases read by DuckDB and the datapackage validator', { skip: duckSkip }, () => {
  let fs: FixtureStore;
  let dir: string;
  const manifests: ReleaseManifest[] = [];
  before(async () => {
    fs = await fixtureStore('pglite');
    dir = mkdtempSync(join(tmpdir(), 'zx-readers-'));
    const epochUs = BigInt(EPOCH_SECONDS) * 1_000_000n;
    const epochs = [...new Set(fs.fx.items.map((i) => Number(i.envelope.timestamp / epochUs)))].sort((a, b) => a - b);
    assert.ok(epochs.length >= 2, 'the fixture spans epochs');
    for (const epoch of epochs) manifests.push(await createRelease({ store: fs.store, epoch, dir }));
    // A revision of the first epoch: its files must not be read twice by a table's glob.
    manifests.push(await createRelease({ store: fs.store, epoch: epochs[0], dir, revision: 1, reasons: ['test'] }));
  });
  after(async () => {
    await fs?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const rowsOf = (table: string, latest: boolean) => {
    const byEpoch = new Map<number, ReleaseManifest>();
    for (const m of manifests)
      if (!latest ? m.revision === 0 : (byEpoch.get(m.epoch)?.revision ?? -1) < m.revision) byEpoch.set(m.epoch, m);
    return [...byEpoch.values()].reduce((n, m) => n + m.tables[table as 'envelopes'].rows, 0);
  };

  for (const table of RELEASE_TABLE_NAMES) {
    test(`${table}: hive partitioning on or off, the same rows; a glob reads each row once`, async () => {
      for (const [glob, latest] of [
        [join(dir, table, '**', '*.parquet'), false],
        [join(dir, 'latest', table, '*.parquet'), true],
      ] as const) {
        const read = (hive: boolean) => `SELECT * FROM read_parquet(${sqlPath(glob)}, hive_partitioning = ${hive})`;
        const [on, off, diff, cols] = await duckQuery(
          `SELECT count(*)::INT AS n FROM (${read(true)})`,
          `SELECT count(*)::INT AS n FROM (${read(false)})`,
          `SELECT count(*)::INT AS n FROM ((${read(true)} EXCEPT ALL ` +
            `${read(false)}) UNION ALL (${read(false)} EXCEPT ALL ${read(true)}))`,
          `SELECT (SELECT list(column_name) FROM (DESCRIBE ${read(true)})) = ` +
            `(SELECT list(column_name) FROM (DESCRIBE ${read(false)})) AS same`,
        );
        assert.equal(on[0].n, off[0].n, glob);
        assert.equal(Number(on[0].n), rowsOf(table, latest), `${glob}: every row of every epoch, once`);
        assert.equal(diff[0].n, 0, `${glob}: the same rows`);
        assert.equal(cols[0].same, true, `${glob}: the same columns`);
        const key = KEY[table];
        if (key) {
          const [once] = await duckQuery(
            `SELECT count(*)::INT AS n, count(DISTINCT ${key})::INT AS d FROM (${read(true)})`,
          );
          assert.equal(once[0].n, once[0].d, `${glob}: each ${key} once`);
        }
      }
    });
  }

  test('numeric figures are numeric types, lists are lists, sender times integers', async () => {
    const describe = (table: string) =>
      `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${sqlPath(
        join(dir, table, '**', '*.parquet'),
      )}))`;
    const [neg, ch, env, nums] = await duckQuery(
      describe('negotiations'),
      describe('challenges'),
      describe('envelopes'),
      `SELECT count(nash_price)::INT AS n, sum(CASE WHEN nash_price = ` +
        `(buyer_reservation + seller_reservation) / 2 THEN 1 ELSE 0 END)::INT AS exact FROM ` +
        `read_parquet(${sqlPath(join(dir, 'negotiations', '**', '*.parquet'))})`,
    );
    const type = (rows: Record<string, unknown>[]) =>
      Object.fromEntries(rows.map((r) => [r.column_name, r.column_type]));
    assert.deepEqual(
      [
        type(neg).nash_price,
        type(neg).nash_distance,
        type(neg).rubinstein_price,
        type(neg).notary_bidders,
        type(neg).agreed_price,
      ],
      ['DECIMAL(38,1)', 'DECIMAL(38,1)', 'DECIMAL(38,6)', 'VARCHAR[]', 'DECIMAL(38,0)'],
    );
    assert.equal(type(ch).transitions, 'STRUCT(status VARCHAR, slot BIGINT, signature VARCHAR)[]');
    assert.equal(type(env).timestamp, 'UBIGINT');
    assert.ok(Number(nums[0].n) > 0 && nums[0].exact === nums[0].n, JSON.stringify(nums[0]));
  });

  test('the datapackage npm validator accepts every release', async () => {
    let checked = 0;
    for (const names of manifestFiles(dir).values()) {
      for (const name of names) {
        const dp = join(dir, name.replace(/\.manifest\.json$/, '.datapackage.json'));
        const p = await Package.load(dp, { basePath: dir });
        assert.ok(p.valid, `${dp}: ${p.errors.map((e) => e.message).join('; ')}`);
        assert.equal(p.resources.length, RELEASE_TABLE_NAMES.length + 1);
        for (const r of p.resources) assert.ok(r.valid, `${r.name}: ${r.errors.map((e) => e.message).join('; ')}`);
        checked++;
      }
    }
    assert.equal(checked, manifests.length);
    // The validator can fail: a package name the Data Package profile does not allow.
    const bad = JSON.parse(readFileSync(join(dir, manifests[0].card!.datapackage.file), 'utf8')) as Record<
      string,
      unknown
    >;
    bad.name = 'Not a package name!';
    const broken = await Package.load(bad, { basePath: dir });
    assert.equal(broken.valid, false, 'a bad name is refused');
  });
});

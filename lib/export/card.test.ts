// The dataset card of a release: README (what, collection, what the observer cannot see, licence,
// citation, changelog), CITATION.cff naming the release id, and a Frictionless Data Package whose
// resources are the release's files (hash, size, a table schema with types, units and
// descriptions) and whose table schemas are also in each Parquet file's key-value metadata.
// The package is validated against the official Data Package v1 JSON Schema (lib/export/spec),
// and checked further against the rules of the specification that a JSON Schema cannot state.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { publicKeyFromSeed } from '../protocol/crypto';
import { DATA_LICENSE } from './card';
import { createRelease } from './release';
import { listReleases } from './release-list';
import { type ReleaseManifest, releaseNames } from './release-manifest';
import { RELEASE_TABLE_NAMES } from './schema';
import { fileSha256 } from './signing';
import { TABLES } from './tables';
import { EPOCH_SECONDS, type FixtureStore, fixtureStore, parquetKv } from './testing';
import { verifyRelease } from './verify';

const FIELD_TYPES = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'object',
  'array',
  'date',
  'time',
  'datetime',
  'year',
  'yearmonth',
  'duration',
  'geopoint',
  'geojson',
  'any',
]);

describe('the dataset card of a release', () => {
  let fs: FixtureStore;
  let dir: string;
  let m: ReleaseManifest;
  let epoch: number;
  before(async () => {
    fs = await fixtureStore('pglite');
    dir = mkdtempSync(join(tmpdir(), 'zx-card-'));
    epoch = Number(fs.fx.items[0].envelope.timestamp / BigInt(EPOCH_SECONDS * 1_000_000));
    // Signed: an unsigned release fails verification.
    const seed = new Uint8Array(32).fill(7);
    m = await createRelease({
      store: fs.store,
      epoch,
      dir,
      signingKey: { seed, publicKey: Buffer.from(publicKeyFromSeed(seed)).toString('hex'), signer: 'card test' },
    });
  });
  after(async () => {
    await fs?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('datapackage.json validates against the official Data Package v1 JSON Schema; a broken one does not', () => {
    const dp = JSON.parse(readFileSync(join(dir, m.card!.datapackage.file), 'utf8')) as Record<string, any>;
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, 'spec', 'data-package-1.0.schema.json'), 'utf8'));
    // strict off: the official schema carries annotation keywords (propertyOrder, context, examples) that Ajv's strict
    // mode rejects.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('textarea', true); // an editor hint of the schema, not a constraint
    const validate = ajv.compile(schema);
    assert.equal(validate(dp), true, JSON.stringify(validate.errors, null, 1));
    // The validator is live: a field type the Table Schema does not know, or a resource without a path, fails.
    const badType = structuredClone(dp);
    badType.resources[0].schema.fields[0].type = 'uint64';
    assert.equal(validate(badType), false, 'an unknown field type must not validate');
    const noPath = structuredClone(dp);
    delete noPath.resources[1].path;
    assert.equal(validate(noPath), false, 'a resource without path or data must not validate');
  });

  test('datapackage.json follows the Data Package / Table Schema rules and describes every file of the release', () => {
    const dp = JSON.parse(readFileSync(join(dir, m.card!.datapackage.file), 'utf8')) as Record<string, any>;
    assert.match(dp.name, /^[a-z0-9._-]+$/);
    assert.equal(dp.profile, 'data-package');
    assert.deepEqual(dp.licenses, [DATA_LICENSE]);
    assert.ok(
      Array.isArray(dp.resources) && dp.resources.length === RELEASE_TABLE_NAMES.length + 1,
      'every release table and the context file',
    );
    for (const r of dp.resources) {
      assert.match(r.name, /^[a-z0-9._-]+$/, r.name);
      assert.ok(!r.path.startsWith('/') && !r.path.split('/').includes('..'), r.path);
      const path = join(dir, r.path);
      assert.ok(existsSync(path), r.path);
      assert.equal(r.hash, `sha256:${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
      assert.equal(r.bytes, statSync(path).size);
      assert.ok(Array.isArray(r.schema.fields) && r.schema.fields.length > 0);
      for (const f of r.schema.fields) {
        assert.ok(
          typeof f.name === 'string' && FIELD_TYPES.has(f.type) && typeof f.description === 'string',
          JSON.stringify(f),
        );
      }
      for (const k of r.schema.primaryKey)
        assert.ok(
          r.schema.fields.some((f: { name: string }) => f.name === k),
          `${r.name} key ${k}`,
        );
      // The same table schema is in the file's own key-value metadata.
      assert.deepEqual(JSON.parse(parquetKv(readFileSync(path))['zerox1.table_schema']), r.schema);
    }
    const offers = dp.resources.find((r: { name: string }) => r.name === 'offers');
    const offer = offers.schema.fields.find((f: { name: string }) => f.name === 'offer');
    assert.equal(offer.type, 'integer');
    assert.match(offer.unit, /smallest unit of the negotiated token/);
    assert.deepEqual(
      offers.schema.fields.map((f: { name: string }) => f.name),
      TABLES.offers.columns.map((c) => c.name),
    );
  });

  test(
    'README says what, how, what is unseen, the licence, how ' +
      'to cite, the changelog; CITATION.cff names the release id',
    () => {
      const readme = readFileSync(join(dir, m.card!.readme.file), 'utf8');
      for (const h of [
        '## What the data is',
        '## How it was collected, and what the observer cannot see',
        '## Licence',
        '## How to cite',
        '## Schema changelog',
      ])
        assert.ok(readme.includes(h), h);
      assert.match(readme, /It cannot see: bilateral messages between two agents/);
      assert.ok(readme.includes(DATA_LICENSE.name));
      assert.match(readme, new RegExp(`\\*\\*negotiations\\*\\* \\(now version ${TABLES.negotiations.version}\\)`));
      const cff = readFileSync(join(dir, m.card!.citation), 'utf8');
      assert.match(cff, /^cff-version: 1\.2\.0$/m);
      assert.match(cff, /^type: dataset$/m);
      assert.ok(cff.includes(`value: "sha256:${fileSha256(join(dir, releaseNames(epoch).manifest))}"`));
      const listed = listReleases(dir).find((r) => r.epoch === epoch)!;
      assert.deepEqual(listed.card, {
        readme: m.card!.readme.file,
        datapackage: m.card!.datapackage.file,
        citation: m.card!.citation,
      });
    },
  );

  test('the card verifies with the release; a changed README or a datapackage hash fails by name', async () => {
    const ok = await verifyRelease(dir, m, { manifestFile: releaseNames(epoch).manifest });
    assert.deepEqual(
      ok.filter((c) => !c.ok),
      [],
    );
    assert.equal(ok.filter((c) => c.name.includes(' card: ')).length, 4);
    const path = join(dir, m.card!.readme.file);
    const orig = readFileSync(path);
    writeFileSync(path, Buffer.concat([orig, Buffer.from('\nLicence: none.\n')]));
    try {
      const f = (await verifyRelease(dir, m, { manifestFile: releaseNames(epoch).manifest })).filter((c) => !c.ok);
      assert.deepEqual(
        f.map((c) => c.name),
        [`epoch ${epoch} card: ${m.card!.readme.file}`],
      );
    } finally {
      writeFileSync(path, orig);
    }
  });
});

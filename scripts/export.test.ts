/**
 * `npm run export` as a user runs it (docs/datasets.md "CLI"): a child process on an embedded
 * PGlite folder (and on Postgres with TEST_DATABASE_URL) filled through the store's ingest; the
 * written file is read back with the independent readers (hyparquet, csv-parse). Bad flags exit
 * 2 naming the flag.
 */

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Fixture, loadFixture, makeDeals } from '../lib/export/deals-testing';
import { TABLES } from '../lib/export/tables';
import { parquetKv, readBack } from '../lib/export/testing';
import { parseNegotiationPayload } from '../lib/protocol/neg1';
import { MsgType } from '../lib/protocol/types';
import { openStore } from '../lib/store';
import { createTestDatabase, skipWithoutPostgres, testPostgresUrl } from '../lib/store/testing';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EPOCH = 3_600;

function exportCli(args: string[], env: Record<string, string>) {
  return spawnSync('npm', ['run', '--silent', 'export', '--', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, EPOCH_SECONDS: String(EPOCH), DATABASE_URL: '', ...env },
  });
}

describe('npm run export', () => {
  let dir: string;
  let fx: Fixture;
  let pgUrl: string | undefined;
  let dropPg: (() => Promise<void>) | undefined;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zx-export-cli-'));
    fx = makeDeals({ deals: 25, seed: 5 });
    const store = await openStore({ dataDir: join(dir, 'pglite'), epochSeconds: EPOCH });
    await loadFixture(store, fx, EPOCH);
    await store.close();
    const server = testPostgresUrl();
    if (server) {
      const db = await createTestDatabase(server, 'zx_export_cli');
      dropPg = db.drop;
      pgUrl = db.url;
      const pgStore = await openStore({ databaseUrl: db.url, epochSeconds: EPOCH });
      await loadFixture(pgStore, fx, EPOCH);
      await pgStore.close();
    }
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropPg?.();
  });

  test('offers as Parquet from the embedded PGlite: file written, every offer read back', async () => {
    const out = join(dir, 'offers.parquet');
    const r = exportCli(['--table', 'offers', '--format', 'parquet', '--out', out], { DATA_DIR: dir });
    assert.equal(r.status, 0, r.stderr);
    // NEG1 offers, then one final ACCEPT / REJECT row per negotiation that has one.
    const finals = new Map<string, (typeof fx.items)[number]>();
    for (const i of fx.items) {
      const k = Buffer.from(i.envelope.conversationId).toString('hex');
      if (
        i.envelope.msgType === MsgType.ACCEPT ||
        (i.envelope.msgType === MsgType.REJECT && finals.get(k)?.envelope.msgType !== MsgType.ACCEPT)
      ) {
        if (
          !finals.has(k) ||
          (i.envelope.msgType === MsgType.ACCEPT && finals.get(k)!.envelope.msgType !== MsgType.ACCEPT)
        )
          finals.set(k, i);
      }
    }
    const offers = [
      ...fx.items.filter(
        (i) =>
          (i.envelope.msgType === MsgType.PROPOSE || i.envelope.msgType === MsgType.COUNTER) &&
          parseNegotiationPayload(i.envelope.payload).kind === 'neg1',
      ),
      ...finals.values(),
    ];
    const bytes = readFileSync(out);
    const rows = await readBack('parquet', bytes);
    assert.equal(rows.length, offers.length);
    assert.ok(rows.length > 50);
    const kv = parquetKv(bytes);
    assert.deepEqual([kv['zerox1.table'], kv['zerox1.schema_version']], ['offers', String(TABLES.offers.version)]);
    assert.ok(
      JSON.parse(kv['zerox1.table_schema']).fields.length === TABLES.offers.columns.length,
      'the file carries its table schema',
    );
    const ids = new Set(offers.map((o) => Buffer.from(o.id).toString('hex')));
    assert.ok(
      rows.every((row) => ids.has(String(row.envelope_id))),
      'envelope ids are hex text',
    );
    assert.match(r.stdout, new RegExp(`offers: ${offers.length} rows`));
  });

  test('envelopes as CSV from DATABASE_URL (the Postgres fast path), with a type filter', {
    skip: skipWithoutPostgres(),
  }, async () => {
    const out = join(dir, 'proposals.csv');
    const r = exportCli(['--table', 'envelopes', '--type', 'PROPOSE', '--format', 'csv', '--out', out], {
      DATABASE_URL: pgUrl!,
      DATA_DIR: join(dir, 'unused'),
    });
    assert.equal(r.status, 0, r.stderr);
    const rows = await readBack('csv', readFileSync(out));
    const proposals = fx.items.filter((i) => i.envelope.msgType === MsgType.PROPOSE);
    assert.equal(rows.length, proposals.length);
    const kinds = new Map(
      proposals.map((i) => [Buffer.from(i.id).toString('hex'), parseNegotiationPayload(i.envelope.payload).kind]),
    );
    for (const row of rows) {
      assert.equal(row.msg_type_name, 'PROPOSE');
      const kind = kinds.get(String(row.id));
      assert.equal(
        row.payload_kind,
        kind === 'neg1' || kind === 'negc' || kind === 'negr' ? kind : 'opaque',
        String(row.id),
      );
    }
  });

  test('bad flags exit 2 naming the flag, and write nothing', () => {
    const out = join(dir, 'never.csv');
    const cases: [string[], RegExp][] = [
      [['--table', 'envelopes', '--colour', 'red', '--out', out], /"colour"/],
      [['--table', 'envelopes', '--format', 'xml', '--out', out], /"format"/],
      [['--table', 'nope', '--out', out], /"table"/],
      [['--table', 'envelopes'], /--out/],
      [['--table', 'envelopes', '--out'], /--out/],
    ];
    for (const [args, named] of cases) {
      const r = exportCli(args, { DATA_DIR: dir });
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, named, args.join(' '));
    }
    assert.equal(existsSync(out), false);
  });
});

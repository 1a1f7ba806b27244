// The disputes table read back by DuckDB, a reader that shares no code with ours: the CSV through
// the typed recipe docs/datasets.md gives researchers (lib/export/docs.ts), the JSONL and the
// Parquet through DuckDB's own readers. The fixture's deals are the demo's scenario, so some
// failing verdicts are disputed by the seller; one dispute gets two reviewers' opinions and one of
// them replaces its earlier opinion, so the counts show one current opinion per reviewer; twenty
// opinions of reviewers the deployment does not name count nothing.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { toHex } from '../protocol/hex';
import { MsgType } from '../protocol/types';
import { duckdbCsvRecipe } from './docs';
import { exportTable } from './export';
import { TABLES } from './tables';
import { BACKENDS, collect, type FixtureStore, fixtureStore } from './testing';
import { FORMATS } from './writers';

// DuckDB is a dev dependency (package.json); a checkout installed before it was added says so.
type Duck = {
  DuckDBInstance: {
    create(path: string): Promise<{
      connect(): Promise<{
        runAndReadAll(sql: string): Promise<{ getRowObjectsJson(): Record<string, unknown>[] }>;
        closeSync(): void;
      }>;
    }>;
  };
};
let duck: Duck | null = null;
try {
  duck = (await import('@duckdb/node-api')) as unknown as Duck;
} catch {
  duck = null;
}
const skip = duck ? false : '@duckdb/node-api is not installed (npm ci installs it)';

for (const kind of BACKENDS) {
  describe(`the disputes table read by DuckDB on ${kind}`, { skip }, () => {
    let fs: FixtureStore;
    let dir: string;
    let disputed: string;
    let expected: number;
    before(async () => {
      fs = await fixtureStore(kind);
      dir = mkdtempSync(join(tmpdir(), 'zx-disputes-'));
      const disputes = fs.fx.items.filter((i) => i.envelope.msgType === MsgType.DISPUTE);
      expected = disputes.length;
      assert.ok(expected > 0, 'the fixture has disputes');
      const d = disputes[0];
      disputed = toHex(d.id);
      const at = (s: number) => new Date(Date.UTC(2026, 0, 2, 0, 0, s));
      const op = (reviewer: number, opinion: 'upheld' | 'rejected' | 'unclear', s: number, counted = true) =>
        fs.store.saveDisputeOpinion({
          disputeId: d.id,
          reviewer: new Uint8Array(32).fill(reviewer),
          opinion,
          note: '',
          message: `m${reviewer}${s}`,
          signature: new Uint8Array(64).fill(s),
          signedAt: at(s),
          counted,
        });
      await op(1, 'upheld', 1);
      await op(2, 'unclear', 2);
      await op(1, 'rejected', 3);
      // Twenty reviewers the deployment does not name: kept on the desk, not in the dataset's counts.
      for (let r = 0; r < 20; r++) await op(100 + r, 'upheld', 10 + r, false);
    });
    after(async () => {
      await fs?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    for (const format of FORMATS) {
      test(`${format}: every dispute, typed, with its parties, verdict and opinion counts`, async () => {
        const out = await exportTable({ source: fs.store.exportSource(), table: 'disputes', format, pageSize: 7 });
        const file = join(dir, `zerox1-disputes-v${TABLES.disputes.version}.${format}`);
        writeFileSync(file, await collect(out.bytes));
        const sql =
          format === 'csv'
            ? duckdbCsvRecipe('disputes')
                .replace(/read_csv\('[^']+'/, `read_csv('${file}'`)
                .replace(/;$/, '')
            : format === 'jsonl'
              ? `SELECT * FROM read_json('${file}', format = 'newline_delimited')`
              : `SELECT * FROM read_parquet('${file}')`;
        const con = await (await duck!.DuckDBInstance.create(':memory:')).connect();
        try {
          const rows = (await con.runAndReadAll(sql)).getRowObjectsJson();
          assert.equal(rows.length, expected);
          assert.deepEqual(
            Object.keys(rows[0]),
            TABLES.disputes.columns.map((c) => c.name),
          );
          const one = rows.find((r) => String(r.dispute_id) === disputed);
          assert.ok(one, `dispute ${disputed} is in the ${format}`);
          assert.deepEqual([one.opinions, one.upheld, one.rejected, one.unclear].map(Number), [2, 0, 1, 1]);
          // The demo's disputes contest a failing verdict: a notary, a verdict that did not pass.
          for (const r of rows) {
            assert.match(String(r.notary), /^[0-9a-f]{64}$/);
            assert.equal(String(r.verdict_passed), 'false');
            assert.notEqual(String(r.disputer), String(r.dispute_recipient));
          }
          const typed = (
            await con.runAndReadAll(
              `SELECT count(*) FILTER (WHERE opinions > 0)::INT AS reviewed, ` +
                `min(disputed_at) < max(disputed_at) AS ordered FROM (${sql})`,
            )
          ).getRowObjectsJson()[0];
          assert.equal(Number(typed.reviewed), 1);
        } finally {
          con.closeSync();
        }
      });
    }
  });
}

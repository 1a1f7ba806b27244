/**
 * `npm run bench:bytes -- [DATA_DIR | postgres://…] [DATASETS_DIR]`: where the bytes of a running
 * observatory's history go, per stored envelope. It reads a database the observatory wrote (the
 * PGlite folder `<DATA_DIR>/pglite`, default `.data`, or a Postgres URL) and, when there is one,
 * its release folder (`<DATA_DIR>/datasets`), and prints:
 *
 * - envelopes stored and their raw signed bytes (the source every other column derives from);
 * - the database's size per envelope, in all and above a freshly migrated empty database;
 * - each table's heap, indexes and TOAST per envelope (the envelope partitions summed), and each
 *   envelope index per envelope;
 * - release files per epoch against the raw bytes of that epoch's envelopes, every revision
 *   included, a hard link (the `latest/` entries) once: the bytes on disk;
 * - PASS/FAIL against the targets: ≤ 2.0 kB per envelope in the database, release files ≤ 1.2 ×
 *   the raw bytes.
 *
 * It measures what is there: run the demo (`npm start`) for a while first, or point it at a
 * deployment's database. Read-only; on PGlite it opens a copy of the folder, so a running server
 * keeps its own.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openStore, type Store } from '../lib/store';
import { rawQuery } from '../lib/store/testing';

const DB_TARGET = 2_000;
const RELEASE_TARGET = 1.2;

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);
const per = (bytes: number, n: number) => (n > 0 ? (bytes / n).toFixed(0) : '–').padStart(6);

async function sizes(store: Store) {
  const [c] = await rawQuery(store)<Row>(
    'SELECT count(*)::text AS n, COALESCE(sum(octet_length(raw)), 0)::text ' +
      'AS raw, pg_database_size(current_database())::text AS db FROM envelope',
  );
  // Tables with their partitions folded into the parent's name (envelope_e… → envelope).
  const tables = await rawQuery(store)<Row>(
    `SELECT COALESCE(p.relname, c.relname) AS rel, sum(pg_relation_size(c.oid))::text AS heap,
       sum(pg_indexes_size(c.oid))::text AS idx,
       sum(COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0))::text AS toast
     FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
     LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class p ON p.oid = i.inhparent
     WHERE ns.nspname = current_schema() AND c.relkind = 'r'
     GROUP BY 1 ORDER BY sum(pg_total_relation_size(c.oid)) DESC`,
  );
  const indexes = await rawQuery(store)<Row>(
    `SELECT COALESCE(pi.relname, ic.relname) AS idx, sum(pg_relation_size(ic.oid))::text AS bytes
     FROM pg_index x JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     LEFT JOIN pg_inherits i ON i.inhrelid = ic.oid LEFT JOIN pg_class pi ON pi.oid = i.inhparent
     LEFT JOIN pg_inherits ti ON ti.inhrelid = t.oid LEFT JOIN pg_class tp ON tp.oid = ti.inhparent
     WHERE COALESCE(tp.relname, t.relname) = 'envelope' GROUP BY 1 ORDER BY sum(pg_relation_size(ic.oid)) DESC`,
  );
  const byEpoch = await rawQuery(store)<Row>(
    'SELECT epoch::text AS epoch, sum(octet_length(raw))::text AS raw FROM envelope GROUP BY epoch',
  );
  return { n: num(c?.n), raw: num(c?.raw), db: num(c?.db), tables, indexes, byEpoch };
}

/** Every file under `dir` once (hard links once: they take no more disk): its path below `dir` and its size. */
function* filesUnder(dir: string, below = '', seen = new Set<string>()): Generator<{ path: string; size: number }> {
  for (const e of readdirSync(join(dir, below), { withFileTypes: true })) {
    const path = join(below, e.name);
    if (e.isDirectory()) yield* filesUnder(dir, path, seen);
    else if (e.isFile()) {
      // A hard link (release `latest/` entries are links to a revision's file) takes no more disk: counted once.
      const st = statSync(join(dir, path));
      const inode = `${st.dev}:${st.ino}`;
      if (seen.has(inode)) continue;
      seen.add(inode);
      yield { path, size: st.size };
    }
  }
}

/** Bytes of the files under `dir`, and of those under its `pg_wal`. */
function folderBytes(dir: string): { all: number; wal: number } {
  let all = 0;
  let wal = 0;
  for (const f of filesUnder(dir)) {
    all += f.size;
    if (/(^|\/)pg_wal\//.test(f.path)) wal += f.size;
  }
  return { all, wal };
}

/** Bytes of every file under `dir` whose path names an epoch (`epoch=N`, `epoch-N`, `epochN`). */
function releaseBytes(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  if (!existsSync(dir)) return out;
  for (const f of filesUnder(dir)) {
    const m = /epoch[=-]?(\d+)/.exec(f.path);
    if (m?.[1]) out.set(m[1], (out.get(m[1]) ?? 0) + f.size);
  }
  return out;
}

async function emptyDatabaseBytes(): Promise<number> {
  const empty = await openStore({ dataDir: ':memory:', statsRollups: false });
  try {
    const [r] = await rawQuery(empty)<Row>('SELECT pg_database_size(current_database())::text AS db');
    return num(r?.db);
  } finally {
    await empty.close();
  }
}

async function main() {
  const target = process.argv[2] ?? process.env.DATA_DIR ?? '.data';
  const postgres = /^postgres(ql)?:\/\//.test(target);
  const datasets = resolve(process.argv[3] ?? (postgres ? '' : join(target, 'datasets')));
  let copy: string | undefined;
  let store: Store;
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  console.log(`bench:bytes on ${postgres ? 'Postgres' : `PGlite (${target})`}, load ${load}`);
  if (postgres) store = await openStore({ databaseUrl: target, statsRollups: false });
  else {
    const src = resolve(target, 'pglite');
    if (!existsSync(src))
      throw new Error(`${src} holds no PGlite database (run npm start first, or pass a postgres:// URL)`);
    const f = folderBytes(src);
    console.log(
      `  PGlite folder on disk: ${(f.all / 1e6).toFixed(1)} MB, of ` +
        `it ${(f.wal / 1e6).toFixed(1)} MB write-ahead log (pg_wal)`,
    );
    copy = mkdtempSync(join(tmpdir(), 'zerox1-bytes-'));
    cpSync(src, copy, { recursive: true });
    store = await openStore({ dataDir: copy, statsRollups: false });
  }
  try {
    const s = await sizes(store);
    const base = postgres ? 0 : await emptyDatabaseBytes();
    const above = s.db - base;
    console.log(`  envelopes ${s.n.toLocaleString('en')}, raw signed bytes ${per(s.raw, s.n).trim()} B each`);
    console.log(
      `  database ${per(s.db, s.n).trim()} B per envelope in all` +
        (base ? `, ${per(above, s.n).trim()} B above an empty migrated database (${(base / 1e6).toFixed(1)} MB)` : ''),
    );
    console.log('  per envelope (B):            heap  indexes   toast');
    // Tables under 5 B per envelope are left out of the list (not of the total).
    for (const t of s.tables.filter((t) => num(t.heap) + num(t.idx) + num(t.toast) >= 5 * s.n))
      console.log(
        `    ${String(t.rel).padEnd(26)} ${per(num(t.heap), s.n)}   ${per(num(t.idx), s.n)}  ${per(num(t.toast), s.n)}`,
      );
    console.log('  envelope indexes per envelope (B):');
    for (const i of s.indexes) console.log(`    ${String(i.idx).padEnd(56)} ${per(num(i.bytes), s.n)}`);
    const files = releaseBytes(datasets);
    const rawOf = new Map(s.byEpoch.map((r) => [String(r.epoch), num(r.raw)]));
    let fileSum = 0;
    let rawSum = 0;
    for (const [epoch, bytes] of files) {
      const raw = rawOf.get(epoch);
      if (!raw) continue;
      fileSum += bytes;
      rawSum += raw;
    }
    const dbPer = (base ? above : s.db) / Math.max(1, s.n);
    console.log(
      `${dbPer <= DB_TARGET ? 'PASS' : 'FAIL'} database bytes per ` +
        `envelope ≤ ${DB_TARGET.toLocaleString('en')} (${dbPer.toFixed(0)})`,
    );
    if (rawSum > 0)
      console.log(
        `${fileSum / rawSum <= RELEASE_TARGET ? 'PASS' : 'FAIL'} release files ≤ ${RELEASE_TARGET} × ` +
          `the raw bytes of their epochs, every revision included (${(fileSum / rawSum).toFixed(2)} over ` +
          `${files.size} epochs: ${(fileSum / 1e6).toFixed(1)} MB for ${(rawSum / 1e6).toFixed(1)} MB raw)`,
      );
    else console.log(`  no release files under ${datasets}`);
  } finally {
    await store.close();
    if (copy) rmSync(copy, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

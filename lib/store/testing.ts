/**
 * Test and bench helpers for lib/store: signed synthetic envelopes (real lib/protocol
 * encoding), throwaway Postgres databases and throwaway Postgres servers, raw SQL on an open
 * store (`rawQuery`, `rawDb`) and the repository functions benches time one statement at a time.
 * Not part of the runtime API: the Store has no raw SQL, and production code may not import this
 * file (.dependency-cruiser.cjs `no-test-support-in-source`).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildEnvelope } from '../protocol/envelope';
import { openPostgres, type Queryable } from './engine/db';
import { imageKey } from './engine/memory-image';
import { applyMigrations } from './engine/migrate';
import { rawHandles } from './engine/raw';
import type { Store } from './store';
import type { EnvelopeSource, IngestItem } from './types';

export type { Queryable } from './engine/db';

/**
 * Raw SQL on an open store's connection (tests and benches: set up or inspect rows the Store has
 * no method for). Refuses once the store is closed, as every Store method does.
 */
export function rawQuery(store: Store): <T = Record<string, unknown>>(sql: string, args?: unknown[]) => Promise<T[]> {
  const { db, live } = rawHandles(store);
  return <T = Record<string, unknown>>(sql: string, args?: unknown[]) => live(() => db.query<T>(sql, args));
}

/** The store's connection as a Queryable, for calling a repository function directly. */
export function rawDb(store: Store): Queryable {
  return { query: rawQuery(store) };
}

// Repository functions benches call over a Queryable of their own (bench:query times each
// statement with EXPLAIN ANALYZE; bench:query-load and bench:export use the ingest and COPY SQL).
export { collusionSignals } from './collusion/collusion';
export { counterpartiesOf } from './envelopes/counterparties';
export { epochOfFn, INGEST_SQL } from './envelopes/ingest';
export * as queries from './envelopes/queries';
export { replayEnvelopes } from './envelopes/replay';
export { encodeStage, STAGE_COLUMNS } from './envelopes/stage';
export { envelopesCopySql } from './export/export';
export { meshHealthObservers, readMeshHealth } from './mesh-health/mesh-health';
export {
  listReconciliation,
  reconciliationDetail,
  reconciliationTotals,
  refreshReconciliation,
} from './reconciliation/reconciliation';
export { gossipReputation } from './reputation/reputation';
export { statsSeries } from './stats/stats';

/** TEST_DATABASE_URL: the Postgres server tests make their throwaway databases on; undefined when unset. */
export const testPostgresUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

/** The `skip` option of a Postgres-only test or suite: false when TEST_DATABASE_URL is set, else the reason shown. */
export const skipWithoutPostgres = (): false | string =>
  testPostgresUrl() ? false : 'TEST_DATABASE_URL is not set (Postgres variant skipped)';

/** A deterministic 32-byte value from a small number (agent ids, seeds). */
export function bytes32(n: number, tag = 0): Uint8Array {
  const b = new Uint8Array(32);
  b[0] = tag;
  new DataView(b.buffer).setUint32(28, n);
  return b;
}

export function conv16(n: number): Uint8Array {
  const b = new Uint8Array(16);
  new DataView(b.buffer).setUint32(12, n);
  return b;
}

export interface MakeItemParams {
  msgType: number;
  sender: Uint8Array;
  recipient?: Uint8Array;
  conversationId: Uint8Array;
  nonce: bigint;
  timestamp: bigint;
  payload?: Uint8Array;
  blockRef?: bigint;
  source?: EnvelopeSource;
  topic?: string;
  receivedAt?: Date;
}

/** Builds and signs an envelope (seed = sender id, fine for tests) and wraps it as an IngestItem. */
export function makeItem(p: MakeItemParams): IngestItem {
  const built = buildEnvelope(
    {
      msgType: p.msgType,
      sender: p.sender,
      recipient: p.recipient,
      conversationId: p.conversationId,
      nonce: p.nonce,
      timestamp: p.timestamp,
      payload: p.payload ?? new Uint8Array(0),
      blockRef: p.blockRef,
    },
    p.sender,
  );
  return {
    id: built.id,
    envelope: built.envelope,
    raw: built.bytes,
    source: p.source ?? 'gossip',
    topic: p.topic,
    receivedAt: p.receivedAt ?? new Date(Number(p.timestamp / 1000n)),
  };
}

const withDatabase = (baseUrl: string, name: string) => {
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return u.toString();
};

/**
 * The name of a template database on the server of `baseUrl` holding every migration and no
 * rows, built once per migration set (under an advisory lock, so concurrent test files build it
 * once). Copying it (CREATE DATABASE … TEMPLATE) takes a fraction of the schema engine's time on
 * an empty database. Templates of other migration sets stay (a few MB each; `zx_tmpl_*` may be
 * dropped while no test runs: the next test builds its own again).
 */
async function migratedTemplate(baseUrl: string): Promise<string> {
  const name = `zx_tmpl_${await imageKey()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', ['zx_test_template']);
    const have = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (have.rowCount) return name;
    // A build cut short by a killed process left its half; this holder of the lock starts again.
    const building = `${name}_b`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const db = await openPostgres(withDatabase(baseUrl, building));
    try {
      await applyMigrations({ db, factory: db.adapter });
    } finally {
      await db.close();
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', ['zx_test_template']).catch(() => undefined);
    await admin.end();
  }
}

/**
 * A fresh database on the server of `baseUrl`; `drop()` removes it. `migrated`: a copy of a
 * template that already holds every migration (openStore then finds nothing to apply); without
 * it the database is empty, for tests of the migrations themselves.
 */
export async function createTestDatabase(
  baseUrl: string,
  prefix = 'zx_store',
  opts: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = opts.migrated ? await migratedTemplate(baseUrl) : null;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: withDatabase(baseUrl, name),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** True when a Postgres server answers at `url` within `timeoutMs` (benches pick their store with it). */
export async function postgresReachable(url: string, timeoutMs = 2_000): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * A throwaway Postgres server of its own (initdb into a temp dir, pg_ctl on a free port), for
 * tests and benches that stop and start the server: never the shared one other processes use.
 * initdb refuses to run as root, so as root every server binary runs as the `postgres` OS user
 * (the Debian package's), in a directory that user owns.
 */
export interface ThrowawayCluster {
  url: string;
  port: number;
  dir: string;
  /** `pg_ctl stop -m <mode>` (immediate: like a crash, every connection dropped at once). */
  stop(mode?: 'immediate' | 'fast'): void;
  start(): void;
  destroy(): void;
}

/** The newest installed server's bin directory (Debian layout), or undefined. */
export function findPostgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(base, versions[0], 'bin') : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Starts a fresh cluster; a string says why it cannot (no server binaries, no postgres user). */
export async function startThrowawayCluster(): Promise<ThrowawayCluster | string> {
  const bin = findPostgresBin();
  if (!bin) return 'no Postgres server binaries (/usr/lib/postgresql/*/bin/initdb): install the postgresql package';
  let ids: { uid: number; gid: number } | undefined;
  if (process.getuid?.() === 0) {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    if (!line) return 'running as root and there is no postgres OS user to run initdb as';
    const f = line.split(':');
    ids = { uid: Number(f[2]), gid: Number(f[3]) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'zx-pgcluster-'));
  if (ids) chownSync(dir, ids.uid, ids.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(join(bin, cmd), args, {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      ...(ids ?? {}),
      env: { ...process.env, LC_ALL: 'C' },
    });
    if (r.status !== 0)
      throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const opts =
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c ` +
    `fsync=off -c full_page_writes=off -c max_connections=50`;
  const cluster: ThrowawayCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    start: () => run('pg_ctl', ['start', '-D', data, '-w', '-t', '60', '-l', join(dir, 'server.log'), '-o', opts]),
    stop: (mode = 'immediate') => run('pg_ctl', ['stop', '-D', data, '-w', '-m', mode]),
    destroy() {
      try {
        run('pg_ctl', ['stop', '-D', data, '-w', '-m', 'immediate']);
      } catch {
        /* already stopped */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    cluster.start();
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return cluster;
}

/**
 * Applies prisma/migrations at start with Prisma's schema engine (WASM, offline), recording
 * them in `_prisma_migrations` exactly as `prisma migrate deploy` does.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { Db } from './db';
import { MigrationError } from './errors';
import { loadMigrationList, openSchemaEngine } from './schema-engine';

/** Default locations: the repository's prisma/ folder. */
export const PRISMA_DIR = fileURLToPath(new URL('../../../prisma/', import.meta.url));
export const SCHEMA_PATH = `${PRISMA_DIR}schema.prisma`;
export const MIGRATIONS_DIR = `${PRISMA_DIR}migrations`;

/** Advisory lock key serialising migrations across processes sharing one Postgres. */
const MIGRATION_LOCK_KEY = 0x7a783031; // "zx01"; Prisma's engine takes its own lock 72707369 inside

export interface ApplyMigrationsParams {
  db: Db;
  factory: SqlMigrationAwareDriverAdapterFactory;
  migrationsDir?: string;
  schemaPath?: string;
  log?: (msg: string) => void;
}

export interface ApplyMigrationsResult {
  /** Migrations applied by this call (empty when the database was up to date). */
  applied: string[];
  /** True when the fast path found every migration recorded with its checksum. */
  upToDate: boolean;
}

/**
 * Applies pending migrations. Fast path: if `_prisma_migrations` already records every
 * migration folder as finished with the same SHA-256 checksum the engine writes, the WASM
 * engine is not loaded. Otherwise the engine's `applyMigrations` runs (the same code path
 * as `prisma migrate deploy`), under a Postgres advisory lock so two starting processes do
 * not race.
 */
export async function applyMigrations(params: ApplyMigrationsParams): Promise<ApplyMigrationsResult> {
  const migrationsDir = params.migrationsDir ?? MIGRATIONS_DIR;
  const list = await loadMigrationList(migrationsDir);
  if (list.migrationDirectories.length === 0) throw new MigrationError(`no migrations found in ${migrationsDir}`);
  const { db } = params;
  return db.withLock(MIGRATION_LOCK_KEY, async () => {
    if (await upToDate(db, list.migrationDirectories)) return { applied: [], upToDate: true };
    const schema = await readFile(params.schemaPath ?? SCHEMA_PATH, 'utf8');
    let engine;
    try {
      engine = await openSchemaEngine(params.factory, schema, 'schema.prisma', params.log);
      const out = await engine.applyMigrations({
        migrationsList: list,
        filters: { externalTables: [], externalEnums: [] },
      });
      return { applied: out.appliedMigrationNames, upToDate: false };
    } catch (cause) {
      throw new MigrationError(`applying migrations from ${migrationsDir} failed: ${describe(cause)}`, { cause });
    } finally {
      engine?.free();
    }
  });
}

function describe(e: unknown): string {
  if (e instanceof Error) return e.message;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

type MigrationDir = Awaited<ReturnType<typeof loadMigrationList>>['migrationDirectories'][number];

async function upToDate(db: Db, dirs: MigrationDir[]): Promise<boolean> {
  const exists = await db.query<{ t: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
  if (!exists[0]?.t) return false;
  const rows = await db.query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const have = new Map(rows.map((r) => [r.migration_name, r.checksum]));
  return dirs.every(
    (d) =>
      d.migrationFile.content.tag === 'ok' &&
      have.get(d.path) === createHash('sha256').update(d.migrationFile.content.value).digest('hex'),
  );
}

/**
 * Prisma's own schema engine (migrations: diff, applyMigrations) as WebAssembly, driven through a
 * Prisma driver adapter so it works offline (docs/architecture.md "Embedded defaults, real parts"). See
 * docs/decisions/store-prisma-offline.md.
 *
 * The package's entry does `import * as wasm from './schema_engine_bg.wasm'`, which Node 20
 * only accepts with `--experimental-wasm-modules`. We instantiate the same .wasm ourselves
 * against the package's own JS glue instead, so no flag is needed by `npm start` or tests.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import { StoreError } from './errors';

type Glue = typeof import('@prisma/schema-engine-wasm/schema_engine_bg') & {
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
};

let gluePromise: Promise<Glue> | undefined;

async function loadGlue(): Promise<Glue> {
  const glue = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as Glue;
  const require = createRequire(import.meta.url);
  const wasmPath = join(
    require.resolve('@prisma/schema-engine-wasm/schema_engine_bg').replace(/schema_engine_bg\.js$/, ''),
    'schema_engine_bg.wasm',
  );
  const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
    './schema_engine_bg.js': glue as unknown as WebAssembly.ModuleImports,
  });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue;
}

/** Version string of the loaded schema engine (for the decision note and health). */
export async function schemaEngineVersion(): Promise<string> {
  gluePromise ??= loadGlue();
  return (await gluePromise).version();
}

/**
 * Opens Prisma's schema engine on a driver adapter factory (PGlite or pg).
 * `schema` is the text of prisma/schema.prisma. Caller frees the engine with `engine.free()`.
 */
export async function openSchemaEngine(
  factory: SqlMigrationAwareDriverAdapterFactory,
  schema: string,
  schemaPath = 'schema.prisma',
  log?: (line: string) => void,
): Promise<SchemaEngine> {
  gluePromise ??= loadGlue();
  const glue = await gluePromise;
  const adapter = bindMigrationAwareSqlAdapterFactory(factory);
  try {
    return await glue.SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, (line: string) => log?.(line), adapter);
  } catch (cause) {
    throw new StoreError('schema engine failed to start', { cause });
  }
}

/** Reads prisma/migrations as the CLI does (folders sorted by name, migration.sql, lock file). */
export async function loadMigrationList(migrationsDir: string): Promise<MigrationList> {
  let names: string[] = [];
  try {
    names = (await readdir(migrationsDir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw cause;
  }
  const lockPath = join(migrationsDir, 'migration_lock.toml');
  let lock: string | null = null;
  try {
    lock = await readFile(lockPath, 'utf8');
  } catch {
    lock = null;
  }
  const migrationDirectories = await Promise.all(
    names.map(async (name) => {
      const path = join(migrationsDir, name, 'migration.sql');
      try {
        return {
          path: name,
          migrationFile: {
            path: 'migration.sql',
            content: { tag: 'ok' as const, value: await readFile(path, 'utf8') },
          },
        };
      } catch (e) {
        return {
          path: name,
          migrationFile: { path: 'migration.sql', content: { tag: 'error' as const, value: String(e) } },
        };
      }
    }),
  );
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: lock },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

/**
 * An image of the empty, migrated in-memory PGlite database, so that opening a second in-memory
 * store skips PGlite's initdb and the schema engine (seconds each, against a fraction of a
 * second to load the image). Tests and benches open hundreds of in-memory stores; a file-backed
 * store (`npm start`) never uses this.
 *
 * The image is a tar of PGlite's data directory taken right after the migrations, before any
 * row or partition is written. It is keyed by PGlite's version and the content of every
 * migration, kept in this process and in the OS temp directory (written to a temporary name and
 * renamed, so concurrent processes never read half a file). A store opened from it still runs
 * the migration check: an image that lacked a migration would be migrated like any database.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from './migrate';
import { loadMigrationList } from './schema-engine';

const images = new Map<string, Promise<Blob | null>>();
let keyOnce: Promise<string> | null = null;

function pgliteVersion(): string {
  try {
    return (createRequire(import.meta.url)('@electric-sql/pglite/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The key of the image: PGlite's version and every migration's name and content. */
export function imageKey(): Promise<string> {
  keyOnce ??= loadMigrationList(MIGRATIONS_DIR).then((list) => {
    const h = createHash('sha256').update(pgliteVersion());
    for (const d of list.migrationDirectories) {
      h.update(d.path);
      h.update(d.migrationFile.content.tag === 'ok' ? d.migrationFile.content.value : '!');
    }
    return h.digest('hex').slice(0, 24);
  });
  return keyOnce;
}

const fileOf = (key: string) => join(tmpdir(), `zerox1-pglite-image-${key}.tar`);

/** The image for `key`, or null when none was taken yet. */
export function loadImage(key: string): Promise<Blob | null> {
  let p = images.get(key);
  if (!p) {
    p = readFile(fileOf(key)).then(
      (b) => new Blob([b]),
      () => null,
    );
    images.set(key, p);
  }
  return p;
}

/** Keeps `image` for `key` in this process and on disk; a failed write only costs the next process the slow open. */
export async function saveImage(key: string, image: Blob): Promise<void> {
  images.set(key, Promise.resolve(image));
  const file = fileOf(key);
  const tmp = `${file}.${process.pid}.${Date.now()}`;
  try {
    await writeFile(tmp, new Uint8Array(await image.arrayBuffer()));
    await rename(tmp, file);
  } catch {
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}

/** Forgets an image that failed to load, here and on disk. */
export async function dropImage(key: string): Promise<void> {
  images.delete(key);
  await rm(fileOf(key), { force: true }).catch(() => undefined);
}

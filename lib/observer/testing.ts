/**
 * Helpers for the observer's integration tests and bench: throwaway backends (PGlite in a temp
 * dir, or a fresh Postgres database when TEST_DATABASE_URL is set), a quiet logger, polling.
 * Not part of the runtime API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, testPostgresUrl } from '../store/testing';
import { defaultObservatoryConfig, type ObservatoryConfig } from './config';
import type { Logger } from './observatory';

export const quietLogger: Logger = { info() {}, warn() {}, error: (...a) => console.error(...a) };

export interface TestBackend {
  kind: 'pglite' | 'postgres';
  config: ObservatoryConfig;
  cleanup(): Promise<void>;
}

/** A config on a fresh PGlite directory or a fresh Postgres database; no demo agents. */
export async function makeBackend(kind: 'pglite' | 'postgres'): Promise<TestBackend> {
  const base = defaultObservatoryConfig({ listen: ['/ip4/127.0.0.1/tcp/0'], demoAgents: 0, port: 0 });
  if (kind === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'zx-observer-'));
    return {
      kind,
      config: { ...base, dataDir: dir },
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const url = testPostgresUrl();
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const db = await createTestDatabase(url, 'zx_observer');
  return { kind, config: { ...base, databaseUrl: db.url }, cleanup: () => db.drop() };
}

/** Polls `f` until it returns a truthy value (or throws after `timeoutMs` with `what`). */
export async function waitFor<T>(
  what: string,
  f: () => T | Promise<T>,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

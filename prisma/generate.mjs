#!/usr/bin/env node
// Generates the Prisma client into lib/store/generated (git-ignored) without network access.
// `prisma generate` does not use the schema engine, but the CLI insists on finding a binary for
// it and would try to download one; any existing file satisfies it (docs/architecture.md "Embedded defaults, real
// parts"). Run by `npm run db:generate` and from `postinstall`, so `npm ci` leaves a working client.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const schema = fileURLToPath(new URL('./schema.prisma', import.meta.url));
const require = createRequire(import.meta.url);
let cli;
try {
  cli = require.resolve('prisma/build/index.js');
} catch {
  console.error('prisma/generate.mjs: the "prisma" package is not installed; skipping client generation');
  process.exit(0);
}
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY))
  env.PRISMA_SCHEMA_ENGINE_BINARY = schema;
const r = spawnSync(process.execPath, [cli, 'generate', '--schema', schema], { cwd: root, env, stdio: 'inherit' });
process.exit(r.status ?? 1);

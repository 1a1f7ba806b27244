#!/usr/bin/env node
// Runs every *.test.ts / *.test.mts file under the source folders with node's test runner
// (TypeScript through tsx), prints the spec report and ends with "N passed, N failed".
// Usage: npm test [-- filter-substring ...]
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebApp, needsBuild } from './web-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const roots = ['lib', 'server', 'programs', 'app', 'components', 'e2e', 'scripts'];
const skip = new Set(['node_modules', '.next', '.data', 'generated']);

function walk(dir, out) {
  let names;
  try { names = readdirSync(dir); } catch { return out; }
  for (const name of names) {
    if (skip.has(name)) continue;
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) walk(p, out);
    else if (/\.test\.(ts|mts|tsx)$/.test(name)) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
let files = roots.flatMap((r) => walk(join(root, r), [])).map((f) => relative(root, f)).sort();
if (filters.length) files = files.filter((f) => filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error('no test files found');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// The end-to-end files run `npm start`'s launcher, which builds a missing or stale app first;
// building here, once and outside any test's time budget, keeps a slow build from failing a test.
const buildReason = files.some((f) => f.startsWith('e2e/')) ? needsBuild() : null;
if (buildReason) {
  console.log(`> building the web app for the end-to-end tests (${buildReason}): next build`);
  if (!buildWebApp({ ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' })) console.log('> next build failed; the end-to-end tests will report it');
}

const args = [
  '--import', 'tsx',
  '--import', './scripts/setup-node.mjs',
  '--test',
  '--test-concurrency=1',
  '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/summary-reporter.mjs', '--test-reporter-destination=stdout',
  ...files,
];
const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

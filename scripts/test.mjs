#!/usr/bin/env node
// Runs every *.test.ts / *.test.mts file under the source folders with node's test runner
// (TypeScript through tsx), prints the spec report and ends with "N passed, N failed".
// Usage: npm test [-- filter-substring ...]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebApp, needsBuild } from './web-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const roots = ['lib', 'server', 'programs', 'app', 'components', 'e2e', 'scripts'];
const skip = new Set(['node_modules', '.next', '.data', 'generated']);

function walk(dir, out) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
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
let files = roots
  .flatMap((r) => walk(join(root, r), []))
  .map((f) => relative(root, f))
  .sort();
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
  if (!buildWebApp({ ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' }))
    console.log('> next build failed; the end-to-end tests will report it');
}

// Two phases: the files that start no web server run side by side (TEST_CONCURRENCY, default
// the machine's cores up to 2: most of their time is module loading and the database), then the
// end-to-end files one at a time, since each starts a server, a demo mesh and Chromium.
const unit = files.filter((f) => !f.startsWith('e2e/'));
const e2e = files.filter((f) => f.startsWith('e2e/'));
const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY) || Math.min(2, availableParallelism()));
const summaryDir = mkdtempSync(join(tmpdir(), 'zx-test-'));

function phase(list, jobs, name) {
  if (list.length === 0) return Promise.resolve({ passed: 0, failed: 0, skipped: 0, perFile: [], code: 0 });
  const out = join(summaryDir, `${name}.json`);
  const args = [
    '--import',
    'tsx',
    '--import',
    './scripts/setup-node.mjs',
    '--test',
    // A file whose tests have ended exits even if something it started still holds the event
    // loop (a failed set-up that left a server or a child running): one failure, not a hung run.
    '--test-force-exit',
    `--test-concurrency=${jobs}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/summary-reporter.mjs',
    '--test-reporter-destination=stdout',
    ...list,
  ];
  const started = Date.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test', TEST_SUMMARY_JSON: out },
  });
  return new Promise((res) =>
    child.on('exit', (code, signal) => {
      let s = { passed: 0, failed: 1, skipped: 0, perFile: [] };
      try {
        s = JSON.parse(readFileSync(out, 'utf8'));
      } catch {
        console.log(`> the ${name} phase ended without a summary (${signal ?? `exit ${code}`})`);
      }
      console.log(
        `> ${name} phase: ${list.length} files, ${jobs} at a time, ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
      // A phase that failed without a failing test counted (a file that could not load) is one failure.
      if ((code ?? 1) !== 0 && s.failed === 0) {
        console.log(`> the ${name} phase exited ${signal ?? code} with no failing test counted: one failure`);
        s.failed = 1;
      }
      res({ ...s, code: code ?? 1 });
    }),
  );
}

const results = [await phase(unit, concurrency, 'unit'), await phase(e2e, 1, 'e2e')];
const sum = (k) => results.reduce((n, r) => n + r[k], 0);
const perFile = results.flatMap((r) => r.perFile).sort((a, b) => b[1] - a[1]);
if (perFile.length) {
  const total = perFile.reduce((n, [, ms]) => n + ms, 0);
  console.log(`\nslowest test files (of ${perFile.length}, ${(total / 1000).toFixed(0)} s of tests in all):`);
  for (const [f, ms] of perFile.slice(0, 12)) console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${f}`);
}
const skipped = sum('skipped');
console.log(`\n${sum('passed')} passed, ${sum('failed')} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(results.some((r) => r.code !== 0) || sum('failed') > 0 ? 1 : 0);

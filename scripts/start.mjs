#!/usr/bin/env node
// `npm start`: builds the Next.js app when there is no build or the sources are newer than it,
// then runs the one observatory process (server/main.ts) in production mode. Signals are forwarded so
// Ctrl-C stops the observer, the demo mesh and the database cleanly.
// `npm start -- --no-build` skips the freshness check (serve whatever .next holds).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const buildId = join(root, '.next', 'BUILD_ID');
// patches/: patch-package fixes to dependencies the browser bundle includes (postinstall applies them).
const sources = ['app', 'components', 'lib', 'public', 'patches', 'next.config.ts', 'tsconfig.json', 'tsconfig.next.json', 'package-lock.json'];
const skip = new Set(['node_modules', '.next', '.data', 'generated']);

/** Newest mtime (ms) of the files the web build depends on. */
function newestSource() {
  let newest = 0;
  const visit = (p) => {
    let st;
    try { st = statSync(p); } catch { return; }
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (!skip.has(name) && !/\.test\.tsx?$/.test(name)) visit(join(p, name));
    } else if (st.mtimeMs > newest) newest = st.mtimeMs;
  };
  for (const s of sources) visit(join(root, s));
  return newest;
}

function needsBuild() {
  if (!existsSync(buildId)) return 'no build in .next';
  const built = statSync(buildId).mtimeMs;
  return newestSource() > built ? 'sources changed since the last build' : null;
}

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' };
const tsx = ['--import', 'tsx', '--import', './scripts/setup-node.mjs'];
// The configuration is checked (server/config.ts) before a build that may take minutes.
const checked = spawnSync(process.execPath, [...tsx, 'server/check-config.ts'], { cwd: root, env, stdio: 'inherit' });
if (checked.status !== 0) process.exit(checked.status ?? 1);
const reason = process.argv.includes('--no-build') ? null : needsBuild();
if (reason) {
  console.log(`> building the web app (${reason}): next build`);
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (r.status !== 0) {
    console.error('> next build failed; not starting');
    process.exit(r.status ?? 1);
  }
}

const child = spawn(process.execPath, [...tsx, 'server/main.ts'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

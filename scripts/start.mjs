#!/usr/bin/env node
// `npm start`: builds the Next.js app when there is no build or the sources are newer than it,
// then runs the one observatory process (server/main.ts) in production mode. Signals are forwarded so
// Ctrl-C stops the observer, the demo mesh and the database cleanly.
// `npm start -- --no-build` skips the freshness check (serve whatever .next holds).
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { OBSERVER_NODE_FLAGS } from './observer-node-flags.mjs';
import { buildWebApp, needsBuild } from './web-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' };
const tsx = ['--import', 'tsx', '--import', './scripts/setup-node.mjs'];
// The configuration is checked (server/config.ts) before a build that may take minutes.
const checked = spawnSync(process.execPath, [...tsx, 'server/check-config.ts'], { cwd: root, env, stdio: 'inherit' });
if (checked.status !== 0) process.exit(checked.status ?? 1);
const reason = process.argv.includes('--no-build') ? null : needsBuild();
if (reason) {
  console.log(`> building the web app (${reason}): next build`);
  if (!buildWebApp(env)) {
    console.error('> next build failed; not starting');
    process.exit(1);
  }
}

const child = spawn(process.execPath, [...OBSERVER_NODE_FLAGS, ...tsx, 'server/main.ts'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

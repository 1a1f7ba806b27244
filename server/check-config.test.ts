/**
 * `npm start` refuses a bad environment before building anything: scripts/start.mjs runs
 * server/check-config.ts first and stops with its message naming the variable.
 */

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

for (const [name, value] of [
  ['PORT', 'abc'],
  ['LOG_LEVEL', 'loud'],
  ['CHAIN_PORT', '99999'],
] as const) {
  test(`npm start with ${name}=${value} exits 1 naming ${name}, before any build`, () => {
    const r = spawnSync(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { ...process.env, [name]: value },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`^configuration: ${name}: .*${JSON.stringify(value).replace(/"/g, '"')}`, 'm'));
    assert.doesNotMatch(r.stdout, /building the web app/);
  });
}

test('npm start with CLUSTER=custom and no SATI_PROGRAM_ID exits 1 naming SATI_PROGRAM_ID, before any build', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, CLUSTER: 'custom', SOLANA_RPC_URL: 'http://127.0.0.1:9' };
  delete env.SATI_PROGRAM_ID;
  const r = spawnSync(process.execPath, ['scripts/start.mjs'], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^configuration: SATI_PROGRAM_ID: is required with CLUSTER=custom/m);
  assert.doesNotMatch(r.stdout, /building the web app/);
});

/** `npm start` and `npm run bench:ingest` run the observer with the same V8 flags. */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { OBSERVER_NODE_FLAGS } from './observer-node-flags.mjs';

test('bench:ingest runs node with OBSERVER_NODE_FLAGS and start.mjs passes them to the server', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const argv = pkg.scripts['bench:ingest']!.split(/\s+/);
  assert.equal(argv[0], 'node');
  assert.deepEqual(argv.slice(1, 1 + OBSERVER_NODE_FLAGS.length), OBSERVER_NODE_FLAGS);
  const start = readFileSync(new URL('./start.mjs', import.meta.url), 'utf8');
  assert.match(start, /spawn\(process\.execPath, \[\.\.\.OBSERVER_NODE_FLAGS, \.\.\.tsx, 'server\/main\.ts'\]/);
});

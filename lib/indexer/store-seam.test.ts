// The indexer reaches the database only through the store's named methods: no SQL text and no
// raw `query` calls in its sources (lib/store holds every statement).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const SQL = /\b(SELECT\s+[\w*(]|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|ON\s+CONFLICT)\b|\.query\s*[<(]/i;

test('lib/indexer sources hold no SQL and call no raw query', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  assert.ok(
    files.includes('apply.ts') && files.includes('verify.ts'),
    'expected the indexer sources next to this test',
  );
  const offenders = files.filter((f) => SQL.test(readFileSync(dir + f, 'utf8')));
  assert.deepEqual(offenders, []);
  // The pattern does catch SQL: a line as apply.ts used to hold it.
  assert.ok(SQL.test('await st.query(`INSERT INTO stake (agent_id) VALUES ($1)`)'));
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { columnsMarkdown, DOCS_BEGIN, DOCS_END } from './docs';

test('docs/datasets.md holds the columns generated from the column lists', () => {
  const doc = readFileSync(new URL('../../docs/datasets.md', import.meta.url), 'utf8');
  const a = doc.indexOf(DOCS_BEGIN);
  const b = doc.indexOf(DOCS_END);
  assert.ok(a >= 0 && b > a, 'markers present');
  assert.equal(
    doc.slice(a, b + DOCS_END.length),
    columnsMarkdown(),
    'run `npm run export -- --docs` and paste the output',
  );
});

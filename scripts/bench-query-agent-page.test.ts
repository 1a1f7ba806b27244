// bench:query's agent page report: the inline RSC payload counted apart from the markup, and a
// list short of its first page named, so a small load's figure reads as the floor it is.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AGENT_PAGE_ROWS } from '../app/_lib/agent-page';
import { pageParts } from './bench-query-agent-page';

const table = (testid: string, n: number) =>
  `<table data-testid="${testid}"><thead><tr><th>x</th></tr></thead><tbody>` +
  `${'<tr><td>r</td></tr>'.repeat(n)}</tbody></table>`;
const rsc = '<script>self.__next_f.push([1,"0:{}"])</script>';

test('the RSC payload is counted apart, and each list against its first page', () => {
  const full = [
    table('agent-batches', AGENT_PAGE_ROWS.batches),
    table('agent-challenges', AGENT_PAGE_ROWS.challenges),
    table('challenge-rows', AGENT_PAGE_ROWS.pending),
    table('counterparties', AGENT_PAGE_ROWS.counterparties),
    table('conversation-list', AGENT_PAGE_ROWS.conversations),
    table('envelope-feed', AGENT_PAGE_ROWS.envelopes),
  ].join('');
  const p = pageParts(`<main>${full}</main>${rsc}<script>other()</script>`);
  assert.equal(p.rsc, Buffer.byteLength(rsc));
  assert.deepEqual(p.short, []);
  assert.equal(p.lists.find((l) => l.name === 'pending challenges')?.rows, AGENT_PAGE_ROWS.pending);
  // A quiet agent: three envelopes and no challenge table at all.
  const quiet = pageParts(
    full
      .replace(table('envelope-feed', AGENT_PAGE_ROWS.envelopes), table('envelope-feed', 3))
      .replace(table('agent-challenges', AGENT_PAGE_ROWS.challenges), ''),
  );
  assert.deepEqual(quiet.short, [
    `challenges 0 of ${AGENT_PAGE_ROWS.challenges}`,
    `envelopes 3 of ${AGENT_PAGE_ROWS.envelopes}`,
  ]);
  assert.equal(quiet.rsc, 0);
});

// The conversations list's deal columns each explain themselves: every header carries its
// definition as a tooltip (the glossary's text, a link to it where the header is no sort link).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { agentConversationRows, ConversationList, type DealColumns } from './ConversationList';
import { GLOSSARY } from './glossary';

const A = '11'.repeat(32),
  B = '22'.repeat(32),
  C = 'ab'.repeat(16);
const conv = {
  id: C,
  participants: [A, B],
  stage: 'completed',
  outcome: 'agreed',
  state: 'completed (agreed)',
  messages: 9,
  firstMs: 1_800_000_000_000,
  lastMs: 1_800_000_060_000,
};
const deal: DealColumns = {
  buyer: A,
  seller: B,
  service: 'translation',
  serviceHash: 'cd'.repeat(32),
  rounds: 2,
  lastPrice: '810',
  token: { decimals: 6, symbol: 'USDC' },
  outcome: 'agreed',
  onChain: true,
  differences: 1,
};

test('every header of the deal columns has a tooltip; the badges explain themselves', () => {
  const html = renderToStaticMarkup(
    <ConversationList
      conversations={[conv as never]}
      deals={{ [C]: deal }}
      sort={{ rounds: { href: '?sort=rounds', active: false }, price: { href: '?sort=price', active: true } }}
    />,
  );
  const heads = [...html.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((m) => m[1]);
  assert.equal(heads.length, 8);
  for (const h of heads) assert.match(h, /title="[^"]{20,}"/, `a header without a tooltip: ${h}`);
  for (const k of ['service', 'roles', 'round', 'lastPrice', 'outcome'] as const)
    assert.ok(html.includes(`data-term="${k}"`), `the ${GLOSSARY[k].term} definition is used`);
  // The sortable headers stay one link each (no link inside the sort link).
  for (const h of heads.filter((x) => x.includes('?sort='))) assert.equal(h.match(/<a /g)?.length, 1);
  assert.match(html, /class="badge onchain" title="Mirrored on chain\. Haggle/);
  assert.match(html, /class="badge differs" title="1 difference\(s\)\. Differs:/);
});

test("an agent's list (no deal columns) explains its conversation and stage headers", () => {
  const html = renderToStaticMarkup(<ConversationList conversations={[conv as never]} self={A} />);
  assert.ok(html.includes('data-term="conversation"') && html.includes('data-term="stage"'));
});

test('an agent\'s "With" names the deal\'s other party once, not every agent that bid or listened', () => {
  const crowd = Array.from({ length: 7 }, (_, i) =>
    String(i + 3)
      .padStart(2, '0')
      .repeat(32),
  );
  const c = { ...conv, participants: [A, B, ...crowd, B] };
  const html = renderToStaticMarkup(
    <ConversationList conversations={[c as never]} self={A} parties={{ [C]: { ...deal, parties: [A, B, B] } }} />,
  );
  assert.equal([...html.matchAll(/data-agent="([0-9a-f]+)"/g)].length, 1);
  assert.match(html, new RegExp(`data-agent="${B}"`));
});

test("an agent page's rows carry only the agents its With names, and draw the same With", () => {
  const crowd = Array.from({ length: 7 }, (_, i) =>
    String(i + 3)
      .padStart(2, '0')
      .repeat(32),
  );
  const c = { ...conv, participants: [A, B, ...crowd] } as never;
  const rows = agentConversationRows([c], A, { [C]: { parties: [A, B] } });
  // The bidders and listeners are not handed to the browser, nor the first-seen time no cell shows.
  assert.deepEqual(rows[0].participants, [B]);
  assert.ok(!('firstMs' in rows[0]));
  const html = renderToStaticMarkup(<ConversationList conversations={rows} self={A} />);
  assert.deepEqual(
    [...html.matchAll(/data-agent="([0-9a-f]+)"/g)].map((m) => m[1]),
    [B],
  );
  // Without stored negotiators, With is every other participant.
  assert.deepEqual(agentConversationRows([c], A, {})[0].participants, [B, ...crowd]);
});

test('feedback without a deal is said as such: no "open" outcome, no "unknown" seller', () => {
  const ring = {
    ...conv,
    participants: [A],
    stage: 'feedback_without_deal',
    outcome: 'no_deal',
    state: 'feedback without a deal',
    messages: 2,
  };
  const none: DealColumns = {
    ...deal,
    buyer: null,
    seller: null,
    service: null,
    serviceHash: null,
    rounds: 0,
    lastPrice: null,
    outcome: 'no_deal',
    onChain: false,
    differences: 0,
  };
  const html = renderToStaticMarkup(<ConversationList conversations={[ring as never]} deals={{ [C]: none }} />);
  assert.match(html, /data-outcome="no_deal">no deal</);
  assert.match(html, /data-stage="feedback_without_deal">feedback without a deal</);
  const body = html.slice(html.indexOf('<tbody>'));
  assert.ok(!body.includes('>open<') && !body.includes('>unknown<') && !body.includes('agreed'), body);
});

// The collusion tables say "unknown" with the reason where a figure cannot be known, show stake
// exactly in USDC, explain their terms with the glossary, and link every row to its evidence.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import type { CollusionView } from '../../lib/wire/collusion';
import {
  AgentCollusionSummary,
  ConcentrationTable,
  DeallessTable,
  duration,
  NotaryReuseTable,
  ReciprocalTable,
  WindowNote,
} from './CollusionTables';

const A = '11'.repeat(32),
  B = '22'.repeat(32),
  C = '33'.repeat(32),
  E1 = 'e1'.repeat(32),
  E2 = 'e2'.repeat(32),
  CV = 'cc'.repeat(16);
const win = { limit: 20_000, read: 12, truncated: false, oldestMs: 1_790_000_000_000 };
const view: CollusionView = {
  agent: null,
  limit: 20,
  tookMs: 3.2,
  windows: { feedback: win, conversations: { ...win, read: 20_000, truncated: true }, assignments: win },
  reciprocal: [
    {
      agent: A,
      counterparts: 2,
      counterpartsWithoutDeal: 1,
      given: 3,
      received: 4,
      meanGiven: 95,
      meanReceived: 96.33,
      medianGapMs: 10_000,
      pairs: [
        {
          counterpart: B,
          given: 2,
          received: 2,
          givenWithoutDeal: 2,
          receivedWithoutDeal: 2,
          latestGiven: E1,
          latestReceived: E2,
        },
      ],
    },
  ],
  concentration: [
    {
      agent: B,
      deals: 4,
      counterparties: 2,
      topCounterparty: A,
      topDeals: 3,
      topShare: 0.75,
      hhi: 0.625,
      unknownReason: null,
      latestDeal: CV,
    },
    {
      agent: C,
      deals: 2,
      counterparties: 1,
      topCounterparty: A,
      topDeals: 2,
      topShare: null,
      hhi: null,
      unknownReason: 'only 2 deals (fewer than 3): every share is large whatever the agent does',
      latestDeal: CV,
    },
  ],
  notaryReuse: {
    rows: [
      { agents: [A, B], assigned: 3, distinctNotaries: 1, notary: C, sameNotary: 3, share: 1, conversations: [CV] },
    ],
    unknownNotary: 2,
    unknownPair: 1,
  },
  dealless: [{ agent: A, received: 4, fromDealless: 2, raterCount: 1, raters: [C], meanScore: 99, latest: [E1] }],
  stakes: { [A]: { amount: '18446744073709551615', status: 'locked' }, [B]: { amount: '10000000', status: 'claimed' } },
};

test('figures, unknowns with their reasons, exact stake, evidence links', () => {
  const html = renderToStaticMarkup(
    <>
      <ReciprocalTable v={view} chain />
      <ConcentrationTable v={view} chain />
      <NotaryReuseTable v={view} chain />
      <DeallessTable v={view} chain />
      <WindowNote v={view} />
    </>,
  );
  assert.match(html, /18,446,744,073,709\.551615 USDC/, 'u64 stake shown exactly');
  assert.match(html, /none<\/span> <span class="muted small">\(claimed\)/, 'a claimed stake is not at risk');
  assert.match(html, /unknown: no stake account/, 'an agent without a stake account');
  assert.match(html, /title="only 2 deals \(fewer than 3\)[^"]*">unknown</, 'HHI unknown with its reason');
  assert.match(html, />0\.6250</);
  assert.match(html, />75\.0 %</);
  assert.ok(
    html.includes(`href="/envelopes/${E1}"`) && html.includes(`href="/envelopes/${E2}"`),
    'feedback envelopes linked',
  );
  assert.ok(html.includes(`href="/conversations/${CV}"`), 'conversations linked');
  assert.match(html, /Not counted: 2 conversations whose notary is unknown[\s\S]*and 1 whose pair is unknown/);
  for (const k of ['feedbackGap', 'hhi', 'stake', 'signalWindow'])
    assert.ok(html.includes(`data-term="${k}"`), `${k} explained`);
  // The window's oldest time is a <time> in the page's clock (UTC as rendered on the server).
  assert.match(
    html.replace(/<[^>]+>/g, ''),
    new RegExp(
      'all 12 FEEDBACK envelopes, the newest 20,000 conversations ' +
        '\\(since 2026-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC; older ones left out\\)',
    ),
  );
  assert.ok(
    !/NaN|undefined|null/.test(html.replace(/data-[a-z-]+="[^"]*"/g, '')),
    'no raw placeholder reaches the page',
  );
  assert.equal(renderToStaticMarkup(<StakeOnly chain={false} />).includes('unknown: no chain'), true);
});

const StakeOnly = ({ chain }: { chain: boolean }) => <DeallessTable v={{ ...view, stakes: {} }} chain={chain} />;

test("one agent's summary; empty tables say so", () => {
  const html = renderToStaticMarkup(<AgentCollusionSummary v={view} agent={C} chain href="/collusion?agent=x" />);
  assert.match(html, /unknown: only 2 deals/);
  assert.match(html, /in 3 of 3 conversations of/, 'the pairs it notarised');
  const empty = {
    ...view,
    reciprocal: [],
    concentration: [],
    notaryReuse: { rows: [], unknownNotary: 0, unknownPair: 0 },
    dealless: [],
  };
  const none = renderToStaticMarkup(
    <>
      <ReciprocalTable v={empty} chain />
      <ConcentrationTable v={empty} chain />
      <NotaryReuseTable v={empty} chain />
      <DeallessTable v={empty} chain />
    </>,
  );
  assert.equal((none.match(/class="muted empty"/g) ?? []).length, 4);
  assert.deepEqual([999, 2_500, 90_000, 7_200_000, 259_200_000].map(duration), [
    '999 ms',
    '2.5 s',
    '1.5 min',
    '2.0 h',
    '3.0 days',
  ]);
});

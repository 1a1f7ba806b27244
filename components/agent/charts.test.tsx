// The agent page's charts name time on their x axes: an epoch by its start in UTC (not a bare
// or truncated number), reputation ticks with the date once the span passes a day; the
// epoch's full number and clock range stay one hover away.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { EconomyChart } from './EconomyChart';
import { ReputationChart, thin } from './ReputationChart';

/** The x axis labels: the axis group's texts drawn at the bottom row. */
const xLabels = (html: string, y: number) =>
  [...html.matchAll(new RegExp(`<text x="[^"]+" y="${y}"[^>]*>([^<]+)</text>`, 'g'))].map((m) => m[1]);

const view = (
  points: Array<{
    epoch: number;
    stake: string;
    stakeStatus?: string;
    paidThroughEpoch: number | null;
    events: string[];
  }>,
) => ({
  agent: '11111111111111111111111111111111',
  known: true,
  reason: null,
  epochSeconds: 20,
  currentEpoch: points.at(-1)?.epoch ?? null,
  points: points.map((p) => ({ stakeStatus: 'locked', leaseActive: p.paidThroughEpoch === null ? null : true, ...p })),
  accounts: { stake: null, lease: null },
  historyNote: null,
});
/** The economy chart's wide drawing (the first svg; the narrow one for phones follows it). */
const wide = (html: string) => html.slice(0, html.indexOf('</svg>'));
/** The narrow drawing. */
const narrow = (html: string) => html.slice(html.indexOf('</svg>') + 6, html.lastIndexOf('</svg>'));
/** The stake axis labels: the texts of the axis group's tick rows (translated groups). */
const yLabels = (html: string) =>
  [...html.matchAll(/<g transform="translate\(0,([-\d.]+)\)"><line[^>]*><\/line><text[^>]*>([^<]+)<\/text>/g)].map(
    (m) => [Number(m[1]), m[2]] as const,
  );

test(
  'stake and lease: each epoch is labelled with its start ' + 'in UTC and its number and range are in the tooltip',
  () => {
    // 20 s epochs: 89,783,886 starts at 89,783,886 × 20 s = 2026-11-26T07:22:00Z.
    const points = [0, 1, 2].map((i) => ({
      epoch: 89_783_886 + i,
      stake: '1000000',
      paidThroughEpoch: 89_783_890,
      events: i === 0 ? ['stake locked'] : [],
    }));
    const html = renderToStaticMarkup(<EconomyChart view={view(points)} epochSeconds={20} />);
    assert.deepEqual(xLabels(wide(html), 204), ['07:22:00', '07:22:20', '07:22:40']);
    assert.match(html, /<title>epoch 89783886 \(2026-11-26 07:22:00 UTC – 07:22:20 UTC\): 1 USDC staked \(locked\)/);
    assert.doesNotMatch(html, /last 4 digits/);
    // Daily epochs read as dates.
    const daily = renderToStaticMarkup(
      <EconomyChart
        view={view([{ epoch: 20_783, stake: '0', stakeStatus: 'none', paidThroughEpoch: null, events: [] }])}
        epochSeconds={86_400}
      />,
    );
    assert.deepEqual(xLabels(wide(daily), 204), ['Nov 26']);
  },
);

test('stake axis: distinct labels from 0, the line inside the plot; a slashed agent ends at 0', () => {
  const slashed = renderToStaticMarkup(
    <EconomyChart
      view={view([
        { epoch: 5, stake: '10000000', paidThroughEpoch: 5, events: ['lease paid'] },
        { epoch: 6, stake: '0', stakeStatus: 'slashed', paidThroughEpoch: 5, events: ['slashed'] },
      ])}
      epochSeconds={20}
    />,
  );
  const ys = yLabels(wide(slashed));
  assert.deepEqual(
    ys.map((y) => y[1]),
    ['0', '5', '10'],
  );
  const [bottom, top] = [Math.max(...ys.map((y) => y[0])), Math.min(...ys.map((y) => y[0]))];
  const path = /<path d="([^"]+)" fill="none"/.exec(wide(slashed))![1];
  for (const m of path.matchAll(/[ML,]?([-\d.]+),([-\d.]+)/g))
    assert.ok(Number(m[2]) <= bottom + 0.01 && Number(m[2]) >= top - 0.01, `y ${m[2]} inside [${top}, ${bottom}]`);
  assert.match(slashed, /now: 0 USDC staked \(slashed\)/);
  // Never staked: the axis still reads 0 and 1 USDC, not "0, 0, 0".
  const none = yLabels(
    wide(
      renderToStaticMarkup(
        <EconomyChart
          view={view([{ epoch: 5, stake: '0', stakeStatus: 'none', paidThroughEpoch: 5, events: [] }])}
          epochSeconds={20}
        />,
      ),
    ),
  ).map((y) => y[1]);
  assert.equal(new Set(none).size, none.length, none.join(', '));
  assert.deepEqual([none[0], none.at(-1)], ['0', '1']);
  // On a phone: the latest 8 epochs, drawn narrow, and the caption says so.
  const many = renderToStaticMarkup(
    <EconomyChart
      view={view(
        Array.from({ length: 12 }, (_, i) => ({
          epoch: 100 + i,
          stake: '10000000',
          paidThroughEpoch: 120,
          events: [],
        })),
      )}
      epochSeconds={20}
    />,
  );
  assert.equal([...narrow(many).matchAll(/<rect /g)].length, 8);
  assert.equal([...wide(many).matchAll(/<rect /g)].length, 12);
  assert.match(many, /the latest 8 of 12 epochs/);
  // On a screen: at most the latest 24, and the caption says so.
  const lots = renderToStaticMarkup(
    <EconomyChart
      view={view(
        Array.from({ length: 75 }, (_, i) => ({
          epoch: 100 + i,
          stake: '10000000',
          paidThroughEpoch: 200,
          events: [],
        })),
      )}
      epochSeconds={20}
    />,
  );
  assert.equal([...wide(lots).matchAll(/<rect /g)].length, 24);
  assert.match(lots, /the latest 24 of 75 epochs with events read/);
  // The phone's plot has no hover text (no hover there): the wide one has one per bar.
  assert.equal([...narrow(lots).matchAll(/<title>/g)].length, 0);
  assert.equal([...wide(lots).matchAll(/<title>/g)].length, 24);
  // No chain: unknown, with the reason.
  const unknown = renderToStaticMarkup(
    <EconomyChart view={{ ...view([]), known: false, reason: 'this observatory runs no chain' }} epochSeconds={20} />,
  );
  assert.match(unknown, /Unknown: this observatory runs no chain/);
});

test('reputation over time: clock ticks within a day, dates across days, UTC', () => {
  const at = Date.parse('2026-11-24T10:00:00Z');
  const pts = (ms: number[]) => ms.map((t, i) => ({ tMs: t, reliability: 10 * i, cooperation: 5 * i }));
  const hour = renderToStaticMarkup(
    <ReputationChart h={{ gossip: pts([at, at + 20 * 60_000, at + 60 * 60_000]), authoritative: [] }} />,
  );
  const h = xLabels(hour, 232);
  assert.ok(h.length >= 3 && h.every((l) => /^1[01]:\d\d$/.test(l)), `hour span: ${h.join(' ')}`);
  const days = renderToStaticMarkup(
    <ReputationChart
      h={{
        gossip: pts([at, at + 86_400_000, at + 3 * 86_400_000]),
        authoritative: [{ tMs: at + 86_400_000, reliability: 1, cooperation: 1, epoch: '20782' }],
      }}
    />,
  );
  const d = xLabels(days, 232);
  assert.ok(d.length >= 3 && d.every((l) => /^Nov 2\d( \d\d:\d\d)?$/.test(l)), `days span: ${d.join(' ')}`);
  assert.match(days, /after the batch of epoch 20782, which ended 2026-11-25 10:00:00 UTC/);
});

test('reputation over time: at most 60 points per line, the newest kept, and the caption says so', () => {
  const at = Date.parse('2026-11-24T10:00:00Z');
  const pts = Array.from({ length: 240 }, (_, i) => ({ tMs: at + i * 20_000, reliability: i % 7, cooperation: i % 5 }));
  const html = renderToStaticMarkup(<ReputationChart h={{ gossip: pts, authoritative: [], gossipEarlier: true }} />);
  const d = /<path d="([^"]+)" fill="none"/.exec(html)![1];
  // A step line has two vertices per point (but the first).
  assert.equal((d.match(/[ML]/g) ?? []).length, 2 * 60 - 1);
  assert.match(html, /the newest 240 epochs with feedback; earlier ones are not drawn/);
  assert.match(html, /at most 60 points per line/);
  assert.deepEqual(thin([1, 2, 3, 4, 5, 6, 7], 3), [1, 4, 7]);
});

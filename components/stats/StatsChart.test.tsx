// A chart's hover targets: one per run of intervals with the same values, each naming its exact
// span in UTC, so a range that is mostly quiet or unknown does not cost a target per interval.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import type { StatsSeries } from '../../lib/wire/stats';
import { hoverRuns, StatsChart } from './StatsChart';

const series = (values: (string | null)[]): StatsSeries => ({
  metric: 'envelopes',
  range: '1h',
  stepSeconds: 60,
  from: '2026-11-28T22:00:00.000Z',
  to: new Date(Date.parse('2026-11-28T22:00:00.000Z') + values.length * 60_000).toISOString(),
  unit: 'envelopes',
  clipped: false,
  observedFrom: '2026-11-28T22:00:00.000Z',
  series: [{ key: 'envelopes', label: 'envelopes', service: null, token: null, values }],
});

test('runs of equal hover text become one target', () => {
  const t = ['a', 'a', 'b', 'a', 'a', 'a'];
  assert.deepEqual(
    hoverRuns(t.length, (i) => t[i] as string),
    [
      { from: 0, to: 2, text: 'a' },
      { from: 2, to: 3, text: 'b' },
      { from: 3, to: 6, text: 'a' },
    ],
  );
  assert.deepEqual(
    hoverRuns(0, () => 'x'),
    [],
  );
});

test('a mostly unknown hour draws one target per run, each with its UTC span, in both layouts', () => {
  const values: (string | null)[] = [...Array(50).fill(null), '3', '3', '7', ...Array(7).fill('0')];
  const html = renderToStaticMarkup(<StatsChart s={series(values)} />);
  const titles = [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
  // unknown ×50, 3 ×2, 7, 0 ×7: four runs, drawn in the wide and the narrow layout.
  assert.equal(titles.length, 8);
  assert.equal(titles[0], '2026-11-28T22:00:00Z to 2026-11-28T22:50:00Z (50 intervals of 60 s)\nenvelopes: unknown');
  assert.equal(titles[2], '2026-11-28T22:52:00Z + 60 s\nenvelopes: 7');
  // Coordinates carry at most two decimals.
  assert.doesNotMatch(html, /\d\.\d{3,}/);
});

// The agent page's charts name time on their x axes: an epoch by its start in UTC (not a bare
// or truncated number), reputation ticks with the date once the span passes a day; the
// epoch's full number and clock range stay one hover away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToStaticMarkup } from 'react-dom/server';
import { EconomyChart } from './EconomyChart';
import { ReputationChart } from './ReputationChart';

/** The x axis labels: the axis group's texts drawn at the bottom row. */
const xLabels = (html: string, y: number) => [...html.matchAll(new RegExp(`<text x="[^"]+" y="${y}"[^>]*>([^<]+)</text>`, 'g'))].map((m) => m[1]);

test('stake and lease: each epoch is labelled with its start in UTC and its number and range are in the tooltip', () => {
  // 20 s epochs: 89,783,886 starts at 89,783,886 × 20 s = 2026-11-26T07:22:00Z.
  const points = [0, 1, 2].map((i) => ({ epoch: 89_783_886 + i, stake: 1_000_000, paidThroughEpoch: 89_783_890, events: i === 0 ? ['stake locked'] : [] }));
  const html = renderToStaticMarkup(<EconomyChart points={points} epochSeconds={20} />);
  assert.deepEqual(xLabels(html, 194), ['07:22:00', '07:22:20', '07:22:40']);
  assert.match(html, /<title>epoch 89783886 \(2026-11-26 07:22:00 UTC – 07:22:20 UTC\): 1 USDC staked/);
  assert.doesNotMatch(html, /last 4 digits/);
  // Daily epochs read as dates.
  const daily = renderToStaticMarkup(<EconomyChart points={[{ epoch: 20_783, stake: 0, paidThroughEpoch: null, events: [] }]} epochSeconds={86_400} />);
  assert.deepEqual(xLabels(daily, 194), ['Nov 26']);
});

test('reputation over time: clock ticks within a day, dates across days, UTC', () => {
  const at = Date.parse('2026-11-24T10:00:00Z');
  const pts = (ms: number[]) => ms.map((t, i) => ({ tMs: t, reliability: 10 * i, cooperation: 5 * i }));
  const hour = renderToStaticMarkup(<ReputationChart h={{ gossip: pts([at, at + 20 * 60_000, at + 60 * 60_000]), authoritative: [] }} />);
  const h = xLabels(hour, 232);
  assert.ok(h.length >= 3 && h.every((l) => /^1[01]:\d\d$/.test(l)), `hour span: ${h.join(' ')}`);
  const days = renderToStaticMarkup(<ReputationChart h={{ gossip: pts([at, at + 86_400_000, at + 3 * 86_400_000]), authoritative: [{ tMs: at + 86_400_000, reliability: 1, cooperation: 1, epoch: '20782' }] }} />);
  const d = xLabels(days, 232);
  assert.ok(d.length >= 3 && d.every((l) => /^Nov 2\d( \d\d:\d\d)?$/.test(l)), `days span: ${d.join(' ')}`);
  assert.match(days, /after the batch of epoch 20782, which ended 2026-11-25 10:00:00 UTC/);
});

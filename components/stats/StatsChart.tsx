/**
 * One metric of the economy over time (lib/wire/stats.ts) as SVG, rendered on the server with d3
 * scales and shapes: a step line per series (a value holds for its whole interval), gaps where a
 * rate is unknown, a hover title per run of intervals with the same exact values. Two layouts
 * are rendered, wide and narrow, and CSS shows the one that fits, so axis text stays legible on
 * a phone without measuring the page in the browser. Colours are the theme's variables (stats.css,
 * imported by the pages that draw charts, so this module also renders in a plain test).
 */
import { curveStepAfter, line, max, min, scaleLinear, scaleUtc } from 'd3';
import { STATS_METRICS, type StatsMetric, type StatsMetricInfo, type StatsSeries } from '../../lib/wire/stats';
import type { TickForm } from '../time/format';
import { ZonedTick } from '../time/Zoned';

const LAYOUTS = [
  { cls: 'wide', w: 640, h: 220, xTicks: 6, yTicks: 5 },
  { cls: 'narrow', w: 340, h: 200, xTicks: 3, yTicks: 4 },
] as const;
const M = { top: 10, right: 10, bottom: 24, left: 52 };
/** Series whose meaning has a colour of its own (good/bad/warn); the rest take theirs by position. */
const KEY_COLOUR: Record<string, string> = {
  agreed: 'good',
  verified: 'good',
  resolved: 'good',
  rejected: 'bad',
  mismatched: 'bad',
  expired: 'warn',
  submitted: 'muted',
};
export const seriesColour = (key: string, k: number) => KEY_COLOUR[key] ?? `c${k % 8}`;

/** The value as a number for placing it on the axis only; text always shows the exact string. */
const plot = (v: string | null): number | null => (v === null ? null : Number(v));
/** Ratios read as percentages. */
export const percent = (v: string) => {
  const [i, f = ''] = v.split('.');
  const bp = BigInt(i) * 10_000n + BigInt(`${f}0000`.slice(0, 4));
  return `${bp / 100n}.${String(bp % 100n).padStart(2, '0')} %`;
};
/** A decimal string with thousands separators, exact (no float). */
export const grouped = (v: string) => {
  const neg = v.startsWith('-');
  const [i, f] = (neg ? v.slice(1) : v).split('.');
  return `${neg ? '−' : ''}${i.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${f !== undefined ? `.${f}` : ''}`;
};
/** Compact tick text for an axis (ticks are the axis's own round numbers, not data). */
const tickText = (n: number, ratio: boolean) => {
  if (ratio) return `${Math.round(n * 100)}%`;
  const a = Math.abs(n);
  if (a >= 1e12) return `${+(n / 1e12).toFixed(1)}T`;
  if (a >= 1e9) return `${+(n / 1e9).toFixed(1)}G`;
  if (a >= 1e6) return `${+(n / 1e6).toFixed(1)}M`;
  if (a >= 1e3) return `${+(n / 1e3).toFixed(1)}k`;
  return String(+n.toFixed(3));
};
/** Day ticks (MM-DD) for daily steps or spans over 3 days, else the clock (HH:MM), in the shown zone. */
const tickForm = (stepSeconds: number, spanDays: number): TickForm =>
  stepSeconds >= 86_400 || spanDays > 3 ? 'md' : 'clock';

export function formatValue(metric: StatsMetric, v: string | null): string {
  if (v === null) return 'unknown';
  return 'ratio' in STATS_METRICS[metric] ? percent(v) : grouped(v);
}

/** A coordinate to 0.01 px: finer digits only add bytes to every page that draws a chart. */
const px = (v: number) => Math.round(v * 100) / 100;

/** Consecutive intervals whose hover text is the same, as one run each ([from, to) indexes). */
export function hoverRuns(n: number, text: (i: number) => string): { from: number; to: number; text: string }[] {
  const runs: { from: number; to: number; text: string }[] = [];
  for (let i = 0; i < n; i++) {
    const t = text(i);
    const last = runs[runs.length - 1];
    if (last && last.text === t) last.to = i + 1;
    else runs.push({ from: i, to: i + 1, text: t });
  }
  return runs;
}

/**
 * A hover target per run of intervals with the same exact values (and "unknown" where a rate has
 * no denominator), its title naming the run's span in UTC.
 */
function HoverTargets(p: {
  runs: { from: number; to: number; text: string }[];
  colW: number;
  height: number;
  at: (i: number) => string;
  step: number;
}) {
  return (
    <g className="hover">
      {p.runs.map((r) => (
        <rect
          key={r.from}
          x={px(M.left + r.from * p.colW)}
          y={M.top}
          width={px((r.to - r.from) * p.colW)}
          height={p.height}
        >
          <title>
            {`${
              r.to - r.from === 1
                ? `${p.at(r.from)} + ${p.step} s`
                : `${p.at(r.from)} to ${p.at(r.to)} (${r.to - r.from} intervals of ${p.step} s)`
            }\n${r.text}`}
          </title>
        </rect>
      ))}
    </g>
  );
}

/** `info`: a series of another page (the mesh's), described there; default the economy's metric. */
export function StatsChart({ s, info: given, empty }: { s: StatsSeries; info?: StatsMetricInfo; empty?: string }) {
  const metric = s.metric as StatsMetric;
  const info: StatsMetricInfo = given ?? STATS_METRICS[metric];
  const ratio = 'ratio' in info && info.ratio === true;
  const show = (v: string | null) =>
    given ? (v === null ? 'unknown' : ratio ? percent(v) : grouped(v)) : formatValue(metric, v);
  const n = s.series[0]?.values.length ?? 0;
  const from = Date.parse(s.from);
  const stepMs = s.stepSeconds * 1000;
  const at = (i: number) => new Date(from + i * stepMs);
  const all = s.series.flatMap((x) => x.values.map(plot)).filter((v): v is number => v !== null);
  const none = 'perService' in info ? 'No agreed deals with a NEG1 price in this range.' : 'No data in this range.';
  if (n === 0 || s.series.length === 0) return <p className="muted empty stats-empty">{empty ?? none}</p>;
  const lo = Math.min(0, min(all) ?? 0);
  const hi = Math.max(ratio ? 1 : 1, max(all) ?? 0);
  const spanDays = (n * s.stepSeconds) / 86_400;
  // Counts and token amounts are whole numbers: no 0.5 ticks on their axes.
  const whole = !ratio && metric !== 'envelopes' && !given;
  const unit = given ? ` ${info.unit}` : '';
  const hover = hoverRuns(n, (i) => s.series.map((ser) => `${ser.label}: ${show(ser.values[i])}${unit}`).join('\n'));
  const iso = (i: number) => at(i).toISOString().replace('.000Z', 'Z');
  return (
    <>
      {LAYOUTS.map((L) => {
        const x = scaleUtc()
          .domain([at(0), at(n)])
          .range([M.left, L.w - M.right]);
        const y = scaleLinear()
          .domain([lo, hi])
          .nice(L.yTicks)
          .range([L.h - M.bottom, M.top]);
        const mk = line<[number, number | null]>()
          .digits(1)
          .defined((d) => d[1] !== null)
          .x((d) => x(at(d[0])))
          .y((d) => y(d[1] as number))
          .curve(curveStepAfter);
        // A value holds for its whole interval: where the next one is unknown (or there is none),
        // repeat it at the interval's end, so an interval between gaps still draws its step.
        const pts = (vals: (string | null)[]) =>
          vals.flatMap((v, i): [number, number | null][] => {
            const y = plot(v);
            return y !== null && (i === n - 1 || plot(vals[i + 1]) === null)
              ? [
                  [i, y],
                  [i + 1, y],
                  [i + 1, null],
                ]
              : [[i, y]];
          });
        const colW = (L.w - M.left - M.right) / n;
        return (
          <svg
            key={L.cls}
            className={`stats-chart ${L.cls}`}
            viewBox={`0 0 ${L.w} ${L.h}`}
            role="img"
            aria-label={`${info.title}, ${s.range}, ${n} intervals of ${s.stepSeconds} s`}
          >
            <g className="axis">
              {y
                .ticks(L.yTicks)
                .filter((t) => !whole || Number.isInteger(t))
                .map((t) => (
                  <g key={t} transform={`translate(0,${px(y(t))})`}>
                    <line className="grid" x1={M.left} x2={L.w - M.right} />
                    <text x={M.left - 6} dy="0.32em" textAnchor="end">
                      {tickText(t, ratio)}
                    </text>
                  </g>
                ))}
              {x.ticks(L.xTicks).map((t) => (
                <text
                  key={t.getTime()}
                  x={px(x(t))}
                  y={L.h - 6}
                  textAnchor={x(t) > L.w - M.right - 24 ? 'end' : 'middle'}
                >
                  <ZonedTick ms={t.getTime()} form={tickForm(s.stepSeconds, spanDays)} />
                </text>
              ))}
              <line className="base" x1={M.left} x2={L.w - M.right} y1={px(y(0))} y2={px(y(0))} />
            </g>
            {s.series.map((ser, k) => (
              <path
                key={`${ser.key}:${ser.service ?? ''}:${ser.token ?? ''}`}
                className={`line ${seriesColour(ser.key, k)}`}
                d={mk(pts(ser.values)) ?? ''}
              />
            ))}
            <HoverTargets runs={hover} colW={colW} height={L.h - M.bottom - M.top} at={iso} step={s.stepSeconds} />
          </svg>
        );
      })}
    </>
  );
}

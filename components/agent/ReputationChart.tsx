/**
 * An agent's reputation vector over time (docs/protocol.md §7): reliability and cooperation from
 * the gossip fold (its state at the end of each epoch with FEEDBACK about the agent) and from the
 * authoritative fold (a point after each verified batch), the newest epochs of each. Computed data
 * in (lib/wire ReputationHistoryView), SVG out.
 */
import { curveStepAfter, extent, line, scaleLinear, scaleUtc } from 'd3';
import type { ReputationHistoryView, ReputationPoint } from '../../lib/wire';
import { type TickForm, utcText } from '../time/format';
import { ZonedTick, ZoneName } from '../time/Zoned';

/**
 * Tick text detailed enough for the span (the clock for minutes, the date too once the span passes
 * a day), in the zone the viewer chose (UTC as drawn on the server, swapped after hydration).
 */
function tickFormat(spanMs: number): TickForm {
  const DAY = 86_400_000;
  if (spanMs < 10 * 60_000) return 'clock-s';
  if (spanMs < DAY) return 'clock';
  if (spanMs < 7 * DAY) return 'day-clock';
  return 'day';
}

/** Beyond this many batch points the authoritative line is drawn without a marker per batch. */
const MAX_MARKS = 40;
const W = 760;
const H = 240;
const M = { top: 14, right: 20, bottom: 26, left: 44 };
const SERIES = [
  { key: 'gossip-reliability', label: 'reliability (gossip)', color: 'var(--accent)', dash: undefined },
  { key: 'gossip-cooperation', label: 'cooperation (gossip)', color: 'var(--accent-2)', dash: '5 3' },
  { key: 'auth-reliability', label: 'reliability (authoritative, per batch)', color: 'var(--warn)', dash: undefined },
  { key: 'auth-cooperation', label: 'cooperation (authoritative, per batch)', color: 'var(--violet)', dash: '5 3' },
] as const;

/** Vertices drawn per series: more are invisible at this width and only lengthen the page. */
const MAX_DRAWN = 60;

/** Every k-th point (k so that at most `max` remain), always the last: the newest state stays exact. */
export function thin<T>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  const k = Math.ceil(points.length / max);
  const out = points.filter((_, i) => (points.length - 1 - i) % k === 0);
  return out;
}

export function ReputationChart({ h: full }: { h: ReputationHistoryView }) {
  const h = { ...full, gossip: thin(full.gossip, MAX_DRAWN), authoritative: thin(full.authoritative, MAX_DRAWN) };
  const thinned = h.gossip.length < full.gossip.length || h.authoritative.length < full.authoritative.length;
  const all: ReputationPoint[] = [...h.gossip, ...h.authoritative];
  if (all.length === 0) return <p className="muted empty">No feedback about this agent yet.</p>;
  const [t0, t1] = extent(all, (p) => p.tMs) as [number, number];
  const x = scaleUtc()
    .domain([new Date(t0), new Date(t1 === t0 ? t0 + 1000 : t1)])
    .range([M.left, W - M.right]);
  const tick = tickFormat(x.domain()[1].getTime() - t0);
  // Wide labels (a date and a clock) need fewer ticks to stay apart.
  const xTicks = x.ticks(x.domain()[1].getTime() - t0 >= 86_400_000 ? 5 : 6);
  const vals = all.flatMap((p) => [p.reliability, p.cooperation]);
  const y = scaleLinear()
    .domain([Math.min(0, ...vals), Math.max(10, ...vals)])
    .nice()
    .range([H - M.bottom, M.top]);
  const mk = (pick: (p: ReputationPoint) => number) =>
    line<ReputationPoint>()
      .x((p) => x(new Date(p.tMs)))
      .y((p) => y(pick(p)))
      .curve(curveStepAfter)
      .digits(1);
  const r1 = (v: number) => Math.round(v * 10) / 10;
  const paths = [
    mk((p) => p.reliability)(h.gossip),
    mk((p) => p.cooperation)(h.gossip),
    mk((p) => p.reliability)(h.authoritative),
    mk((p) => p.cooperation)(h.authoritative),
  ];
  return (
    <figure style={{ margin: 0 }} data-testid="reputation-chart">
      <svg className="price-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Reputation over time">
        <g className="axis">
          {y.ticks(5).map((t) => (
            <g key={t} transform={`translate(0,${r1(y(t))})`}>
              <line x1={M.left} x2={W - M.right} stroke="var(--border)" strokeDasharray="2 3" />
              <text x={M.left - 6} dy="0.32em" textAnchor="end">
                {t}
              </text>
            </g>
          ))}
          {xTicks.map((t) => (
            <text
              key={t.getTime()}
              x={r1(x(t))}
              y={H - 8}
              textAnchor={x(t) > W - M.right - 40 ? 'end' : x(t) < M.left + 40 ? 'start' : 'middle'}
            >
              <ZonedTick ms={t.getTime()} form={tick} />
            </text>
          ))}
        </g>
        {SERIES.map((s, i) => (
          <path
            key={s.key}
            d={paths[i] ?? ''}
            fill="none"
            stroke={s.color}
            strokeWidth={1.6}
            strokeDasharray={s.dash}
          />
        ))}
        {h.authoritative.length <= MAX_MARKS &&
          h.authoritative.map((p) => (
            <circle key={p.epoch} cx={r1(x(new Date(p.tMs)))} cy={r1(y(p.reliability))} r={3} fill="var(--warn)">
              <title>
                {`after the batch of epoch ${p.epoch}, which ended ${utcText(p.tMs)}: ` +
                  `reliability ${p.reliability.toFixed(2)}, cooperation ${p.cooperation.toFixed(2)}`}
              </title>
            </circle>
          ))}
      </svg>
      <figcaption className="legend" style={{ flexWrap: 'wrap' }}>
        {SERIES.map((s) => (
          <span key={s.key}>
            <i style={{ background: s.color }} />
            {s.label}
          </span>
        ))}
        <span>
          scores −100..100 (times in <ZoneName />
          ), each at the end of its epoch
        </span>
        {full.gossipEarlier || full.authoritativeEarlier ? (
          <span className="muted" data-testid="reputation-earlier">
            the newest {full.gossipEarlier ? `${full.gossip.length} epochs with feedback` : ''}
            {full.gossipEarlier && full.authoritativeEarlier ? ' and ' : ''}
            {full.authoritativeEarlier ? `${full.authoritative.length} verified batches` : ''}; earlier ones are not
            drawn
          </span>
        ) : null}
        {thinned ? (
          <span className="muted" data-testid="reputation-thinned">
            at most {MAX_DRAWN} points per line: every few epochs drawn, the newest always
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}

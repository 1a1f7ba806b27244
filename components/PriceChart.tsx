/**
 * NEG1 price path of one conversation (docs/protocol.md §8): each party's offers by step, as a d3
 * line per sender. Data in, SVG out (d3 computes scales and paths; React renders).
 */
import { extent, line, scaleLinear } from 'd3';
import type { PriceStepView } from '../lib/wire';
import { shortHex, tokenAmount } from './format';

const W = 640;
const H = 240;
const M = { top: 16, right: 20, bottom: 28, left: 72 };
const COLORS = ['#4fb3ff', '#f0a35e', '#7ee0c3', '#d2a8ff'];

export function PriceChart({ steps }: { steps: PriceStepView[] }) {
  const points = steps
    .map((s, i) => ({ i, s, v: s.bidValue === null ? null : Number(s.bidValue) }))
    .filter((p): p is { i: number; s: PriceStepView; v: number } => p.v !== null && Number.isFinite(p.v));
  if (points.length === 0) return <p className="muted empty">No readable NEG1 prices in this conversation.</p>;
  const senders = [...new Set(points.map((p) => p.s.sender))];
  const [lo, hi] = extent(points, (p) => p.v) as [number, number];
  const pad = lo === hi ? Math.max(1, Math.abs(lo) * 0.1) : (hi - lo) * 0.08;
  const x = scaleLinear()
    .domain([0, Math.max(1, steps.length - 1)])
    .range([M.left, W - M.right]);
  const y = scaleLinear()
    .domain([lo - pad, hi + pad])
    .nice()
    .range([H - M.bottom, M.top]);
  const path = line<{ i: number; v: number }>()
    .x((p) => x(p.i))
    .y((p) => y(p.v));
  return (
    <figure style={{ margin: 0 }}>
      <svg className="price-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Price path">
        <g className="axis">
          {y.ticks(5).map((t) => (
            <g key={t} transform={`translate(0,${y(t)})`}>
              <line x1={M.left} x2={W - M.right} stroke="#2a3340" strokeDasharray="2 3" />
              <text x={M.left - 8} dy="0.32em" textAnchor="end">
                {tokenAmount(String(Math.round(t)))}
              </text>
            </g>
          ))}
          {steps.map((_, i) => (
            <text key={i} x={x(i)} y={H - 8} textAnchor="middle">
              {i + 1}
            </text>
          ))}
        </g>
        {senders.map((sender, k) => {
          const mine = points.filter((p) => p.s.sender === sender);
          return (
            <g key={sender}>
              <path className="step" d={path(mine) ?? ''} stroke={COLORS[k % COLORS.length]} />
              {mine.map((p) => (
                <circle key={p.s.envelopeId} cx={x(p.i)} cy={y(p.v)} r={4.5} fill={COLORS[k % COLORS.length]}>
                  <title>{`${p.s.type} by ${shortHex(sender)}: ${tokenAmount(p.s.bidValue)}${p.s.round !== null ? ` (round ${p.s.round})` : ''}`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption className="legend">
        {senders.map((s, k) => (
          <span key={s}>
            <i style={{ background: COLORS[k % COLORS.length] }} />
            <span className="mono">{shortHex(s)}</span>
          </span>
        ))}
        <span>amounts in token units (6 decimals), x = message order</span>
      </figcaption>
    </figure>
  );
}

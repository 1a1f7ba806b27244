/**
 * An agent's reputation vector over time (docs/protocol.md §7): reliability and cooperation from
 * the gossip fold (a step after each FEEDBACK about it) and from the authoritative fold (a point
 * after each verified batch). Computed data in (lib/wire ReputationHistoryView), SVG out.
 */
import { extent, line, scaleLinear, scaleTime, curveStepAfter } from 'd3';
import type { ReputationHistoryView, ReputationPoint } from '../../lib/wire';

const W = 760;
const H = 240;
const M = { top: 14, right: 20, bottom: 26, left: 44 };
const SERIES = [
  { key: 'gossip-reliability', label: 'reliability (gossip)', color: 'var(--accent)', dash: undefined },
  { key: 'gossip-cooperation', label: 'cooperation (gossip)', color: 'var(--accent-2)', dash: '5 3' },
  { key: 'auth-reliability', label: 'reliability (authoritative, per batch)', color: 'var(--warn)', dash: undefined },
  { key: 'auth-cooperation', label: 'cooperation (authoritative, per batch)', color: 'var(--violet)', dash: '5 3' },
] as const;

export function ReputationChart({ h }: { h: ReputationHistoryView }) {
  const all: ReputationPoint[] = [...h.gossip, ...h.authoritative];
  if (all.length === 0) return <p className="muted empty">No feedback about this agent yet.</p>;
  const [t0, t1] = extent(all, (p) => p.tMs) as [number, number];
  const x = scaleTime().domain([new Date(t0), new Date(t1 === t0 ? t0 + 1000 : t1)]).range([M.left, W - M.right]);
  const vals = all.flatMap((p) => [p.reliability, p.cooperation]);
  const y = scaleLinear().domain([Math.min(0, ...vals), Math.max(10, ...vals)]).nice().range([H - M.bottom, M.top]);
  const mk = (pick: (p: ReputationPoint) => number) => line<ReputationPoint>().x((p) => x(new Date(p.tMs))).y((p) => y(pick(p))).curve(curveStepAfter);
  const paths = [
    mk((p) => p.reliability)(h.gossip), mk((p) => p.cooperation)(h.gossip),
    mk((p) => p.reliability)(h.authoritative), mk((p) => p.cooperation)(h.authoritative),
  ];
  return (
    <figure style={{ margin: 0 }} data-testid="reputation-chart">
      <svg className="price-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Reputation over time">
        <g className="axis">
          {y.ticks(5).map((t) => (
            <g key={t} transform={`translate(0,${y(t)})`}>
              <line x1={M.left} x2={W - M.right} stroke="var(--border)" strokeDasharray="2 3" />
              <text x={M.left - 6} dy="0.32em" textAnchor="end">{t}</text>
            </g>
          ))}
          {x.ticks(6).map((t) => (
            <text key={t.getTime()} x={x(t)} y={H - 8} textAnchor="middle">{t.toISOString().slice(11, 19)}</text>
          ))}
        </g>
        {SERIES.map((s, i) => <path key={s.key} d={paths[i] ?? ''} fill="none" stroke={s.color} strokeWidth={1.6} strokeDasharray={s.dash} />)}
        {h.authoritative.map((p) => (
          <circle key={p.epoch} cx={x(new Date(p.tMs))} cy={y(p.reliability)} r={3} fill="var(--warn)">
            <title>{`after the batch of epoch ${p.epoch}: reliability ${p.reliability.toFixed(2)}, cooperation ${p.cooperation.toFixed(2)}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="legend" style={{ flexWrap: 'wrap' }}>
        {SERIES.map((s) => <span key={s.key}><i style={{ background: s.color }} />{s.label}</span>)}
        <span>scores −100..100 (UTC times)</span>
      </figcaption>
    </figure>
  );
}

/**
 * The negotiation flight recorder chart (docs/protocol.md §8): both sides' offers over time in
 * price space, each side's fitted Faratin concession curve with its class and exponent, the ZOPA
 * band from revealed reservations (or "no ZOPA"), the Nash point, the Rubinstein price for the
 * escrow decay in force, the agreed price, the deadline, and below it the escrow left after each
 * round's decay. Computed data in (lib/wire NegotiationView), SVG out: d3 makes scales and paths.
 */
import { extent, line, scaleLinear } from 'd3';
import type { NegotiationView, OfferPoint } from '../../lib/wire';
import { base58, shortHex, tokenAmount } from '../format';

const W = 760;
const H = 300;
const DECAY_H = 70;
const M = { top: 18, right: 150, bottom: 30, left: 78 };
export const SIDE_COLORS = { buyer: '#4fb3ff', seller: '#f0a35e' } as const;
const amt = (n: number) => tokenAmount(String(Math.round(n)));

/** Points of a fitted curve p(u) = p0 + (pEnd - p0)·(u/(n-1))^(1/β) placed on that side's offer times. */
function curvePoints(mine: OfferPoint[], beta: number, t: (o: OfferPoint) => number): { x: number; p: number }[] {
  const n = mine.length;
  const p0 = mine[0].price;
  const span = mine[n - 1].price - p0;
  const out: { x: number; p: number }[] = [];
  for (let k = 0; k <= 40; k++) {
    const u = (k / 40) * (n - 1);
    const i = Math.min(n - 2, Math.floor(u));
    const x = t(mine[i]) + (t(mine[i + 1]) - t(mine[i])) * (u - i);
    out.push({ x, p: p0 + span * Math.pow(u / (n - 1), 1 / beta) });
  }
  return out;
}

export function FlightChart({ v }: { v: NegotiationView }) {
  const offers = v.offers.filter((o) => o.type === 'PROPOSE' || o.type === 'COUNTER');
  if (v.offers.length === 0) return <p className="muted empty">No readable NEG1 offers in this conversation.</p>;
  // x is the NEG1 round: agents often haggle within a second, so a time axis would stack every
  // offer on one line; elapsed time is in each point's tooltip and under the round axis.
  const t0 = v.offers[0].timestampMs;
  const secs = (o: OfferPoint) => (o.timestampMs - t0) / 1000;
  const rnd = (o: OfferPoint) => o.round;
  const lastRound = Math.max(1, ...v.offers.map(rnd));
  const maxR = v.maxRounds !== null && v.maxRounds - 1 <= lastRound * 2 ? v.maxRounds - 1 : null;
  const x = scaleLinear().domain([0, Math.max(lastRound, maxR ?? 0)]).range([M.left, W - M.right]);
  const deadline = v.deadlineMs !== null ? (v.deadlineMs - t0) / 1000 : null;
  const lastT = Math.max(...v.offers.map(secs));
  const refs = [
    ...v.offers.map((o) => o.price),
    ...(v.zopa ? [v.zopa.buyerReservation, v.zopa.sellerReservation] : []),
    ...(v.nash ? [v.nash.price] : []),
    ...(v.rubinstein ? [v.rubinstein.price] : []),
  ];
  const [lo, hi] = extent(refs) as [number, number];
  const pad = lo === hi ? Math.max(1, Math.abs(lo) * 0.1) : (hi - lo) * 0.08;
  const y = scaleLinear().domain([lo - pad, hi + pad]).nice().range([H - M.bottom, M.top]);
  // Reference lines often coincide (a deal at the Nash point): their labels are pushed apart.
  const refLines = [
    v.deal ? { key: 'deal', p: v.deal.price, label: `agreed ${amt(v.deal.price)}`, color: '#e6edf3', dash: undefined as string | undefined } : null,
    v.nash ? { key: 'nash', p: v.nash.price, label: `Nash ${amt(v.nash.price)}`, color: '#d2a8ff', dash: '6 4' } : null,
    v.rubinstein ? { key: 'rubinstein', p: v.rubinstein.price, label: `Rubinstein ${amt(v.rubinstein.price)}`, color: '#7ee0c3', dash: '2 3' } : null,
  ].filter((r) => r !== null).map((r) => ({ ...r, ly: y(r.p) })).sort((a, b) => a.ly - b.ly);
  for (let i = 1; i < refLines.length; i++) refLines[i].ly = Math.max(refLines[i].ly, refLines[i - 1].ly + 13);
  const roleOf = new Map(v.sides.map((s) => [s.agent, s.role]));
  const colorOf = (agent: string) => SIDE_COLORS[roleOf.get(agent) ?? 'seller'];
  const path = line<{ x: number; p: number }>().x((d) => x(d.x)).y((d) => y(d.p));
  const z = v.zopa;
  const decay = v.decayBps ?? 0;
  const maxRound = Math.max(0, ...v.offers.map((o) => o.round));
  const rounds = Array.from({ length: maxRound + 1 }, (_, r) => r);
  const bx = x;
  const by = scaleLinear().domain([Math.min(0.9, Math.pow(1 - decay / 10_000, maxRound)), 1]).range([H + DECAY_H - 16, H + 14]);
  return (
    <figure style={{ margin: 0 }} data-testid="flight-chart">
      <svg className="price-chart" viewBox={`0 0 ${W} ${H + DECAY_H}`} role="img" aria-label="Negotiation flight recorder">
        {z ? (
          <g data-testid="zopa-band">
            <rect x={M.left} width={W - M.left - M.right} y={y(Math.max(z.buyerReservation, z.sellerReservation))}
              height={Math.abs(y(z.sellerReservation) - y(z.buyerReservation))} fill={z.exists ? 'rgba(86,211,100,0.13)' : 'rgba(255,107,107,0.13)'} />
            <text x={M.left + 6} y={y(Math.max(z.buyerReservation, z.sellerReservation)) + 13} fill={z.exists ? '#56d364' : '#ff6b6b'} fontSize={11}>
              {z.exists ? `ZOPA ${amt(z.sellerReservation)} – ${amt(z.buyerReservation)}` : `no ZOPA: seller needs ${amt(z.sellerReservation)}, buyer pays ≤ ${amt(z.buyerReservation)}`}
            </text>
          </g>
        ) : null}
        <g className="axis">
          {y.ticks(5).map((t) => (
            <g key={t} transform={`translate(0,${y(t)})`}>
              <line x1={M.left} x2={W - M.right} stroke="#2a3340" strokeDasharray="2 3" />
              <text x={M.left - 8} dy="0.32em" textAnchor="end">{amt(t)}</text>
            </g>
          ))}
          {x.ticks(Math.min(12, lastRound)).filter((t) => Number.isInteger(t)).map((t) => (
            <text key={t} x={x(t)} y={H - 10} textAnchor="middle">{t}</text>
          ))}
          <text x={W - M.right + 18} y={H - 10}>NEG1 round</text>
        </g>
        {refLines.map((r) => (
          <g key={r.key} data-ref={r.key}>
            <line x1={M.left} x2={W - M.right} y1={y(r.p)} y2={y(r.p)} stroke={r.color} strokeWidth={1.5} strokeDasharray={r.dash} />
            <text x={W - M.right + 6} y={r.ly} dy="0.32em" fill={r.color} fontSize={11}>{r.label}</text>
          </g>
        ))}
        {maxR !== null ? (
          <g>
            <line x1={x(maxR)} x2={x(maxR)} y1={M.top} y2={H - M.bottom} stroke="#ff6b6b" strokeDasharray="4 3" />
            <text x={x(maxR) - 4} y={M.top + 10} textAnchor="end" fill="#ff6b6b" fontSize={11}>last round</text>
          </g>
        ) : null}
        <text x={W - M.right} y={M.top - 5} textAnchor="end" fill="#8b98a8" fontSize={11}>
          {`talk lasted ${lastT < 10 ? `${Math.round(lastT * 1000)} ms` : `${lastT.toFixed(1)} s`}${deadline !== null ? ` · deadline ${deadline >= 0 ? '+' : ''}${Math.round(deadline)}s after the first offer` : ' · no deadline'}`}
        </text>
        {v.sides.map((s) => {
          const mine = offers.filter((o) => o.sender === s.agent);
          const c = SIDE_COLORS[s.role];
          return (
            <g key={s.agent} data-side={s.role}>
              {s.curve && mine.length >= 3 ? (
                <path d={path(curvePoints(mine, s.curve.beta, rnd)) ?? ''} fill="none" stroke={c} strokeOpacity={0.55} strokeWidth={5} />
              ) : null}
              <path d={path(mine.map((o) => ({ x: rnd(o), p: o.price }))) ?? ''} fill="none" stroke={c} strokeWidth={1.5} />
            </g>
          );
        })}
        {v.offers.map((o) => (
          <a key={o.envelopeId} href={`/envelopes/${o.envelopeId}`}>
            {o.type === 'ACCEPT' || o.type === 'REJECT' ? (
              <text x={x(rnd(o))} y={y(o.price)} dy="0.35em" textAnchor="middle" fontSize={16} fill={o.type === 'ACCEPT' ? '#56d364' : '#ff6b6b'}>
                {o.type === 'ACCEPT' ? '★' : '✕'}
                <title>{`${o.type} by ${shortHex(base58(o.sender), 5, 4)} at ${amt(o.price)}`}</title>
              </text>
            ) : (
              <circle cx={x(rnd(o))} cy={y(o.price)} r={4.5} fill={colorOf(o.sender)}>
                <title>{`${o.type} by ${shortHex(base58(o.sender), 5, 4)}: ${amt(o.price)} (round ${o.round}, +${secs(o).toFixed(1)}s)`}</title>
              </circle>
            )}
          </a>
        ))}
        <g className="axis" data-testid="escrow-decay">
          <text x={M.left - 8} y={H + 10} textAnchor="end">escrow left</text>
          {rounds.map((r) => {
            const left = Math.pow(1 - decay / 10_000, r);
            return (
              <g key={r}>
                <rect x={bx(r) - 9} width={18} y={by(left)} height={H + DECAY_H - 16 - by(left)} fill="#2f6f9f" />
                <text x={bx(r)} y={H + DECAY_H - 4} textAnchor="middle">{`r${r}`}</text>
                <title>{`round ${r}: ${(left * 100).toFixed(2)}% of the escrow left (${decay} bps per round)`}</title>
              </g>
            );
          })}
          <text x={W - M.right + 6} y={H + 30} fill="#8b98a8" fontSize={11}>{`${decay} bps/round`}</text>
        </g>
      </svg>
      <figcaption className="legend" style={{ flexWrap: 'wrap' }}>
        {v.sides.map((s) => (
          <span key={s.agent}>
            <i style={{ background: SIDE_COLORS[s.role] }} />
            {s.role} <span className="mono">{shortHex(base58(s.agent), 5, 4)}</span>
            {s.curve ? ` · ${s.curve.class} (β = ${s.curve.beta.toFixed(2)})` : ' · too few offers to fit a curve'}
          </span>
        ))}
        <span>thick line: fitted concession curve · ★ accept · ✕ reject · amounts in token units (6 decimals)</span>
      </figcaption>
    </figure>
  );
}

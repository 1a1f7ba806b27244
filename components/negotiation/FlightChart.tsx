/**
 * The negotiation flight recorder chart (docs/protocol.md §8): both sides' offers over time in
 * price space, each side's fitted Faratin concession curve with its class and exponent, the ZOPA
 * band from revealed reservations (or "no ZOPA"), the Nash point, the Rubinstein price for the
 * escrow decay in force, the agreed price, the deadline, and below it the escrow left after each
 * round's decay. Computed data in (lib/wire NegotiationView), SVG out: d3 makes the round axis
 * and the paths; the price axis is exact (bigint domain and ticks, components/format.ts), so int128
 * and u64 prices are placed and labelled without passing through a float.
 */
import { line, scaleLinear } from 'd3';
import type { NegotiationView, OfferPoint } from '../../lib/wire';
import { agentDisplayName } from '../../lib/wire/agent-name';
import {
  amountUnits,
  axisLabels,
  base58,
  bigintScale,
  bigintTicks,
  compactAmount,
  formatAmount,
  formatTokenAmount,
  shortHex,
} from '../format';

const W = 760;
const H = 300;
const DECAY_H = 70;
const M = { top: 18, right: 180, bottom: 30, left: 78 };
export const SIDE_COLORS = { buyer: 'var(--accent)', seller: 'var(--warn)' } as const;
const NO_ROLE_COLOR = 'var(--muted)';
const sideColor = (role: string | null | undefined) => SIDE_COLORS[role as keyof typeof SIDE_COLORS] ?? NO_ROLE_COLOR;
/**
 * Longest amount written out in full on the chart; longer ones are shortened there (marked ≈) and exact in the tooltip.
 */
const MAX_LABEL = 18;
/** Characters of a reference line's label (name and amount) that fit the right margin at 11 px. */
const REF_LABEL = 28;

/** An amount as the view carries it: an exact decimal string (bigint and number accepted too). */
type Amount = string | number | bigint;

/** The token the prices are in: decimals and symbol when known (else amounts are raw units). */
export interface ChartToken {
  decimals: number | null;
  symbol: string | null;
}

type Side = NegotiationView['sides'][number];
/** A side's Faratin fit on the shared clock: p(t) = a + b·((t − t0Ms)/(tEndMs − t0Ms))^(1/β). */
type Fit = NonNullable<Side['curve']>;

/**
 * The fitted curve through one side's offers, in pixels: evaluated at times between consecutive
 * offers and placed between their rounds (the x axis is the round; the fit's clock is time).
 */
function curvePoints(
  mine: OfferPoint[],
  f: Fit,
  x: (o: OfferPoint) => number,
  yOf: (p: number) => number,
): { x: number; y: number }[] {
  const { a, b, t0Ms, tEndMs, beta } = f;
  if (!(tEndMs > t0Ms) || !(beta > 0)) return [];
  const out: { x: number; y: number }[] = [];
  for (let i = 0; i + 1 < mine.length; i++) {
    for (let k = i === 0 ? 0 : 1; k <= 10; k++) {
      const t = mine[i].timestampMs + ((mine[i + 1].timestampMs - mine[i].timestampMs) * k) / 10;
      const u = Math.min(1, Math.max(0, (t - t0Ms) / (tEndMs - t0Ms)));
      out.push({ x: x(mine[i]) + ((x(mine[i + 1]) - x(mine[i])) * k) / 10, y: yOf(a + b * u ** (1 / beta)) });
    }
  }
  return out;
}

/**
 * The legend's words for a side's fit: its movement, class and β with the fit's error, or why there is no curve or
 * class.
 */
function fitWords(s: Side): string {
  const f = s.curve;
  if (!f) return ` · ${s.movement} · no curve${s.unknown.fit ? ` (${s.unknown.fit})` : ''}`;
  const cls = f.class ?? `class withheld${s.unknown.class ? ` (${s.unknown.class})` : ''}`;
  return (
    ` · ${s.movement} · ${cls} (β = ${f.beta.toFixed(2)}, error ` +
    `${(f.relativeRmse * 100).toFixed(1)}% of the price range)`
  );
}

export function FlightChart({
  v,
  token: given,
  nameOf = agentDisplayName,
}: {
  v: NegotiationView;
  token?: ChartToken | null;
  /** Agents by name (hex id → name); by default the label derived from the id. */
  nameOf?: (hex: string) => string;
}) {
  // Each side's line follows the NEG1 round (then time, then id), never the order offers arrived in.
  const byRound = (p: OfferPoint, q: OfferPoint) =>
    p.round - q.round ||
    p.timestampMs - q.timestampMs ||
    (p.envelopeId < q.envelopeId ? -1 : p.envelopeId > q.envelopeId ? 1 : 0);
  const offers = v.offers.filter((o) => o.type === 'PROPOSE' || o.type === 'COUNTER').sort(byRound);
  if (v.offers.length === 0) return <p className="muted empty">No readable NEG1 offers in this conversation.</p>;
  const token: ChartToken = given ?? v.token;
  const amt = (a: Amount) => formatAmount(a, token);
  /** A label beside the plot: exact while short, else the exact value is in the tooltip. */
  const shortAmt = (a: Amount, max = MAX_LABEL) => {
    const full = amt(a);
    if (full.length <= max) return full;
    const u = amountUnits(a);
    return u === null ? full : compactAmount(u, { decimals: token.decimals, maxChars: max });
  };
  /** A reference line's label: its name and as much of the amount as the margin holds (the rest ran off the chart). */
  const refLabel = (name: string, a: Amount) =>
    `${name} ${shortAmt(a, Math.min(MAX_LABEL, REF_LABEL - name.length - 1))}`;
  // x is the NEG1 round: agents often haggle within a second, so a time axis would stack every
  // offer on one line; elapsed time is in each point's tooltip and under the round axis.
  const t0 = Math.min(...v.offers.map((o) => o.timestampMs));
  const secs = (o: OfferPoint) => (o.timestampMs - t0) / 1000;
  const rnd = (o: OfferPoint) => o.round;
  const lastRound = Math.max(1, ...v.offers.map(rnd));
  const maxR = v.maxRounds !== null && v.maxRounds - 1 <= lastRound * 2 ? v.maxRounds - 1 : null;
  const x = scaleLinear()
    .domain([0, Math.max(lastRound, maxR ?? 0)])
    .range([M.left, W - M.right]);
  const deadline = v.deadlineMs !== null ? (v.deadlineMs - t0) / 1000 : null;
  const lastT = Math.max(...v.offers.map(secs));
  // The price axis is exact: its domain and ticks are bigints (int128 prices reach ~1.7e38, u64
  // ones differ in digits a float drops), and only a point's place on screen becomes a float.
  const refs: Amount[] = [
    ...v.offers.map((o) => o.price),
    ...(v.zopa ? [v.zopa.buyerReservation, v.zopa.sellerReservation] : []),
    ...(v.nash ? [v.nash.price] : []),
    ...(v.rubinstein ? [v.rubinstein.price] : []),
  ];
  const units = refs.map(amountUnits).filter((u): u is bigint => u !== null);
  const lo = units.reduce((a, b) => (b < a ? b : a), units[0] ?? 0n);
  const hi = units.reduce((a, b) => (b > a ? b : a), units[0] ?? 0n);
  const pad = (hi - lo) / 12n;
  const axis = bigintTicks(lo - pad, hi + pad, 5);
  const yUnits = bigintScale([axis.lo, axis.hi], [H - M.bottom, M.top]);
  const y = (a: Amount) => {
    const u = amountUnits(a);
    return u === null ? (H - M.bottom + M.top) / 2 : yUnits(u);
  };
  /** A fitted curve's value (a float: fits are approximate) on the exact axis. */
  const yFloat = (p: number) => (Number.isFinite(p) ? yUnits(BigInt(Math.round(p))) : NaN);
  const tickLabels = axisLabels(axis.ticks, { decimals: token.decimals });
  const unitName = token.decimals === null ? 'units' : (token.symbol ?? `token (${token.decimals} decimals)`);
  // Reference lines often coincide (a deal at the Nash point): their labels are pushed apart.
  const refLines = [
    v.deal
      ? {
          key: 'deal',
          p: v.deal.price as Amount,
          label: refLabel('agreed', v.deal.price),
          color: 'var(--text)',
          dash: undefined as string | undefined,
        }
      : null,
    v.nash
      ? {
          key: 'nash',
          p: v.nash.price as Amount,
          label: refLabel('Nash', v.nash.price),
          color: 'var(--violet)',
          dash: '6 4',
        }
      : null,
    v.rubinstein
      ? {
          key: 'rubinstein',
          p: v.rubinstein.price as Amount,
          label: refLabel('Rubinstein', v.rubinstein.price),
          color: 'var(--accent-2)',
          dash: '2 3',
        }
      : null,
  ]
    .filter((r) => r !== null)
    .map((r) => ({ ...r, ly: y(r.p) }))
    .sort((a, b) => a.ly - b.ly);
  for (let i = 1; i < refLines.length; i++) refLines[i].ly = Math.max(refLines[i].ly, refLines[i - 1].ly + 13);
  const roleOf = new Map(v.sides.map((s) => [s.agent, s.role]));
  const colorOf = (agent: string) => sideColor(roleOf.get(agent));
  const path = line<{ x: number; y: number }>()
    .x((d) => d.x)
    .y((d) => d.y);
  const z = v.zopa;
  const decay = v.decayBps ?? 0;
  const maxRound = Math.max(0, ...v.offers.map((o) => o.round));
  const rounds = Array.from({ length: maxRound + 1 }, (_, r) => r);
  const bx = x;
  const by = scaleLinear()
    .domain([Math.min(0.9, (1 - decay / 10_000) ** maxRound), 1])
    .range([H + DECAY_H - 16, H + 14]);
  return (
    <figure style={{ margin: 0 }} data-testid="flight-chart">
      <p className="chart-scroll-cue small muted">The chart scrolls sideways →</p>
      <div className="chart-scroll">
        <svg
          className="price-chart"
          viewBox={`0 0 ${W} ${H + DECAY_H}`}
          role="img"
          aria-label="Negotiation flight recorder"
        >
          {z ? (
            <g data-testid="zopa-band">
              <rect
                x={M.left}
                width={W - M.left - M.right}
                y={Math.min(y(z.buyerReservation), y(z.sellerReservation))}
                height={Math.abs(y(z.sellerReservation) - y(z.buyerReservation))}
                fill={z.exists ? 'rgba(86,211,100,0.13)' : 'rgba(255,107,107,0.13)'}
              />
              <text
                x={M.left + 6}
                y={Math.min(y(z.buyerReservation), y(z.sellerReservation)) + 13}
                fill={z.exists ? 'var(--good)' : 'var(--bad)'}
                fontSize={11}
              >
                {z.exists
                  ? `ZOPA ${shortAmt(z.sellerReservation)} – ${shortAmt(z.buyerReservation)}`
                  : `no ZOPA: seller needs ${shortAmt(z.sellerReservation)}` +
                    `, buyer pays ≤ ${shortAmt(z.buyerReservation)}`}
                <title>
                  {z.exists
                    ? `ZOPA ${amt(z.sellerReservation)} – ${amt(z.buyerReservation)}`
                    : `no ZOPA: seller needs ${amt(z.sellerReservation)}, buyer pays ≤ ${amt(z.buyerReservation)}`}
                </title>
              </text>
            </g>
          ) : null}
          <g className="axis" data-testid="price-axis" data-base={tickLabels.base?.toString()}>
            {axis.ticks.map((t, i) => (
              <g key={t.toString()} transform={`translate(0,${yUnits(t)})`} data-tick={t.toString()}>
                <line x1={M.left} x2={W - M.right} stroke="var(--border)" strokeDasharray="2 3" />
                <text x={M.left - 8} dy="0.32em" textAnchor="end">
                  {tickLabels.labels[i]}
                  <title>{formatTokenAmount(t, token)}</title>
                </text>
              </g>
            ))}
            {tickLabels.base !== null ? (
              // Ticks close together on a large value are labelled by their exact offset from this base.
              <text x={4} y={9} fill="var(--muted)" fontSize={10} data-testid="price-axis-base">
                {`price = ${formatTokenAmount(tickLabels.base, { decimals: token.decimals ?? 0 })} ${unitName} + tick`}
              </text>
            ) : (
              <text x={M.left - 8} y={9} textAnchor="end" fill="var(--muted)" fontSize={10}>
                {unitName}
              </text>
            )}
            {x
              .ticks(Math.min(12, lastRound))
              .filter((t) => Number.isInteger(t))
              .map((t) => (
                <text key={t} x={x(t)} y={H - 10} textAnchor="middle">
                  {t}
                </text>
              ))}
            <text x={W - M.right + 18} y={H - 10}>
              NEG1 round
            </text>
          </g>
          {refLines.map((r) => (
            <g key={r.key} data-ref={r.key}>
              <line
                x1={M.left}
                x2={W - M.right}
                y1={y(r.p)}
                y2={y(r.p)}
                stroke={r.color}
                strokeWidth={1.5}
                strokeDasharray={r.dash}
              />
              <text x={W - M.right + 6} y={r.ly} dy="0.32em" fill={r.color} fontSize={11}>
                {r.label}
                <title>{`${r.key === 'deal' ? 'agreed' : r.key === 'nash' ? 'Nash' : 'Rubinstein'} ${amt(r.p)}`}</title>
              </text>
            </g>
          ))}
          {maxR !== null ? (
            <g>
              <line x1={x(maxR)} x2={x(maxR)} y1={M.top} y2={H - M.bottom} stroke="var(--bad)" strokeDasharray="4 3" />
              <text x={x(maxR) - 4} y={M.top + 10} textAnchor="end" fill="var(--bad)" fontSize={11}>
                last round
              </text>
            </g>
          ) : null}
          <text x={W - M.right} y={M.top - 5} textAnchor="end" fill="var(--muted)" fontSize={11}>
            {`talk lasted ${lastT < 10 ? `${Math.round(lastT * 1000)} ms` : `${lastT.toFixed(1)} s`}` +
              (deadline !== null
                ? ` · deadline ${deadline >= 0 ? '+' : ''}${Math.round(deadline)}s after the first offer`
                : ' · no deadline')}
          </text>
          {v.sides.map((s) => {
            const mine = offers.filter((o) => o.sender === s.agent);
            const c = sideColor(s.role);
            return (
              <g key={s.agent} data-side={s.role ?? 'unknown'}>
                {s.curve && mine.length >= 2 ? (
                  <path
                    d={path(curvePoints(mine, s.curve, (o) => x(rnd(o)), yFloat)) ?? ''}
                    fill="none"
                    stroke={c}
                    strokeOpacity={0.55}
                    strokeWidth={5}
                  />
                ) : null}
                <path
                  d={path(mine.map((o) => ({ x: x(rnd(o)), y: y(o.price) }))) ?? ''}
                  fill="none"
                  stroke={c}
                  strokeWidth={1.5}
                />
              </g>
            );
          })}
          {v.offers.map((o) => (
            <a key={o.envelopeId} href={`/envelopes/${o.envelopeId}`}>
              {o.type === 'ACCEPT' || o.type === 'REJECT' ? (
                <text
                  x={x(rnd(o))}
                  y={y(o.price)}
                  dy="0.35em"
                  textAnchor="middle"
                  fontSize={16}
                  fill={o.type === 'ACCEPT' ? 'var(--good)' : 'var(--bad)'}
                >
                  {o.type === 'ACCEPT' ? '★' : '✕'}
                  <title>{`${o.type} by ${shortHex(base58(o.sender), 5, 4)} at ${amt(o.price)}`}</title>
                </text>
              ) : (
                <circle cx={x(rnd(o))} cy={y(o.price)} r={4.5} fill={colorOf(o.sender)}>
                  <title>
                    {`${o.type} by ${shortHex(base58(o.sender), 5, 4)}: ` +
                      `${amt(o.price)} (round ${o.round}, +${secs(o).toFixed(1)}s)`}
                  </title>
                </circle>
              )}
            </a>
          ))}
          <g className="axis" data-testid="escrow-decay">
            <text x={M.left - 8} y={H + 10} textAnchor="end">
              escrow left
            </text>
            {rounds.map((r) => {
              const left = (1 - decay / 10_000) ** r;
              return (
                <g key={r}>
                  <rect
                    x={bx(r) - 9}
                    width={18}
                    y={by(left)}
                    height={H + DECAY_H - 16 - by(left)}
                    fill="var(--chart-bar)"
                  />
                  <text x={bx(r)} y={H + DECAY_H - 4} textAnchor="middle">{`r${r}`}</text>
                  <title>{`round ${r}: ${(left * 100).toFixed(2)}% of the escrow left (${decay} bps per round)`}</title>
                </g>
              );
            })}
            <text x={W - M.right + 14} y={H + 30} fill="var(--muted)" fontSize={11}>{`${decay} bps/round`}</text>
          </g>
        </svg>
      </div>
      <FlightLegend sides={v.sides} nameOf={nameOf} units={token.decimals === null ? null : unitName} />
    </figure>
  );
}

/** Each side by role, name and short id with its curve in words, then what the marks and amounts are. */
function FlightLegend({
  sides,
  nameOf,
  units,
}: {
  sides: NegotiationView['sides'];
  nameOf: (hex: string) => string;
  /** The token's unit name; null when no token with known decimals is named. */
  units: string | null;
}) {
  return (
    <figcaption className="legend" style={{ flexWrap: 'wrap' }}>
      {sides.map((s) => (
        <span key={s.agent}>
          <i style={{ background: sideColor(s.role) }} />
          {s.role ?? 'role unknown'} {nameOf(s.agent)} <span className="mono">{shortHex(base58(s.agent), 5, 4)}</span>
          {fitWords(s)}
        </span>
      ))}
      <span>
        thick line: fitted concession curve · ★ accept · ✕ reject ·{' '}
        {units === null
          ? "amounts in the token's smallest units (the offers do not name a token with known decimals)"
          : `amounts in ${units}`}
      </span>
    </figcaption>
  );
}

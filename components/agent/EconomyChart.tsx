/**
 * Stake and lease of an agent over epochs (lib/wire EconomyView, GET /api/agents/{id}/economy):
 * the stake held (USDC) as a step line on an exact bigint axis that starts at 0 and never goes
 * below it, and below it the lease runway of each epoch (paid-through epoch minus the epoch:
 * green ahead, red in arrears), with slashes, challenges and deactivations marked. The last point
 * is the stake and lease accounts. Computed data in, SVG out.
 */
import { curveStepAfter, line, scaleBand, scaleLinear } from 'd3';
import type { EconomyPoint, EconomyView } from '../../lib/wire';
import { axisLabels, bigintScale, bigintTicks, formatTokenAmount, USDC_TOKEN } from '../format';
import { epochRange, type TickForm, utcText } from '../time/format';
import { EpochTime } from '../time/Time';
import { ZonedTick, ZoneName } from '../time/Zoned';

/**
 * An epoch's axis text: its start in the zone the viewer chose (UTC as drawn on the server), as
 * detailed as the epoch length and the span need; the bare number if it has no clock time.
 */
function epochLabel(epochSeconds: number, count: number): (epoch: number) => React.ReactNode {
  const span = epochSeconds * count;
  const form: TickForm =
    epochSeconds >= 86_400 ? 'day' : span >= 86_400 ? 'day-clock' : epochSeconds < 60 ? 'clock-s' : 'clock';
  return (e) => {
    const r = epochRange(e, epochSeconds);
    return r ? <ZonedTick ms={r.startMs} form={form} /> : String(e);
  };
}

/** The plot's size: a wide one for screens, a narrow one (the latest epochs, larger type) for phones. */
interface Frame {
  W: number;
  H: number;
  M: { top: number; right: number; bottom: number; left: number };
  MID: number;
  maxPoints: number;
  font: number;
  ticksEvery: number /** Hover text per epoch (a phone has no hover). */;
  tips: boolean;
}
const WIDE: Frame = {
  W: 760,
  H: 210,
  M: { top: 28, right: 20, bottom: 24, left: 104 },
  MID: 120,
  maxPoints: 24,
  font: 12,
  ticksEvery: 8,
  tips: true,
};
// Drawn at about 340 px on a phone, so the type in the viewBox is close to its size on screen.
const NARROW: Frame = {
  W: 360,
  H: 220,
  M: { top: 30, right: 10, bottom: 26, left: 70 },
  MID: 124,
  maxPoints: 8,
  font: 12,
  ticksEvery: 3,
  tips: false,
};

const usdc = (units: bigint) => formatTokenAmount(units, USDC_TOKEN);

/** The stake axis: whole ticks from 0 (a stake is never negative) to at least 1 USDC, exact. */
export function stakeAxis(points: readonly EconomyPoint[]): { ticks: bigint[]; labels: string[]; top: bigint } {
  const max = points.reduce((m, p) => (BigInt(p.stake) > m ? BigInt(p.stake) : m), 0n);
  const { ticks, hi } = bigintTicks(0n, max > 1_000_000n ? max : 1_000_000n, 3);
  return { ticks, labels: axisLabels(ticks, { decimals: USDC_TOKEN.decimals, maxChars: 10 }).labels, top: hi };
}

export function EconomyChart({ view, epochSeconds }: { view: EconomyView; epochSeconds: number }) {
  if (!view.known)
    return (
      <p className="muted empty" data-testid="economy-unknown">
        Unknown: {view.reason}
      </p>
    );
  const points = view.points;
  if (points.length === 0) return <p className="muted empty">No stake or lease events indexed for this agent.</p>;
  const last = points[points.length - 1];
  const narrowShown = Math.min(points.length, NARROW.maxPoints);
  const wideShown = Math.min(points.length, WIDE.maxPoints);
  return (
    <figure style={{ margin: 0 }} data-testid="economy-chart">
      <div className="only-wide">
        <Plot points={points.slice(-WIDE.maxPoints)} epochSeconds={epochSeconds} f={WIDE} />
      </div>
      <div className="only-narrow">
        <Plot points={points.slice(-NARROW.maxPoints)} epochSeconds={epochSeconds} f={NARROW} />
      </div>
      <figcaption className="legend" style={{ flexWrap: 'wrap' }}>
        <span data-testid="economy-now">
          now: {usdc(BigInt(last.stake))} staked ({last.stakeStatus})
          {last.paidThroughEpoch !== null ? (
            <>
              , lease paid through <EpochTime epoch={last.paidThroughEpoch} epochSeconds={epochSeconds} />
            </>
          ) : (
            ', no lease'
          )}
          : the stake and lease accounts
        </span>
        <span>
          x: each epoch&apos;s start (<ZoneName />)
          <span className="only-wide"> · hover a bar for the epoch number and its events</span>
        </span>
        {points.length > narrowShown ? (
          <span className="only-narrow muted">
            the latest {narrowShown} of {points.length} epochs with events (a wider screen shows {wideShown})
          </span>
        ) : null}
        {points.length > wideShown ? (
          <span className="only-wide muted">
            the latest {wideShown} of {points.length} epochs with events read; the whole series: GET /api/agents/
            {view.agent}/economy
          </span>
        ) : null}
        {view.historyNote ? (
          <span className="muted" data-testid="economy-note">
            {view.historyNote}
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}

function Plot({ points, epochSeconds, f }: { points: readonly EconomyPoint[]; epochSeconds: number; f: Frame }) {
  const { W, H, M, MID } = f;
  const x = scaleBand<number>()
    .domain(points.map((p) => p.epoch))
    .range([M.left, W - M.right])
    .padding(0.2);
  // Coordinates to a tenth of a unit of the viewBox: finer is invisible and only lengthens the page.
  const r1 = (v: number) => Math.round(v * 10) / 10;
  const cx = (e: number) => r1((x(e) ?? 0) + x.bandwidth() / 2);
  const axis = stakeAxis(points);
  const ys = bigintScale([0n, axis.top], [MID - 12, M.top]);
  const runway = points.map((p) => (p.paidThroughEpoch === null ? 0 : p.paidThroughEpoch - p.epoch));
  const lim = Math.max(1, ...runway.map(Math.abs));
  const yr = scaleLinear()
    .domain([-lim, lim])
    .range([H - M.bottom, MID + 8]);
  const stakePath =
    line<EconomyPoint>()
      .x((p) => cx(p.epoch))
      .y((p) => ys(BigInt(p.stake)))
      .curve(curveStepAfter)(points as EconomyPoint[]) ?? '';
  const label = epochLabel(epochSeconds, points.length);
  // Clock labels are wider than the old epoch digits: about f.ticksEvery fit the width.
  const every = Math.max(1, Math.ceil(points.length / f.ticksEvery));
  const range = (e: number) => {
    const r = epochRange(e, epochSeconds);
    return r ? ` (${utcText(r.startMs)} – ${utcText(r.endMs).slice(11)})` : '';
  };
  return (
    <svg
      className="price-chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label="Stake and lease over epochs"
      fontSize={f.font}
    >
      <g className="axis">
        {axis.ticks.map((t, i) => (
          <g key={String(t)} transform={`translate(0,${ys(t)})`}>
            <line x1={M.left} x2={W - M.right} stroke="var(--border)" strokeDasharray="2 3" />
            <text x={M.left - 6} dy="0.32em" textAnchor="end">
              {axis.labels[i]}
            </text>
          </g>
        ))}
        {/* Left of the tick numbers, on two lines: under them it collided with the 0 tick. */}
        <text x={4} y={(M.top + MID - 12) / 2 - 8} textAnchor="start">
          USDC
        </text>
        <text x={4} y={(M.top + MID - 12) / 2 + 8} textAnchor="start">
          staked
        </text>
        <line x1={M.left} x2={W - M.right} y1={yr(0)} y2={yr(0)} stroke="var(--border)" />
        <text x={M.left - 6} y={yr(0)} dy="0.32em" textAnchor="end">
          {W < 500 ? 'lease' : 'lease runway'}
        </text>
        {points.map((p, i) =>
          i % every === 0 ? (
            <text key={p.epoch} x={cx(p.epoch)} y={H - 6} textAnchor="middle">
              {label(p.epoch)}
            </text>
          ) : null,
        )}
      </g>
      <path d={stakePath} fill="none" stroke="var(--accent)" strokeWidth={2} />
      {points.map((p, i) => {
        const r = runway[i];
        const marks = p.events.filter((e) => e === 'slashed' || e === 'deactivated' || e === 'challenged');
        return (
          <g key={p.epoch}>
            <rect
              x={r1(x(p.epoch) ?? 0)}
              width={r1(x.bandwidth())}
              y={r1(Math.min(yr(r), yr(0)))}
              height={r1(Math.max(1, Math.abs(yr(r) - yr(0))))}
              fill={r >= 0 ? 'var(--chart-up)' : 'var(--chart-down)'}
            >
              {f.tips ? (
                <title>
                  {`epoch ${p.epoch}${range(p.epoch)}: ${usdc(BigInt(p.stake))} staked (${p.stakeStatus}), ` +
                    `lease paid through ${p.paidThroughEpoch ?? '—'} (${r >= 0 ? `${r} ahead` : `${-r} behind`}` +
                    `)${p.leaseActive === false ? ', deactivated' : ''}; ${p.events.join(', ') || 'no event'}`}
                </title>
              ) : null}
            </rect>
            {marks.length ? (
              <text x={cx(p.epoch)} y={r1(ys(BigInt(p.stake)) - 6)} textAnchor="middle" fill="var(--bad)">
                {marks.includes('slashed') ? '✕ slashed' : marks.includes('deactivated') ? 'deactivated' : 'challenged'}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

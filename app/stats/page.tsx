/**
 * /stats: the economy over time. Every metric of lib/wire/stats.ts as a chart over 1h, 24h, 7d
 * or all (the range is the query string, so a view is a link; without one, the longest range the
 * data fills at least half of), each with what it counts, a headline figure and its CSV download. Served from the
 * rollups ingest keeps (lib/store/stats/stats.ts).
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { ReconciliationTotals } from '../../components/reconciliation/Reconciliation';
import { defaultStatsRange } from '../../components/stats/default-range';
import { formatValue, grouped, StatsChart, seriesColour } from '../../components/stats/StatsChart';
import '../../components/stats/stats.css';
import { Term } from '../../components/Term';
import { Time } from '../../components/time/Time';
import { ZoneName } from '../../components/time/Zoned';
import {
  STATS_METRIC_NAMES,
  STATS_METRICS,
  STATS_RANGES,
  type StatsMetric,
  type StatsRange,
  type StatsSeries,
} from '../../lib/wire/stats';
import { NotRunning } from '../_lib/not-running';
import type { SearchParams } from '../_lib/query-string';
import { loadReconciliation } from '../_lib/reconciliation';
import { getServices } from '../_lib/services';
import { loadStatsSeries } from '../_lib/stats';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Economy over time' };

const RANGE_TEXT: Record<StatsRange, string> = {
  '1h': 'last hour',
  '24h': 'last 24 hours',
  '7d': 'last 7 days',
  all: 'everything stored',
};
const STEP_TEXT = (s: number) => (s === 60 ? '1-minute' : s === 900 ? '15-minute' : s === 3600 ? 'hourly' : 'daily');
const COUNTS: ReadonlySet<StatsMetric> = new Set(['negotiations', 'batches', 'challenges']);

/** Figures a part of an interval under-counts (a rate or a ratio does not). */
const PER_INTERVAL: ReadonlySet<StatsMetric> = new Set(['envelopes', 'active_agents']);

/**
 * The card's headline: totals over the range for counts, else the last finished interval's value.
 * `startedAtMs`: when this observer began receiving; an envelope rate or agent count of an
 * interval that began before it may read low, and the note says so.
 */
function headline(s: StatsSeries, startedAtMs: number): { text: string; note: React.ReactNode } {
  const metric = s.metric as StatsMetric;
  const n = s.series[0]?.values.length ?? 0;
  if (n === 0) return { text: '—', note: 'nothing in this range' };
  if (COUNTS.has(metric)) {
    return {
      text: s.series
        .map((x) => `${grouped(String(x.values.reduce((t, v) => t + BigInt(v ?? '0'), 0n)))} ${x.label}`)
        .join(' · '),
      note: 'in the range',
    };
  }
  if (metric === 'volume') {
    const total = s.series.reduce((t, x) => t + x.values.reduce((u, v) => u + BigInt(v ?? '0'), 0n), 0n);
    return {
      text: `${grouped(String(total))} units`,
      note:
        `agreed in the range, ${s.series.length} service` +
        `${s.series.length === 1 ? '' : 's'} (token's smallest unit)`,
    };
  }
  // The last interval is still filling: the headline is the newest finished interval with a
  // value, else the filling one (said so), else unknown for the whole range.
  const x = s.series[0];
  let k = n - 2;
  while (k >= 0 && x.values[k] === null) k--;
  const filling = k < 0 && x.values[n - 1] !== null;
  if (filling) k = n - 1;
  if (k < 0) return { text: 'unknown', note: 'nothing to divide in this range' };
  const v = x.values[k];
  const startMs = Date.parse(s.from) + k * s.stepSeconds * 1000;
  const partial = PER_INTERVAL.has(metric) && startMs < startedAtMs;
  return {
    text: `${formatValue(metric, v)}${metric === 'median_price' && v !== null ? ' units' : ''}`,
    note: (
      <>
        interval from <Time ms={startMs} date={false} />
        {filling ? ', still filling' : null}
        {metric === 'median_price' ? `, ${x.label}` : null}
        {partial ? (
          <>
            ; the observer started {startMs + s.stepSeconds * 1000 <= startedAtMs ? 'after it' : 'during it'} (
            <Time ms={startedAtMs} date={false} relative={false} />
            ), so it may read low
          </>
        ) : null}
      </>
    ),
  };
}

/**
 * The range named in the link, else the one the stored data fills best (components/stats/
 * default-range.ts), with the line saying which and why; `note` is null for a named range.
 */
async function pickRange(
  o: NonNullable<ReturnType<typeof getServices>>,
  raw: string | undefined,
  nowMs: number,
): Promise<{ range: StatsRange; note: string | null }> {
  if ((STATS_RANGES as readonly string[]).includes(raw ?? '')) return { range: raw as StatsRange, note: null };
  const first = (await loadStatsSeries(o, 'envelopes', '1h', nowMs)).observedFrom;
  const c = defaultStatsRange(first === null ? null : Date.parse(first), nowMs);
  return { range: c.range, note: raw === undefined ? c.why : `Unknown range “${raw}”. ${c.why}` };
}

export default async function StatsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const sp = await searchParams;
  const raw = Array.isArray(sp.range) ? sp.range[0] : sp.range;
  const nowMs = Date.now();
  const { range, note } = await pickRange(o, raw, nowMs);
  const [all, recon] = await Promise.all([
    Promise.all(STATS_METRIC_NAMES.map((m) => loadStatsSeries(o, m, range, nowMs))),
    loadReconciliation(o, { limit: 1 }).catch(() => null),
  ]);
  const step = all[0].stepSeconds;
  return (
    <>
      <div className="stats-head">
        <div>
          <h1>Economy over time</h1>
          <p className="muted small" style={{ margin: 0 }}>
            {note ? (
              <span data-testid="stats-default-range" className={`stats-range-why${raw === undefined ? '' : ' warn'}`}>
                {note}
              </span>
            ) : null}
            {RANGE_TEXT[range]}, {STEP_TEXT(step)} intervals, times in <ZoneName />, from{' '}
            <Time ms={Date.parse(all[0].from)} />. Counted by the observer as it stores envelopes and chain events, each
            once; hover a chart for an interval&apos;s exact values.
            {all[0].clipped ? ' Only the last 1,000 days are shown.' : null}
            {all[0].observedFrom === null ? (
              ' Nothing observed yet.'
            ) : Date.parse(all[0].observedFrom) > Date.parse(all[0].from) ? (
              <>
                {' '}
                Nothing was observed before <Time ms={Date.parse(all[0].observedFrom)} />: the charts leave that time
                blank (unknown, not zero).
              </>
            ) : null}
          </p>
        </div>
        <nav className="stats-ranges" aria-label="Range">
          {STATS_RANGES.map((r) => (
            <Link key={r} href={`/stats?range=${r}`} aria-current={r === range ? 'page' : undefined}>
              {r}
            </Link>
          ))}
        </nav>
      </div>
      <div className="stats-grid">
        {all.map((s) => {
          const metric = s.metric as StatsMetric;
          const info = STATS_METRICS[metric];
          const h = headline(s, o.observatory.startedAt);
          const csv = `/api/stats/series/csv?metric=${metric}&range=${range}`;
          return (
            <section
              key={metric}
              className="card stats-card"
              data-testid={`stats-${metric}`}
              data-series={s.series.length}
              data-points={s.series[0]?.values.length ?? 0}
            >
              <h2>
                {info.title}{' '}
                <span
                  className="help"
                  title={info.help}
                  tabIndex={0}
                  aria-label={`How ${info.title.toLowerCase()} is counted: ${info.help}`}
                >
                  ?
                </span>
              </h2>
              <p className="stats-figure">
                {h.text}
                <small>{h.note}</small>
              </p>
              <StatsChart s={s} />
              <div className="stats-foot">
                <span className="stats-legend">
                  {s.series.map((x, k) => (
                    <span
                      key={`${x.key}:${x.service ?? ''}:${x.token ?? ''}`}
                      title={
                        x.service
                          ? `service hash ${x.service}, token ${/^0+$/.test(x.token ?? '') ? 'unspecified' : x.token}`
                          : undefined
                      }
                    >
                      <i className={seriesColour(x.key, k)} />
                      {x.label}
                    </span>
                  ))}
                  {s.series.some((x) => x.label === info.unit) ? null : <span>({info.unit})</span>}
                </span>
                <a href={csv} download data-testid={`csv-${metric}`}>
                  CSV
                </a>
              </div>
            </section>
          );
        })}
      </div>
      <ReconCard recon={recon} />
    </>
  );
}

/** Gossip against committed logs, whatever the range: every agent-epoch with a batch verdict. */
function ReconCard({ recon }: { recon: Awaited<ReturnType<typeof loadReconciliation>> | null }) {
  return (
    <section className="card" style={{ marginTop: 16, maxWidth: 640 }} data-testid="stats-reconciliation">
      <h2>
        <Term k="reconciliation">Gossip against committed logs</Term>
      </h2>
      <p className="muted small" style={{ marginTop: 0 }}>
        Every agent-epoch with a batch verdict, whatever the range above.
      </p>
      {recon ? (
        <ReconciliationTotals v={recon} compact />
      ) : (
        <p className="notice" role="alert">
          The reconciliation could not be read.
        </p>
      )}
    </section>
  );
}

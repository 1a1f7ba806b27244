/**
 * /mesh: the health of the gossip that carries the economy, over the last hour (minutes), day or
 * week (hours), as this observer measured it (lib/observer/mesh-health.ts): envelopes per second
 * and first-seen latency per topic, duplicates, mesh peers and their scores, GRAFT/PRUNE churn,
 * connections, rate-limited peers and drops per reason. With several observers on one database,
 * the spread of their latency medians. The same node's Prometheus metrics are at /metrics.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { dropReasonLabel } from '../../components/drop-reasons';
import type { GlossaryKey } from '../../components/glossary';
import { HealthBadge } from '../../components/mesh/HealthBadge';
import { BANDS, type LatestRows } from '../../components/mesh/health-bands';
import { MeshNow, NODE, STREAM, short } from '../../components/mesh/MeshNow';
import { StatsChart, seriesColour } from '../../components/stats/StatsChart';
import '../../components/stats/stats.css';
import { Term } from '../../components/Term';
import { ZoneName } from '../../components/time/Zoned';
import { MESH_RANGES, type MeshHealthRow, type MeshHealthView, type MeshRange } from '../../lib/wire/mesh-health';
import type { StatsMetricInfo, StatsSeries } from '../../lib/wire/stats';
import { loadMeshHealth } from '../_lib/mesh-health';
import { NotRunning } from '../_lib/not-running';
import type { SearchParams } from '../_lib/query-string';
import { getServices } from '../_lib/services';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Mesh health' };

const RANGE_TEXT: Record<MeshRange, string> = {
  '1h': 'last hour, 1-minute intervals',
  '24h': 'last 24 hours, hourly intervals',
  '7d': 'last 7 days, hourly intervals',
};
const fixed = (v: number | null, d: number) => (v === null || !Number.isFinite(v) ? null : v.toFixed(d));

/** One interval's rows of the shown observer, by topic. */
type At = (topic: string) => MeshHealthRow | undefined;

interface Chart {
  key: string;
  title: string;
  term?: GlossaryKey;
  info: StatsMetricInfo;
  /** A value per interval from that interval's rows (and its start); null = not measured. */
  series: Array<{ key: string; label: string; value: (at: At, bucket: number) => string | null }>;
  empty?: string;
}

/** A chart's values over the range: one per interval start (from + i × res). */
function seriesOf(
  v: MeshHealthView,
  metric: string,
  unit: string,
  list: Chart['series'],
  at: (bucket: number) => At,
): StatsSeries {
  const n = Math.round((v.to - v.from) / v.res);
  return {
    metric,
    range: v.range,
    stepSeconds: v.res,
    from: new Date(v.from * 1000).toISOString(),
    to: new Date(v.to * 1000).toISOString(),
    unit,
    clipped: false,
    observedFrom: null,
    series: list.map((x) => ({
      key: x.key,
      label: x.label,
      service: null,
      token: null,
      values: Array.from({ length: n }, (_, i) => x.value(at(v.from + i * v.res), v.from + i * v.res)),
    })),
  };
}

/** A per-topic value, null in an interval without that topic's row. */
const of = (topic: string, f: (r: MeshHealthRow) => string | null) => (at: At) => {
  const r = at(topic);
  return r ? f(r) : null;
};

export default async function MeshPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const sp = await searchParams;
  const raw = Array.isArray(sp.range) ? sp.range[0] : sp.range;
  const range: MeshRange = (MESH_RANGES as readonly string[]).includes(raw ?? '') ? (raw as MeshRange) : '1h';
  const v = await loadMeshHealth(o, range, Date.now());
  const observer = v.observer;
  const mine = v.rows;
  const byKey = new Map(mine.map((r) => [`${r.topic}@${r.bucket}`, r]));
  const rowsAt =
    (bucket: number): At =>
    (topic) =>
      byKey.get(`${topic}@${bucket}`);
  const spread = new Map(v.spread.map((x) => [x.bucket, (x.p50Max - x.p50Min).toFixed(1)]));
  const topics = [...new Set(mine.map((r) => r.topic))]
    .filter((t) => t !== NODE)
    .sort((a, b) => (a === STREAM ? 1 : b === STREAM ? -1 : a.localeCompare(b)));
  const gossip = topics.filter((t) => t !== STREAM);
  const reasons = [...new Set(mine.flatMap((r) => Object.keys(r.drops ?? {})))].sort();
  const last = new Map<string, MeshHealthRow>();
  for (const r of mine) if ((last.get(r.topic)?.bucket ?? -1) < r.bucket) last.set(r.topic, r);
  const lastNode = last.get(NODE);
  const latest: LatestRows = {
    node: lastNode,
    gossip: gossip.map((t) => last.get(t)).filter((r): r is MeshHealthRow => r !== undefined),
  };

  const charts: Chart[] = [
    {
      key: 'rate',
      title: 'Envelopes per second',
      term: 'topic',
      info: {
        title: 'Envelopes per second',
        unit: 'envelopes/s',
        help: 'Envelopes this observer accepted per topic in the interval, divided by the seconds it measured.',
        series: [],
      },
      series: topics.map((t) => ({
        key: t,
        label: short(t),
        value: of(t, (r) => (r.seconds > 0 ? (r.messages / r.seconds).toFixed(2) : null)),
      })),
    },
    {
      key: 'latency',
      title: 'First-seen latency (all topics)',
      term: 'firstSeenLatency',
      info: {
        title: 'First-seen latency',
        unit: 'ms',
        help: 'Arrival at this observer minus the envelope timestamp; unknown in an interval without envelopes.',
        series: [],
      },
      series: (
        [
          ['p50', 'latencyP50'],
          ['p90', 'latencyP90'],
          ['p99', 'latencyP99'],
        ] as const
      ).map(([k, f]) => ({ key: k, label: k, value: of(NODE, (r) => fixed(r[f], 1)) })),
    },
    {
      key: 'dup',
      title: 'Duplicate ratio',
      term: 'duplicateRatio',
      info: {
        title: 'Duplicate ratio',
        unit: '%',
        ratio: true,
        help: 'Duplicates ÷ messages GossipSub received on the topic; unknown when it received none.',
        series: [],
      },
      series: gossip.map((t) => ({
        key: t,
        label: short(t),
        value: of(t, (r) => (r.received ? (r.duplicates! / r.received).toFixed(4) : null)),
      })),
    },
    {
      key: 'mesh',
      title: 'Mesh peers',
      term: 'meshPeers',
      info: {
        title: 'Mesh peers',
        unit: 'peers',
        help: "Peers in this node's GossipSub mesh for the topic at the end of the interval.",
        series: [],
      },
      series: gossip.map((t) => ({
        key: t,
        label: short(t),
        value: of(t, (r) => (r.meshPeers === null ? null : String(r.meshPeers))),
      })),
    },
    // Summed over the gossip topics measured in the interval.
    {
      key: 'churn',
      title: 'GRAFT / PRUNE churn (all gossip topics)',
      term: 'graftPrune',
      info: {
        title: 'Churn',
        unit: 'per interval',
        help: "Peers added to and removed from the topics' meshes in the interval.",
        series: [],
      },
      series: (['grafts', 'prunes'] as const).map((f) => ({
        key: f,
        label: f === 'grafts' ? 'GRAFT' : 'PRUNE',
        value: (at: At) => {
          const rs = gossip.map(at).filter((r): r is MeshHealthRow => r !== undefined);
          return rs.length ? String(rs.reduce((t, r) => t + (r[f] ?? 0), 0)) : null;
        },
      })),
    },
    {
      key: 'conn',
      title: 'Connections and rate-limited peers',
      info: {
        title: 'Connections',
        unit: 'peers',
        help:
          'Open connections at the end of the interval; peers with at ' +
          'least one envelope refused for rate (spec: 100 a second) in it.',
        series: [],
      },
      series: [
        {
          key: 'connections',
          label: 'connections',
          value: of(NODE, (r) => (r.connections === null ? null : String(r.connections))),
        },
        {
          key: 'rate_limited',
          label: 'rate-limited peers',
          value: of(NODE, (r) => (r.rateLimitedPeers === null ? null : String(r.rateLimitedPeers))),
        },
      ],
    },
    {
      key: 'drops',
      title: 'Drops per reason',
      info: {
        title: 'Drops',
        unit: 'per interval',
        help: 'Envelopes this observer refused, by reason (each reason is explained in the glossary).',
        series: [],
      },
      series: reasons.map((k) => ({
        key: k,
        label: dropReasonLabel(k),
        value: of(NODE, (r) => String(r.drops?.[k] ?? 0)),
      })),
      empty: 'No drops in this range.',
    },
  ];

  return (
    <>
      <div className="stats-head">
        <div>
          <h1>Mesh health</h1>
          <p className="muted small" style={{ margin: 0 }}>
            {RANGE_TEXT[range]}, times in <ZoneName />, as measured by this observer (
            <span className="mono" title={observer}>
              {observer.slice(0, 8)}…{observer.slice(-6)}
            </span>
            ). An interval appears once it has ended; a gap is an interval nobody measured (the observer was not
            running), not a quiet mesh.
            {v.observers.length > 1
              ? ` ${v.observers.length} observers share this database: ` +
                `the last chart is the spread of their latency medians.`
              : ''}{' '}
            Prometheus: <a href="/metrics">/metrics</a> · JSON:{' '}
            <a href={`/api/mesh/health?range=${range}`}>/api/mesh/health</a>
            {raw !== undefined && raw !== range ? (
              <>
                {' '}
                <span style={{ color: 'var(--warn)' }}>Unknown range &ldquo;{raw}&rdquo;: showing 1h.</span>
              </>
            ) : null}
          </p>
        </div>
        <nav className="stats-ranges" aria-label="Range">
          {MESH_RANGES.map((r) => (
            <Link key={r} href={`/mesh?range=${r}`} aria-current={r === range ? 'page' : undefined}>
              {r}
            </Link>
          ))}
        </nav>
      </div>

      <MeshNow topics={topics} last={last} latest={latest} />

      <div className="stats-grid">
        {charts.map((c) => {
          const s = seriesOf(v, c.key, c.info.unit, c.series, rowsAt);
          const band = BANDS[c.key];
          const verdict = band?.judge?.(latest) ?? null;
          return (
            <section
              key={c.key}
              className="card stats-card"
              data-testid={`mesh-${c.key}`}
              data-series={s.series.length}
            >
              <h2>
                {c.term ? <Term k={c.term}>{c.title}</Term> : c.title}{' '}
                <span className="help" title={c.info.help} tabIndex={0} aria-label={c.info.help}>
                  ?
                </span>
              </h2>
              {band ? (
                <p className="health-sentence" data-testid={`mesh-${c.key}-band`}>
                  {verdict && band.thresholds ? (
                    <>
                      <HealthBadge level={verdict.level} value={verdict.value} thresholds={band.thresholds} />{' '}
                    </>
                  ) : null}
                  {band.sentence}
                </p>
              ) : null}
              <StatsChart s={s} info={c.info} empty={c.empty ?? 'Nothing measured in this range yet.'} />
              <div className="stats-foot">
                <span className="stats-legend">
                  {s.series.map((x, k) => (
                    <span key={x.key}>
                      <i className={seriesColour(x.key, k)} />
                      {x.label}
                    </span>
                  ))}
                  <span>({c.info.unit})</span>
                </span>
              </div>
            </section>
          );
        })}
        {v.observers.length > 1 ? (
          <section className="card stats-card" data-testid="mesh-spread">
            <h2>
              Latency spread between observers{' '}
              <span
                className="help"
                title={
                  'Per interval: the largest minus the smallest first-seen ' +
                  'latency median among the observers that measured it.'
                }
                tabIndex={0}
              >
                ?
              </span>
            </h2>
            <StatsChart
              s={seriesOf(
                v,
                'spread',
                'ms',
                [{ key: 'spread', label: 'p50 spread', value: (_at, bucket) => spread.get(bucket) ?? null }],
                rowsAt,
              )}
              info={{ title: 'Spread', unit: 'ms', help: '', series: [] }}
            />
          </section>
        ) : null}
      </div>
    </>
  );
}

/**
 * The economy over time (GET /api/stats/series, the /stats page): which series exist, what they
 * count, and the answer's shape. Values are decimal strings (counts, exact token amounts, rates
 * with four decimals) so nothing passes through a float on its way out.
 */
import { z } from 'zod';

export const STATS_RANGES = ['1h', '24h', '7d', 'all'] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

/** One chart: its series keys (fixed, or per service), unit and what it means. */
export interface StatsMetricInfo {
  title: string;
  unit: string;
  /** Shown as the chart's tooltip: how the figure is counted. */
  help: string;
  /** Fixed series [key, label]; per-service metrics have none (one series per service and token). */
  series: readonly (readonly [string, string])[];
  perService?: true;
  /** Values are ratios (0.25 = 25 %). */
  ratio?: true;
}

export const STATS_METRICS = {
  envelopes: {
    title: 'Envelopes per second',
    unit: 'envelopes/s',
    help:
      'Stored envelopes whose signed timestamp falls in the interval, ' +
      'divided by its length in seconds. Duplicates are counted once.',
    series: [['envelopes_per_s', 'envelopes/s']],
  },
  active_agents: {
    title: 'Active agents',
    unit: 'agents',
    help: 'Distinct agents that sent at least one stored envelope in the interval.',
    series: [['active_agents', 'active agents']],
  },
  negotiations: {
    title: 'Negotiations',
    unit: 'per interval',
    help:
      'Opened: PROPOSE envelopes. Agreed: ACCEPT envelopes. Rejected: REJECT envelopes. Expired: on-chain Haggle ' +
      'negotiations refunded because a deadline or response window passed (the mesh has no expiry message).',
    series: [
      ['opened', 'opened'],
      ['agreed', 'agreed'],
      ['rejected', 'rejected'],
      ['expired', 'expired'],
    ],
  },
  agreement_rate: {
    title: 'Agreement rate',
    unit: '%',
    ratio: true,
    help: 'Agreed ÷ (agreed + rejected + expired) in the interval; unknown (a gap) when none of them happened.',
    series: [['agreement_rate', 'agreement rate']],
  },
  volume: {
    title: 'Agreed volume per service',
    unit: 'token units',
    perService: true,
    help:
      'Sum of the agreed prices (the NEG1 bid_value of each ACCEPT) in the ' +
      "interval, per service hash and token, in the token's smallest unit, exact.",
    series: [],
  },
  median_price: {
    title: 'Median agreed price per service',
    unit: 'token units',
    perService: true,
    help:
      'The median of the agreed prices in the interval, per service hash and token: with an even count, the ' +
      "lower of the two middle prices (always a price some deal agreed on). Exact, in the token's smallest unit.",
    series: [],
  },
  dispute_rate: {
    title: 'Dispute rate',
    unit: '% of agreements',
    ratio: true,
    help:
      'DISPUTE envelopes ÷ ACCEPT envelopes in the interval. A dispute usually follows its ' +
      'agreement later, so a short interval can read above 100 %; unknown when nothing was agreed.',
    series: [['dispute_rate', 'disputes per agreement']],
  },
  batches: {
    title: 'Batches verified vs mismatched',
    unit: 'per interval',
    help:
      "BehaviorBatch verdicts the observatory reached in the interval: verified (the agent's uploaded log " +
      'rebuilds the on-chain root and counts) or mismatched; submitted counts BatchSubmitted events by block time.',
    series: [
      ['verified', 'verified'],
      ['mismatched', 'mismatched'],
      ['submitted', 'submitted'],
    ],
  },
  challenges: {
    title: 'Challenges',
    unit: 'per interval',
    help: 'Challenges opened (ChallengeSubmitted) and resolved (ChallengeResolved) on chain, by block time.',
    series: [
      ['opened', 'opened'],
      ['resolved', 'resolved'],
    ],
  },
} as const satisfies Record<string, StatsMetricInfo>;

export type StatsMetric = keyof typeof STATS_METRICS;
export const STATS_METRIC_NAMES = Object.keys(STATS_METRICS) as StatsMetric[];

/** GET /api/stats/series and /api/stats/series/csv. */
export const StatsSeriesQuerySchema = z.object({
  metric: z
    .enum(STATS_METRIC_NAMES as [StatsMetric, ...StatsMetric[]])
    .meta({ description: `one of ${STATS_METRIC_NAMES.join(', ')}` }),
  range: z
    .enum(STATS_RANGES)
    .default('24h')
    .meta({
      description:
        'the window ending now: 1h (1-minute points), 24h (15-minute), 7d ' +
        '(hourly), all (the finest of those giving at most 500 points, else daily)',
    }),
});

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);

export const StatsSeriesSchema = z.object({
  metric: z.string(),
  range: z.enum(STATS_RANGES),
  /** Interval length of each point, seconds. */
  stepSeconds: z.number().int().positive(),
  /** First point's start and the end of the last point, ISO 8601 UTC. */
  from: z.string(),
  to: z.string(),
  unit: z.string(),
  /** True when "all" started later than the first data (more than 1,000 daily points). */
  clipped: z.boolean(),
  /**
   * Start of the first minute this store holds anything for, ISO 8601 UTC (null: nothing yet).
   * Intervals that end before it are null in every series: nothing was observed then, which is
   * not the same as a quiet mesh.
   */
  observedFrom: z.string().nullable(),
  series: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      /** Per-service series: SHA-256 of the service description and the token mint (zeros: unspecified), hex. */
      service: z.string().nullable(),
      token: z.string().nullable(),
      /**
       * One value per interval start (`from` + i × stepSeconds); null = unknown (a rate with nothing to divide, or
       * before `observedFrom`).
       */
      values: z.array(decimal.nullable()),
    }),
  ),
});
export type StatsSeries = z.infer<typeof StatsSeriesSchema>;

/** The series as CSV: one row per interval, its start in UTC, one column per series. */
/**
 * A series' CSV column: the metric, and for a per-service series the service's advertised name
 * (or "unnamed service") with its exact hash and token in brackets, so the header reads as words
 * and still joins with the JSON.
 */
export function statsColumn(x: StatsSeries['series'][number]): string {
  if (!x.service) return x.key;
  const name = /^service [0-9a-f]{8}…$/.test(x.label) ? 'unnamed service' : x.label;
  const token = !x.token || /^0+$/.test(x.token) ? 'unspecified' : x.token;
  return `${x.key}: ${name} [service ${x.service}, token ${token}]`;
}

export function statsSeriesCsv(s: StatsSeries): string {
  const esc = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const head = ['interval_start_utc', 'interval_seconds', ...s.series.map(statsColumn)];
  const start = Date.parse(s.from);
  const n = s.series[0]?.values.length ?? Math.round((Date.parse(s.to) - start) / 1000 / s.stepSeconds);
  const lines = [head.map(esc).join(',')];
  for (let i = 0; i < n; i++) {
    const t = new Date(start + i * s.stepSeconds * 1000).toISOString().replace('.000Z', 'Z');
    lines.push([t, String(s.stepSeconds), ...s.series.map((x) => x.values[i] ?? '')].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The overview's strip (components/stats/StatsStrip), the last hour at a glance: exact counts, rates to two decimals of
 * a percent.
 */
export interface StatsStripView {
  /**
   * Envelopes/s and active agents in the last finished minute (decimal strings); null while the
   * observer has not yet received a whole minute (a part of one would read low).
   */
  envelopesPerS: string | null;
  activeAgents: string | null;
  /** Over the last hour. */
  opened: string;
  agreed: string;
  /** agreed ÷ (agreed + rejected + expired) over the hour, four decimals; null when none ended. */
  agreementRate: string | null;
  /** Start of the last finished minute, ISO UTC. */
  minute: string;
  /** When this observer began receiving, and when the first minute it received whole ends (ISO UTC). */
  startedAt: string;
  firstWholeMinuteEnds: string;
  /** The observer started less than an hour ago: the hour's counts hold only what the database had from before. */
  hourBeforeStart: boolean;
}

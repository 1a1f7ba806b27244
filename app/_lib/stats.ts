/**
 * The economy over time for the /stats page, the overview strip and GET /api/stats/series: one
 * metric over one range, read from the store's rollups (lib/store/stats/stats.ts).
 */
import 'server-only';
import { decodeAdvertise } from '../../lib/protocol/advertise';
import { MsgType } from '../../lib/protocol/types';
import type { StatsMetric, StatsRange, StatsSeries, StatsStripView } from '../../lib/wire/stats';
import { servicesOf } from './deals';
import type { Services } from './services';

/** The newest ADVERTISE envelopes read for service names: a mesh's advertisers each advertise about once a minute. */
const ADVERTS_READ = 500;
/** Service names are read again after this long (names change rarely; a new service shows its hash until then). */
const NAMES_TTL_MS = 60_000;
let names: { reads: unknown; at: number; map: Promise<Map<string, string>> } | null = null;

/** Service names by their hash (hex), from the services the newest ADVERTISE envelopes name. */
export function serviceNames(o: Pick<Services, 'reads'>, nowMs = Date.now()): Promise<Map<string, string>> {
  if (names && names.reads === o.reads && nowMs - names.at < NAMES_TTL_MS) return names.map;
  const map = o.reads
    .recentEnvelopes({ type: MsgType.ADVERTISE, limit: ADVERTS_READ })
    .then((rows) => {
      const out = new Map<string, string>();
      for (const r of rows) {
        const d = decodeAdvertise(r.envelope.payload);
        if (!d.ok) continue;
        for (const [hash, name] of servicesOf(d.value)) if (!out.has(hash)) out.set(hash, name);
      }
      return out;
    })
    .catch(() => new Map<string, string>());
  names = { reads: o.reads, at: nowMs, map };
  return map;
}

/** One metric over one range; a per-service series is labelled with the service's advertised name where known. */
export async function loadStatsSeries(
  o: Pick<Services, 'reads'>,
  metric: StatsMetric,
  range: StatsRange,
  nowMs = Date.now(),
): Promise<StatsSeries> {
  const s = await o.reads.statsSeries({ metric, range, nowMs });
  if (!s.series.some((x) => x.service)) return s;
  const known = await serviceNames(o, nowMs);
  return {
    ...s,
    series: s.series.map((x) => {
      const name = x.service ? known.get(x.service) : undefined;
      return name ? { ...x, label: name } : x;
    }),
  };
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * `startedAtMs`: when this process began receiving (Observatory.startedAt). The per-second rate
 * and active agents are those of the last finished minute, but only of a minute the observer
 * received whole: the minute it started in would read low, the minute before that zero, so
 * until one has passed they are null with the time the first whole minute ends.
 */
export async function loadStatsStrip(
  o: Pick<Services, 'reads' | 'observatory'>,
  nowMs = Date.now(),
  startedAtMs = o.observatory.startedAt,
): Promise<StatsStripView> {
  const [env, active, neg] = await Promise.all(
    (['envelopes', 'active_agents', 'negotiations'] as const).map((m) => loadStatsSeries(o, m, '1h', nowMs)),
  );
  const n = env.series[0].values.length;
  const sum = (key: string) => neg.series.find((s) => s.key === key)!.values.reduce((t, v) => t + BigInt(v ?? '0'), 0n);
  const [agreed, ended] = [sum('agreed'), sum('agreed') + sum('rejected') + sum('expired')];
  const bp = ended === 0n ? null : (agreed * 10_000n) / ended;
  const minuteMs = Date.parse(env.from) + (n - 2) * 60_000;
  const whole = minuteMs >= startedAtMs;
  return {
    envelopesPerS: whole ? (env.series[0].values[n - 2] ?? '0') : null,
    activeAgents: whole ? (active.series[0].values[n - 2] ?? '0') : null,
    opened: String(sum('opened')),
    agreed: String(agreed),
    agreementRate: bp === null ? null : `${bp / 10_000n}.${String(bp % 10_000n).padStart(4, '0')}`,
    minute: iso(minuteMs),
    startedAt: iso(startedAtMs),
    firstWholeMinuteEnds: iso(Math.ceil(startedAtMs / 60_000) * 60_000 + 60_000),
    hourBeforeStart: startedAtMs > nowMs - 3_600_000,
  };
}

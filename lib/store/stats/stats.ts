/**
 * The economy over time from rollups (migration 20261126160000_stats_rollups), never from
 * `envelope`. Writers keep them from exactly the rows they insert:
 * - the ingest statement (ingest.ts) adds one stats_pending row ({@link STATS_PENDING_CTE}) with
 *   what it inserted, per minute of signed time: envelopes per msg_type, each sender's bit in
 *   its 64-agent mask word, each ACCEPT's NEG1 price per service and token with its count;
 *   {@link foldStats} deletes pending rows and adds them up into the rollups in one statement:
 *   the counters per interval (stats_bucket), the masks (stats_active_mask: a bit it sets is an
 *   agent newly active there), the prices per minute (stats_price) and the deal count and volume
 *   per interval, service and token (stats_service). The store folds two seconds after ingest and
 *   before a chart read, so a chart shows what its own process stored;
 * - the chain indexer counts the program events it inserted (chain.ts insertChainEvents) and the
 *   batch verdicts that changed (chain.ts setBatchStatus), in the same statement.
 * A re-seen envelope or event inserts nothing, so it counts nothing; a pending row is counted by
 * the statement that deletes it, so a crash or two processes folding at once count it once. Four
 * resolutions are kept (STATS_RESOLUTIONS); a chart reads exactly one, so no figure is
 * re-aggregated: active agents are distinct per interval and a median is a median of that
 * interval's prices. A median is computed from the interval's minutes of price rows by a read
 * and, once the interval has ended, stored with the deal count it covers (storeMedians): a closed
 * interval's median is read, not recomputed, until a late deal moves its count; only the interval
 * still receiving deals costs each read its price rows.
 */

import { MsgType } from '../../protocol/types';
import { STATS_METRICS, type StatsMetric, type StatsRange, type StatsSeries } from '../../wire/stats';
import type { Queryable } from '../engine/db';

/** Interval lengths kept, seconds. */
export const STATS_RESOLUTIONS = [60, 900, 3600, 86_400] as const;

/** A FROM item with one row per resolution, column `res`. */
export const STATS_LEVELS_SQL = `(VALUES ${STATS_RESOLUTIONS.map((r) => `(${r})`).join(', ')}) AS lv(res)`;
/** The interval start at resolution lv.res of a timestamptz. */
export const statsBucketOfTime = (t: string) => `(floor(extract(epoch FROM ${t}))::bigint / lv.res) * lv.res`;

/** Range → resolution and number of points (all: chosen from the data's span). */
const FIXED: Record<Exclude<StatsRange, 'all'>, { res: number; points: number }> = {
  '1h': { res: 60, points: 60 },
  '24h': { res: 900, points: 96 },
  '7d': { res: 3600, points: 168 },
};
const ALL_MAX_POINTS = 500;
const ALL_MAX_DAYS = 1000;
/** Per-service charts show the services with the most deals in the window. */
export const STATS_MAX_SERVICES = 8;

export interface StatsSeriesParams {
  metric: StatsMetric;
  range: StatsRange;
  /** Server clock, unix ms (the window ends with the interval holding it). */
  nowMs: number;
}

type Window = { res: number; points: number; from: number; clipped: boolean; observedFrom: number | null };

async function windowOf(q: Queryable, range: StatsRange, nowS: number): Promise<Window> {
  // The first minute with data: one probe of the primary key.
  const [r] = await q.query<{ first: string | null }>(
    'SELECT min(bucket)::text AS first FROM stats_bucket WHERE res = 60',
  );
  const observedFrom = r?.first === null || r?.first === undefined ? null : Number(r.first);
  if (range !== 'all') {
    const { res, points } = FIXED[range];
    return { res, points, from: Math.floor(nowS / res) * res - (points - 1) * res, clipped: false, observedFrom };
  }
  const first = observedFrom === null ? nowS : Math.min(nowS, observedFrom);
  for (const res of STATS_RESOLUTIONS) {
    const from = Math.floor(first / res) * res;
    const points = Math.floor(nowS / res) - from / res + 1;
    if (points <= ALL_MAX_POINTS || res === 86_400) {
      if (points > ALL_MAX_DAYS)
        return {
          res,
          points: ALL_MAX_DAYS,
          from: Math.floor(nowS / res) * res - (ALL_MAX_DAYS - 1) * res,
          clipped: true,
          observedFrom,
        };
      return { res, points, from, clipped: false, observedFrom };
    }
  }
  throw new Error('unreachable');
}

const MINUTE = STATS_RESOLUTIONS[0];
const minuteOf = (ts: string) => `(${ts} / ${MINUTE * 1_000_000}::bigint) * ${MINUTE}`;

/**
 * The ingest statement's stats: one stats_pending row from the envelopes it inserted (`n`: the
 * staged columns ts, msg_type, sender, deal_service, deal_token, deal_price) and their senders'
 * agent rows (`ag`: id, idx), grouped per minute; nothing when it inserted nothing. Arrays keep it
 * one row however many minutes, words and prices a batch spans (a live batch: a minute or two).
 */
export const STATS_PENDING_CTE = `sd AS (
  INSERT INTO stats_pending (minutes, envelopes, opened, agreed, rejected, disputes, active_minutes, active_words,
    active_masks,
    deal_minutes, deal_services, deal_tokens, deal_prices, deal_counts)
  SELECT c.*, a.*, d.* FROM (
    SELECT array_agg(minute), array_agg(env), array_agg(op), array_agg(agr), array_agg(rej), array_agg(dis) FROM (
      SELECT ${minuteOf('ts')} AS minute, count(*) AS env,
        count(*) FILTER (WHERE msg_type = ${MsgType.PROPOSE}) AS op, count(*) FILTER (WHERE msg_type =
          ${MsgType.ACCEPT}) AS agr,
        count(*) FILTER (WHERE msg_type = ${MsgType.REJECT}) AS rej, count(*) FILTER (WHERE msg_type =
          ${MsgType.DISPUTE}) AS dis
      FROM n GROUP BY 1
    ) x
  ) c (minutes, env, op, agr, rej, dis), (
    SELECT array_agg(minute), array_agg(word), array_agg(mask) FROM (
      SELECT ${minuteOf('n.ts')} AS minute, g.idx / 64 AS word, bit_or(1::bigint << (g.idx % 64)) AS mask
      FROM n JOIN ag g ON g.id = n.sender GROUP BY 1, 2
    ) y
  ) a (minutes, words, masks), (
    SELECT COALESCE(array_agg(minute), '{}'), COALESCE(array_agg(service), '{}'), COALESCE(array_agg(token), '{}'),
      COALESCE(array_agg(price), '{}'), COALESCE(array_agg(deals), '{}') FROM (
      SELECT ${minuteOf('ts')} AS minute, deal_service AS service, deal_token AS token, deal_price::numeric AS price,
        count(*) AS deals
      FROM n WHERE deal_price IS NOT NULL GROUP BY 1, 2, 3, 4
    ) z
  ) d (minutes, services, tokens, prices, deals)
  WHERE c.minutes IS NOT NULL
)`;

/**
 * Each sender's bit set once per interval in stats_active_mask (64 agents to a row, by
 * agent.idx), finest resolution first, from `am` (minute, word, mask). A write's `added` is the
 * bits it set: agents newly active in that interval. A sender already recorded in a minute is
 * recorded in its quarter hour, hour and day too, so only the bits one level added are tried at
 * the next. A write that would set nothing is skipped (and returns nothing). `sa` lists how many
 * agents each write added, counted into stats_bucket.
 */
function activeCascade(): string {
  const [first, ...rest] = STATS_RESOLUTIONS;
  const upsert = (select: string) => `INSERT INTO stats_active_mask AS m (res, bucket, word, mask, added)
  ${select}
  ON CONFLICT (res, bucket, word) DO UPDATE SET mask = m.mask | excluded.mask, added = excluded.mask & ~m.mask
  WHERE (excluded.mask & ~m.mask) <> 0
  RETURNING res, bucket, word, added`;
  const parts = [
    `sa${first} AS (
  ${upsert(`SELECT ${first}, minute, word, mask, mask FROM am ORDER BY minute, word`)}
)`,
  ];
  let prev: number = first;
  for (const r of rest) {
    parts.push(`sa${r} AS (
  ${upsert(`SELECT ${r}, (bucket / ${r}) * ${r}, word, bit_or(added), bit_or(added) FROM sa${prev}
  GROUP BY 2, 3 ORDER BY 2, 3`)}
)`);
    prev = r;
  }
  parts.push(`sa AS (${STATS_RESOLUTIONS.map((r) => `SELECT res, bucket, added FROM sa${r}`).join(' UNION ALL ')})`);
  return parts.join(', ');
}

/** Pending rows one fold statement takes at most (a live observer writes a few per second). */
const FOLD_ROWS = 2_000;

/**
 * The fold: up to FOLD_ROWS pending rows (SKIP LOCKED: a concurrent fold takes others) deleted
 * and added up per minute (`mc`), mask word (`am`) and price (`dp`), then into every resolution:
 * counters per interval (aggregated per minute first, then spread to the four levels), active
 * agents, each price per minute, service and token (stats_price: the finest level only; a
 * coarser interval's median is computed from its minutes by a read), and deals and volume per
 * interval, service and token and all time (res 0, bucket 0: what the "all" range ranks by).
 */
export const FOLD_SQL = `WITH pend AS (
  DELETE FROM stats_pending WHERE id IN (SELECT id FROM stats_pending ORDER BY id LIMIT ${FOLD_ROWS} FOR UPDATE SKIP
    LOCKED)
  RETURNING *
), mc AS (
  SELECT u.minute, sum(u.env) AS env, sum(u.op) AS op, sum(u.agr) AS agr, sum(u.rej) AS rej, sum(u.dis) AS dis
  FROM pend p, unnest(p.minutes, p.envelopes, p.opened, p.agreed, p.rejected, p.disputes) AS u (minute, env, op, agr,
    rej, dis) GROUP BY 1
), am AS (
  SELECT u.minute, u.word, bit_or(u.mask) AS mask FROM pend p, unnest(p.active_minutes, p.active_words, p.active_masks)
    AS u (minute, word, mask) GROUP BY 1, 2
), dp AS (
  SELECT u.minute, u.service, u.token, u.price, sum(u.deals) AS deals
  FROM pend p, unnest(p.deal_minutes, p.deal_services, p.deal_tokens, p.deal_prices, p.deal_counts) AS u (minute,
    service, token, price, deals) GROUP BY 1, 2, 3, 4
), ${activeCascade()}, sb AS (
  -- One upsert per interval row (two CTEs updating one row in a statement would lose one).
  INSERT INTO stats_bucket AS b (res, bucket, envelopes, active_agents, opened, agreed, rejected, disputes)
  SELECT res, bucket, sum(env), sum(act), sum(op), sum(agr), sum(rej), sum(dis) FROM (
    SELECT lv.res, (mc.minute / lv.res) * lv.res AS bucket, mc.env, 0 AS act, mc.op, mc.agr, mc.rej, mc.dis FROM mc
      CROSS JOIN ${STATS_LEVELS_SQL}
    UNION ALL SELECT res, bucket, 0, sum(bit_count(added::bit(64))), 0, 0, 0, 0 FROM sa GROUP BY 1, 2
  ) x GROUP BY res, bucket ORDER BY res, bucket
  ON CONFLICT (res, bucket) DO UPDATE SET envelopes = b.envelopes + excluded.envelopes, active_agents = b.active_agents
    + excluded.active_agents,
    opened = b.opened + excluded.opened, agreed = b.agreed + excluded.agreed, rejected = b.rejected + excluded.rejected,
      disputes = b.disputes + excluded.disputes
), sp AS (
  INSERT INTO stats_price AS p (res, service, token, bucket, price, deals)
  SELECT ${MINUTE}, service, token, minute, price, deals FROM dp ORDER BY 2, 3, 4, 5
  ON CONFLICT (res, service, token, bucket, price) DO UPDATE SET deals = p.deals + excluded.deals
), sv AS (
  -- Deals and volume at every level and all time; a stored median stays until a read sees median_deals behind deals.
  INSERT INTO stats_service AS v (res, bucket, service, token, deals, volume)
  SELECT lv.res, (dp.minute / lv.res) * lv.res, service, token, sum(deals), sum(price * deals) FROM dp CROSS JOIN
    ${STATS_LEVELS_SQL}
  GROUP BY 1, 2, 3, 4
  UNION ALL SELECT 0, 0, service, token, sum(deals), sum(price * deals) FROM dp GROUP BY 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (res, bucket, service, token) DO UPDATE SET deals = v.deals + excluded.deals, volume = v.volume +
    excluded.volume
)
SELECT count(*)::int AS n FROM pend`;

/**
 * Adds every pending row to the rollups (several statements when more than FOLD_ROWS wait);
 * returns how many it folded. Rows a concurrent fold holds are left to it; rows a concurrent
 * ingest has not committed are the next fold's. Retried on deadlock.
 */
export async function foldStats(q: Queryable): Promise<number> {
  let total = 0;
  for (let attempt = 0; ; ) {
    try {
      const [r] = await q.query<{ n: number }>(FOLD_SQL);
      total += r.n;
      if (r.n < FOLD_ROWS) return total;
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (attempt++ < 5 && (code === '40P01' || code === '40001')) continue;
      throw e;
    }
  }
}

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

/** count × 1000 / res as a decimal with three places, exact. */
function perSecond(count: bigint, res: number): string {
  const milli = (count * 1000n) / BigInt(res);
  return `${milli / 1000n}.${String(milli % 1000n).padStart(3, '0')}`;
}
/** a / b to four decimals (truncated), or null when b is 0. */
function ratio(a: bigint, b: bigint): string | null {
  if (b === 0n) return null;
  const x = (a * 10_000n) / b;
  return `${x / 10_000n}.${String(x % 10_000n).padStart(4, '0')}`;
}

type BucketRow = Record<
  | 'bucket'
  | 'envelopes'
  | 'active_agents'
  | 'opened'
  | 'agreed'
  | 'rejected'
  | 'expired'
  | 'disputes'
  | 'batches_submitted'
  | 'batches_verified'
  | 'batches_mismatched'
  | 'challenges_opened'
  | 'challenges_resolved',
  string
>;

/**
 * A shown service's interval (service and token in hex); `value` is the metric's, `fresh`: its stored median covers
 * every deal.
 */
type ServiceRow = {
  rank: number;
  bucket: string;
  service: string;
  token: string;
  value: string | null;
  fresh: boolean;
};

/**
 * The medians of these intervals (res, bucket, service, token) from their minutes' price rows
 * (one key range per interval and service), keyed `bucket:service:token`. Those of intervals
 * that have ended are stored with the count they cover, so the next read finds them; one whose
 * count moved on meanwhile (a concurrent ingest: the UPDATE re-checks the newest row version)
 * stays stale. The interval still filling is computed on every read and not stored: the next
 * deal would make it stale, and a read that writes nothing commits nothing.
 */
async function storeMedians(
  q: Queryable,
  res: number,
  rows: ServiceRow[],
  nowS: number,
): Promise<Map<string, string | null>> {
  const out = await q.query<{ key: string; median: string | null }>(
    `
    WITH k AS (SELECT b AS bucket, decode(s, 'hex') AS service, decode(t, 'hex') AS token FROM unnest($2::int8[],
      $3::text[], $4::text[]) AS k(b, s, t)),
    m AS (
      SELECT k.bucket, k.service, k.token, x.total, x.median FROM k CROSS JOIN LATERAL (
        -- Prices in key order with a running count: the first reaching half is the lower median.
        SELECT max(tot) AS total, min(price) FILTER (WHERE cum * 2 >= tot) AS median FROM (
          SELECT price, sum(sum(deals)) OVER (ORDER BY price) AS cum, sum(sum(deals)) OVER () AS tot
          FROM stats_price p WHERE p.res = ${STATS_RESOLUTIONS[0]} AND p.service = k.service AND p.token = k.token
            AND p.bucket >= k.bucket AND p.bucket < k.bucket + $1
          GROUP BY price
        ) y
      ) x
    ), u AS (
      UPDATE stats_service v SET median = m.median, median_deals = m.total FROM m
      WHERE v.res = $1 AND v.bucket = m.bucket AND v.service = m.service AND v.token = m.token AND v.deals = m.total
        AND m.bucket + $1 <= $5::int8
    )
    SELECT bucket::text || ':' || encode(service, 'hex') || ':' || encode(token, 'hex') AS key, median::text FROM m`,
    [res, rows.map((r) => r.bucket), rows.map((r) => r.service), rows.map((r) => r.token), String(nowS)],
  );
  return new Map(out.map((r) => [r.key, r.median]));
}

/**
 * The per-service rows of an unclipped "all" window: the services ranked by their all-time row
 * (res 0), then each one's intervals: at a daily resolution one range of the partial index
 * stats_service_day_idx; a finer "all" window spans at most ALL_MAX_POINTS intervals of the key.
 * The resolution is inlined (one of STATS_RESOLUTIONS) so the planner can match the partial index.
 */
async function allTimeTop(q: Queryable, res: number, from: number, to: number, value: string): Promise<ServiceRow[]> {
  if (!(STATS_RESOLUTIONS as readonly number[]).includes(res)) throw new RangeError(`resolution ${res}`);
  return q.query<ServiceRow>(
    `
    WITH top AS MATERIALIZED (
      SELECT service, token, row_number() OVER (ORDER BY deals DESC, service, token) AS rank
      FROM stats_service WHERE res = 0 AND bucket = 0 ORDER BY rank LIMIT $3
    )
    SELECT top.rank::int AS rank, r.bucket::text, encode(r.service, 'hex') AS service, encode(r.token, 'hex') AS token,
      ${value}
    FROM top CROSS JOIN LATERAL (
      SELECT * FROM stats_service r WHERE r.res = ${res} AND r.service = top.service AND r.token = top.token AND
        r.bucket >= $1::int8 AND r.bucket < $2::int8
    ) r`,
    [String(from), String(to), STATS_MAX_SERVICES],
  );
}

/**
 * One metric over a range, every interval present (zero; null for a rate with no denominator or an interval before
 * anything was observed).
 */
export async function statsSeries(q: Queryable, p: StatsSeriesParams): Promise<StatsSeries> {
  const info = STATS_METRICS[p.metric];
  if (!info) throw new RangeError(`metric: unknown ${String(p.metric)}`);
  const w = await windowOf(q, p.range, Math.floor(p.nowMs / 1000));
  const to = w.from + w.points * w.res;
  const slot = (bucket: number) => (bucket - w.from) / w.res;
  const base = {
    metric: p.metric,
    range: p.range,
    stepSeconds: w.res,
    from: iso(w.from),
    to: iso(to),
    unit: info.unit,
    clipped: w.clipped,
    observedFrom: w.observedFrom === null ? null : iso(w.observedFrom),
  };
  // Intervals that end before the first observed minute were not observed: unknown, not zero.
  const seen = (i: number) => w.observedFrom !== null && w.from + (i + 1) * w.res > w.observedFrom;

  if ('perService' in info) {
    // One row per interval, service and token (stats_service), never the price rows; the
    // services with the most deals in the window are picked in SQL, so only their rows come
    // back (a daily chart over months holds a row per day for every service that sold).
    const value =
      `${p.metric === 'volume' ? 'r.volume' : 'r.median'}::text AS ` +
      `value, r.median_deals IS NOT DISTINCT FROM r.deals AS fresh`;
    // An unclipped "all" window holds everything observed, so its ranking is the all-time one
    // (the few res-0 rows); the shown services' intervals are then one scan of the window's key
    // range, filtered on the index entries (no index of its own: ingest would pay for it).
    const rows =
      p.range === 'all' && !w.clipped
        ? await allTimeTop(q, w.res, w.from, to, value)
        : await q.query<ServiceRow>(
            `
      WITH r AS MATERIALIZED (
        SELECT bucket, service, token, deals, volume, median, median_deals FROM stats_service
        WHERE res = $1 AND bucket >= $2::int8 AND bucket < $3::int8
      ), top AS (
        SELECT service, token, row_number() OVER (ORDER BY sum(deals) DESC, service, token) AS rank
        FROM r GROUP BY service, token ORDER BY rank LIMIT $4
      )
      SELECT top.rank::int AS rank, r.bucket::text, encode(r.service, 'hex') AS service, encode(r.token, 'hex') AS
        token, ${value}
      FROM top JOIN r ON r.service = top.service AND r.token = top.token`,
            [w.res, String(w.from), String(to), STATS_MAX_SERVICES],
          );
    const series: StatsSeries['series'] = [];
    for (const r of rows) {
      series[r.rank - 1] ??= {
        key: p.metric,
        label: `service ${r.service.slice(0, 8)}…`,
        service: r.service,
        token: r.token,
        values: new Array<string | null>(w.points).fill(p.metric === 'volume' ? '0' : null),
      };
    }
    if (p.metric === 'median_price') {
      const stale = rows.filter((r) => !r.fresh);
      if (stale.length > 0) {
        const medians = await storeMedians(q, w.res, stale, Math.floor(p.nowMs / 1000));
        for (const r of stale) r.value = medians.get(`${r.bucket}:${r.service}:${r.token}`) ?? null;
      }
    }
    for (const r of rows) series[r.rank - 1].values[slot(Number(r.bucket))] = r.value;
    for (const x of series) x.values = x.values.map((v, i) => (seen(i) ? v : null));
    return { ...base, series };
  }

  const rows = await q.query<BucketRow>(
    `SELECT bucket::text, envelopes::text, active_agents::text, opened::text, agreed::text, rejected::text,
      expired::text, disputes::text, batches_submitted::text, batches_verified::text, batches_mismatched::text,
        challenges_opened::text, challenges_resolved::text
    FROM stats_bucket WHERE res = $1 AND bucket >= $2::int8 AND bucket < $3::int8`,
    [w.res, String(w.from), String(to)],
  );
  const byBucket = new Map<number, BucketRow>();
  for (const r of rows) byBucket.set(slot(Number(r.bucket)), r);
  const zero = new Proxy({} as BucketRow, { get: () => '0' });
  const b = (i: number, c: keyof BucketRow) => BigInt((byBucket.get(i) ?? zero)[c]);
  const value: Record<string, (i: number) => string | null> = {
    envelopes_per_s: (i) => perSecond(b(i, 'envelopes'), w.res),
    active_agents: (i) => String(b(i, 'active_agents')),
    agreement_rate: (i) => ratio(b(i, 'agreed'), b(i, 'agreed') + b(i, 'rejected') + b(i, 'expired')),
    dispute_rate: (i) => ratio(b(i, 'disputes'), b(i, 'agreed')),
    ...(p.metric === 'negotiations'
      ? {
          opened: (i) => String(b(i, 'opened')),
          agreed: (i) => String(b(i, 'agreed')),
          rejected: (i) => String(b(i, 'rejected')),
          expired: (i) => String(b(i, 'expired')),
        }
      : p.metric === 'batches'
        ? {
            verified: (i) => String(b(i, 'batches_verified')),
            mismatched: (i) => String(b(i, 'batches_mismatched')),
            submitted: (i) => String(b(i, 'batches_submitted')),
          }
        : { opened: (i) => String(b(i, 'challenges_opened')), resolved: (i) => String(b(i, 'challenges_resolved')) }),
  };
  const idx = Array.from({ length: w.points }, (_, i) => i);
  return {
    ...base,
    series: info.series.map(([key, label]) => ({
      key,
      label,
      service: null,
      token: null,
      values: idx.map((i) => (seen(i) ? value[key](i) : null)),
    })),
  };
}

/**
 * Mesh health over time (lib/observer/mesh-health.ts collects it): one row per observer, topic
 * and interval, `res` 60 (minutes, kept {@link MESH_HEALTH_RETENTION}[60]) or 3600 (hours, with
 * percentiles from the hour's own samples, kept longer). Topic `*` is the whole node
 * (connections, drops per reason, rate-limited peers). A few thousand rows a day whatever the
 * envelope rate, read by their primary key's range.
 */
import type { Queryable } from '../engine/db';

export type MeshHealthRes = 60 | 3600;

/** Seconds each resolution is kept: two days of minutes, 35 days of hours. */
export const MESH_HEALTH_RETENTION: Readonly<Record<MeshHealthRes, number>> = { 60: 2 * 86_400, 3600: 35 * 86_400 };

/** The whole node's row (not a topic). */
export const NODE_TOPIC = '*';

export interface MeshHealthRow {
  res: MeshHealthRes;
  /** Unix second the interval starts. */
  bucket: number;
  topic: string;
  /** The observer's libp2p peer id. */
  observer: string;
  /** Seconds of the interval this observer measured (less after a start or restart). */
  seconds: number;
  /** Envelopes accepted. */
  messages: number;
  /** GossipSub messages received before de-duplication, duplicates and invalid among them; null off gossip. */
  received: number | null;
  duplicates: number | null;
  invalid: number | null;
  /** Arrival minus the envelope's timestamp, ms, over `latencySamples` accepted envelopes; null with none. */
  latencyP50: number | null;
  latencyP90: number | null;
  latencyP99: number | null;
  latencySamples: number;
  /** At the interval's end: peers in this node's mesh for the topic and peers subscribed to it. */
  meshPeers: number | null;
  topicPeers: number | null;
  /** Peers added to (GRAFT) and removed from (PRUNE, disconnect, score) the topic's mesh. */
  grafts: number | null;
  prunes: number | null;
  /** GossipSub scores this node gives its mesh peers of the topic, at the interval's end. */
  scoreMin: number | null;
  scoreMedian: number | null;
  /** Node rows: open connections at the end, peers refused for rate, drops by reason. */
  connections: number | null;
  rateLimitedPeers: number | null;
  drops: Record<string, number> | null;
}

const COLS = [
  'res',
  'bucket',
  'topic',
  'observer',
  'seconds',
  'messages',
  'received',
  'duplicates',
  'invalid',
  'latency_p50',
  'latency_p90',
  'latency_p99',
  'latency_samples',
  'mesh_peers',
  'topic_peers',
  'grafts',
  'prunes',
  'score_min',
  'score_median',
  'connections',
  'rate_limited_peers',
  'drops',
] as const;

/** Writes rows; a row already stored for the same interval, topic and observer is replaced. */
export async function writeMeshHealth(q: Queryable, rows: readonly MeshHealthRow[]): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const tuples = rows.map((r) => {
    const v = [
      r.res,
      r.bucket,
      r.topic,
      r.observer,
      r.seconds,
      r.messages,
      r.received,
      r.duplicates,
      r.invalid,
      r.latencyP50,
      r.latencyP90,
      r.latencyP99,
      r.latencySamples,
      r.meshPeers,
      r.topicPeers,
      r.grafts,
      r.prunes,
      r.scoreMin,
      r.scoreMedian,
      r.connections,
      r.rateLimitedPeers,
      r.drops ? JSON.stringify(r.drops) : null,
    ];
    const start = params.length;
    params.push(...v);
    return `(${v.map((_, i) => `$${start + i + 1}${i === v.length - 1 ? '::jsonb' : ''}`).join(', ')})`;
  });
  const update = COLS.slice(4)
    .map((c) => `"${c}" = EXCLUDED."${c}"`)
    .join(', ');
  await q.query(
    `INSERT INTO mesh_health (${COLS.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}
    ON CONFLICT (res, bucket, topic, observer) DO UPDATE SET ${update}`,
    params,
  );
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export interface MeshHealthRange {
  res: MeshHealthRes;
  /** Unix seconds: `from` ≤ bucket < `to`. */
  from: number;
  to: number;
}

/** Rows of one resolution in the range, oldest first, optionally of one topic and one observer. */
export async function readMeshHealth(
  q: Queryable,
  p: MeshHealthRange & { topic?: string; observer?: string },
): Promise<MeshHealthRow[]> {
  const args: unknown[] = [p.res, p.from, p.to];
  const topic = p.topic !== undefined ? `AND topic = $${args.push(p.topic)}` : '';
  const observer = p.observer !== undefined ? `AND observer = $${args.push(p.observer)}` : '';
  const rows = await q.query<Record<string, unknown>>(
    `SELECT * FROM mesh_health
    WHERE res = $1 AND bucket >= $2 AND bucket < $3 ${topic} ${observer}
    ORDER BY bucket, topic, observer LIMIT 100000`,
    args,
  );
  return rows.map((r) => ({
    res: Number(r.res) as MeshHealthRes,
    bucket: Number(r.bucket),
    topic: String(r.topic),
    observer: String(r.observer),
    seconds: Number(r.seconds),
    messages: Number(r.messages),
    received: num(r.received),
    duplicates: num(r.duplicates),
    invalid: num(r.invalid),
    latencyP50: num(r.latency_p50),
    latencyP90: num(r.latency_p90),
    latencyP99: num(r.latency_p99),
    latencySamples: Number(r.latency_samples),
    meshPeers: num(r.mesh_peers),
    topicPeers: num(r.topic_peers),
    grafts: num(r.grafts),
    prunes: num(r.prunes),
    scoreMin: num(r.score_min),
    scoreMedian: num(r.score_median),
    connections: num(r.connections),
    rateLimitedPeers: num(r.rate_limited_peers),
    drops:
      r.drops === null || r.drops === undefined
        ? null
        : ((typeof r.drops === 'string' ? JSON.parse(r.drops) : r.drops) as Record<string, number>),
  }));
}

export interface MeshHealthSpread {
  bucket: number;
  /** Observers with a latency median for the interval (node rows). */
  observers: number;
  p50Min: number;
  p50Max: number;
}

/**
 * The observers that wrote node rows in the range (with how many intervals each), and per interval
 * measured by more than one of them the smallest and largest first-seen latency median: how far
 * apart the observers see the same mesh.
 */
export async function meshHealthObservers(
  q: Queryable,
  p: MeshHealthRange,
): Promise<{ observers: Array<{ observer: string; intervals: number }>; spread: MeshHealthSpread[] }> {
  const [obs, spread] = await Promise.all([
    q.query<{ observer: string; n: number }>(
      `SELECT observer, count(*)::int AS n FROM mesh_health
      WHERE res = $1 AND bucket >= $2 AND bucket < $3 AND topic = '${NODE_TOPIC}' GROUP BY observer ORDER BY observer`,
      [p.res, p.from, p.to],
    ),
    q.query<{ bucket: string; n: number; lo: number; hi: number }>(
      `SELECT bucket::text AS bucket, count(*)::int AS n, min(latency_p50) AS lo, max(latency_p50) AS hi FROM
        mesh_health
      WHERE res = $1 AND bucket >= $2 AND bucket < $3 AND topic = '${NODE_TOPIC}' AND latency_p50 IS NOT NULL
      GROUP BY bucket HAVING count(*) > 1 ORDER BY bucket`,
      [p.res, p.from, p.to],
    ),
  ]);
  return {
    observers: obs.map((r) => ({ observer: String(r.observer), intervals: Number(r.n) })),
    spread: spread.map((r) => ({
      bucket: Number(r.bucket),
      observers: Number(r.n),
      p50Min: Number(r.lo),
      p50Max: Number(r.hi),
    })),
  };
}

/** Deletes the rows of `res` whose interval began before `before` (unix seconds); returns how many. */
export async function pruneMeshHealth(q: Queryable, res: MeshHealthRes, before: number): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH d AS (DELETE FROM mesh_health WHERE res = $1 AND bucket < $2 RETURNING 1) SELECT count(*)::int AS n FROM d`,
    [res, before],
  );
  return Number(rows[0]?.n ?? 0);
}

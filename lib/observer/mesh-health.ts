/**
 * Mesh health, measured by this observer and kept over time (docs/app.md "Mesh health").
 *
 * Per topic and per minute and hour: envelopes accepted; first-seen latency (arrival at this
 * observer minus the envelope's own timestamp, p50/p90/p99 over the interval's samples);
 * GossipSub's received, duplicate and invalid counts and its GRAFT/PRUNE churn, as deltas of
 * the counters GossipSub keeps in the Prometheus registry (lib/mesh/metrics.ts); mesh and
 * topic peers and the scores this node gives its mesh peers, read at the interval's end. The
 * node row (topic `*`) adds connections, peers refused for rate and drops per reason.
 *
 * Samples are kept per interval up to {@link MAX_SAMPLES} (a uniform reservoir past that), so
 * memory is bounded whatever the rate. Rows are written when an interval ends, and rows past
 * their retention (lib/store/mesh-health/mesh-health.ts) are deleted once an hour.
 */
import type { Registry } from 'prom-client';
import type { MeshNode } from '../mesh';
import { type HistogramSeries, LightCounter, LightHistogram, metricByLabel, type Series } from '../mesh/metrics';
import { MESH_HEALTH_RETENTION, type MeshHealthRes, type MeshHealthRow, NODE_TOPIC } from '../store/mesh-health';

/** Samples kept per interval and topic; past it each new one replaces a random kept one. */
export const MAX_SAMPLES = 4096;

/** The topic a stream envelope is counted under: its protocol id. */
export const STREAM_TOPIC = '/0x01/v1/envelope';

const INCLUSION = ['fanout', 'random', 'subscribed', 'outbound', 'not_enough', 'opportunistic', 'unknown'].map(
  (r) => `gossipsub_mesh_peer_inclusion_events_${r}_total`,
);
const CHURN = ['disconnected', 'bad_score', 'prune', 'excess', 'unknown'].map(
  (r) => `gossipsub_peer_churn_events_${r}_total`,
);

/** Nearest-rank percentile of ascending `sorted`; null when empty. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * Microseconds to whole milliseconds, as `Number(us / 1000n)`: in doubles while `us` is exact in
 * one (every timestamp before the year 2255), which spares a BigInt per envelope.
 */
export function toMs(us: bigint): number {
  const n = Number(us);
  return n >= 0 && n <= Number.MAX_SAFE_INTEGER ? Math.floor(n / 1000) : Number(us / 1000n);
}

class Window {
  messages = 0;
  seen = 0;
  samples: number[] = [];
  received = 0;
  duplicates = 0;
  invalid = 0;
  grafts = 0;
  prunes = 0;
  drops = new Map<string, number>();
  limited = new Set<string>();
  constructor(readonly start: number) {}

  /** An accepted envelope and its first-seen latency. */
  sample(ms: number): void {
    this.messages++;
    this.seen++;
    if (this.samples.length < MAX_SAMPLES) this.samples.push(ms);
    else {
      const j = Math.floor(Math.random() * this.seen);
      if (j < MAX_SAMPLES) this.samples[j] = ms;
    }
  }
}

interface Gauges {
  meshPeers: number | null;
  topicPeers: number | null;
  scoreMin: number | null;
  scoreMedian: number | null;
}

export interface MeshHealthParams {
  mesh: Pick<MeshNode, 'peerId' | 'meshPeers' | 'subscribers' | 'peers' | 'libp2p'>;
  registry: Registry;
  /** GossipSub topics this node subscribes to. */
  topics: readonly string[];
  write(rows: MeshHealthRow[]): Promise<void>;
  prune(res: MeshHealthRes, before: number): Promise<number>;
  clock?: () => number;
  /** Interval length of the fine rows, ms (60,000; tests shorten it). */
  minuteMs?: number;
  /** Hour length, ms (3,600,000; tests shorten it). */
  hourMs?: number;
  onError?: (e: unknown) => void;
  /** Whether to run the timer (default true); tests call roll() themselves. */
  timer?: boolean;
}

export interface MeshHealth {
  /** An envelope this node accepted: `topic` is its GossipSub topic, or undefined for a stream envelope. */
  accepted(timestampMicros: bigint, topic: string | undefined): void;
  dropped(reason: string, peer: string): void;
  /** Ends the current minute (and the hour when it is over): the rows written. */
  roll(): Promise<MeshHealthRow[]>;
  stop(): Promise<void>;
}

export function createMeshHealth(p: MeshHealthParams): MeshHealth {
  const clock = p.clock ?? Date.now;
  const minuteMs = p.minuteMs ?? 60_000;
  const hourMs = p.hourMs ?? 3_600_000;
  const topics = [...p.topics, STREAM_TOPIC, NODE_TOPIC];
  // The metrics of lib/mesh/metrics.ts render as prom-client's Counter and Histogram would, at a
  // fraction of their cost per envelope.
  const latency = new LightHistogram(
    p.registry,
    'zerox1_first_seen_latency_seconds',
    'Arrival at this observer minus the envelope timestamp, per topic',
    ['topic'],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  );
  const accepted = new LightCounter(
    p.registry,
    'zerox1_envelopes_accepted_total',
    'Envelopes this observer accepted, per topic',
    ['topic'],
  );
  const drops = new LightCounter(
    p.registry,
    'zerox1_envelopes_dropped_total',
    'Envelopes this observer dropped, per reason',
    ['reason'],
  );

  const perTopic = new Map<string, { accepted: Series; latency: HistogramSeries }>();
  const fresh = (start: number) => new Map(topics.map((t) => [t, new Window(start)]));
  let minute = fresh(clock());
  let hour = fresh(clock());
  const last = new Map<string, Map<string, number>>();
  let lastGauges = new Map<string, Gauges>();
  let lastConnections = 0;
  let lastPrune = 0;
  let stopped = false;
  let rolling: Promise<MeshHealthRow[]> | null = null;

  const both = (topic: string, fn: (w: Window) => void) => {
    const m = minute.get(topic);
    const h = hour.get(topic);
    if (m) fn(m);
    if (h) fn(h);
  };

  /** Counter deltas per topic since the last call, summed over `names`. */
  async function deltas(names: readonly string[]): Promise<Map<string, number>> {
    const key = names.join(',');
    const now = new Map<string, number>();
    for (const name of names)
      for (const [t, v] of await metricByLabel(p.registry, name, 'topic')) now.set(t, (now.get(t) ?? 0) + v);
    const before = last.get(key) ?? new Map<string, number>();
    last.set(key, now);
    const out = new Map<string, number>();
    for (const [t, v] of now) out.set(t, Math.max(0, v - (before.get(t) ?? 0)));
    return out;
  }

  function gaugesOf(topic: string): Gauges {
    if (topic === STREAM_TOPIC || topic === NODE_TOPIC)
      return { meshPeers: null, topicPeers: null, scoreMin: null, scoreMedian: null };
    const mesh = p.mesh.meshPeers(topic as never);
    const gs = (p.mesh.libp2p.services as { pubsub?: { getScore?(id: string): number } }).pubsub;
    const scores = gs?.getScore
      ? mesh
          .map((id) => gs.getScore!(id))
          .filter(Number.isFinite)
          .sort((a, b) => a - b)
      : [];
    return {
      meshPeers: mesh.length,
      topicPeers: p.mesh.subscribers(topic as never).length,
      scoreMin: scores[0] ?? null,
      scoreMedian: percentile(scores, 50),
    };
  }

  function rowsOf(res: MeshHealthRes, windows: Map<string, Window>, end: number): MeshHealthRow[] {
    const rows: MeshHealthRow[] = [];
    for (const [topic, w] of windows) {
      const sorted = w.samples.slice().sort((a, b) => a - b);
      const g = lastGauges.get(topic) ?? gaugesOf(topic);
      const gossip = topic !== STREAM_TOPIC && topic !== NODE_TOPIC;
      const node = topic === NODE_TOPIC;
      rows.push({
        res,
        bucket: Math.floor(w.start / 1000 / res) * res,
        topic,
        observer: p.mesh.peerId,
        seconds: Math.max(0, Math.round((end - w.start) / 1000)),
        messages: w.messages,
        received: gossip ? w.received : null,
        duplicates: gossip ? w.duplicates : null,
        invalid: gossip ? w.invalid : null,
        latencyP50: percentile(sorted, 50),
        latencyP90: percentile(sorted, 90),
        latencyP99: percentile(sorted, 99),
        latencySamples: w.seen,
        meshPeers: g.meshPeers,
        topicPeers: g.topicPeers,
        grafts: gossip ? w.grafts : null,
        prunes: gossip ? w.prunes : null,
        scoreMin: g.scoreMin,
        scoreMedian: g.scoreMedian,
        connections: node ? lastConnections : null,
        rateLimitedPeers: node ? w.limited.size : null,
        drops: node ? Object.fromEntries(w.drops) : null,
      });
    }
    return rows;
  }

  async function rollOnce(): Promise<MeshHealthRow[]> {
    const now = clock();
    const [received, dup, invalid, grafts, prunes] = await Promise.all([
      deltas(['gossipsub_msg_received_prevalidation_total']),
      deltas(['gossipsub_pre_validation_duplicate_total']),
      deltas(['gossipsub_msg_received_invalid_by_topic_total']),
      deltas(INCLUSION),
      deltas(CHURN),
    ]);
    for (const t of p.topics) {
      both(t, (w) => {
        w.received += received.get(t) ?? 0;
        w.duplicates += dup.get(t) ?? 0;
        w.invalid += invalid.get(t) ?? 0;
        w.grafts += grafts.get(t) ?? 0;
        w.prunes += prunes.get(t) ?? 0;
      });
    }
    lastGauges = new Map(topics.map((t) => [t, gaugesOf(t)]));
    lastConnections = p.mesh.libp2p.getConnections().length;
    const rows = rowsOf(60, minute, now);
    minute = fresh(now);
    // An hour's rows are written at the first minute boundary in the next hour.
    const hourStart = (hour.get(NODE_TOPIC) as Window).start;
    if (Math.floor(now / hourMs) !== Math.floor(hourStart / hourMs)) {
      rows.push(...rowsOf(3600, hour, now));
      hour = fresh(now);
    }
    await p.write(rows);
    if (now - lastPrune >= hourMs) {
      lastPrune = now;
      const s = Math.floor(now / 1000);
      await p.prune(60, s - MESH_HEALTH_RETENTION[60]);
      await p.prune(3600, s - MESH_HEALTH_RETENTION[3600]);
    }
    return rows;
  }

  function roll(): Promise<MeshHealthRow[]> {
    // One roll at a time: a slow write must not let two rolls read the same counters.
    const run = (rolling ?? Promise.resolve([] as MeshHealthRow[])).catch(() => []).then(rollOnce);
    rolling = run;
    return run;
  }

  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped || p.timer === false) return;
    const now = clock();
    timer = setTimeout(
      () => {
        roll()
          .catch((e) => p.onError?.(e))
          .finally(schedule);
      },
      minuteMs - (now % minuteMs) + 5,
    );
    timer.unref?.();
  };
  schedule();

  return {
    accepted(ts, topic) {
      const t = topic ?? STREAM_TOPIC;
      const ms = clock() - toMs(ts);
      let m = perTopic.get(t);
      // The topic's series are looked up once, then counted into directly.
      if (!m) perTopic.set(t, (m = { accepted: accepted.child(t), latency: latency.child(t) }));
      m.accepted.value++;
      latency.add(m.latency, ms / 1000);
      // Per envelope, without the closures of both().
      minute.get(t)?.sample(ms);
      hour.get(t)?.sample(ms);
      minute.get(NODE_TOPIC)?.sample(ms);
      hour.get(NODE_TOPIC)?.sample(ms);
    },
    dropped(reason, peer) {
      drops.inc({ reason });
      both(NODE_TOPIC, (w) => {
        w.drops.set(reason, (w.drops.get(reason) ?? 0) + 1);
        if (reason === 'rate_limit' && w.limited.size < 100_000) w.limited.add(peer);
      });
    },
    roll,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await rolling?.catch(() => undefined);
    },
  };
}

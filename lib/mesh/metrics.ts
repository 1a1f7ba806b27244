/**
 * Mesh metrics in Prometheus form. libp2p's own metrics (connections, streams, bytes per
 * protocol, Noise and Yamux counters) come from @libp2p/prometheus-metrics, the implementation of
 * libp2p's metrics interface, when asked for: they count every frame of every stream, which
 * bench:ingest measured at 5-20 % more observer CPU per envelope. GossipSub 17 does not read that
 * interface: it takes a `metricsRegister`
 * (gauge, histogram, avg/min/max) and a topic → label map, the hook Lodestar feeds from
 * prom-client; {@link gossipsubRegister} is that register over the same prom-client Registry, so
 * one scrape of `/metrics` shows both, in the names the libp2p and GossipSub tracers use.
 *
 * GossipSub updates about ten of its metrics per message (and a few more per RPC), and the
 * observer two per envelope. prom-client's own Gauge and Histogram validate the label names, build
 * a hash string from the sorted labels and allocate per call; the metrics here keep their series
 * in a Map keyed by the label value itself (one-label metrics, nearly all of them) and are
 * registered in the prom-client Registry as custom metrics, rendering exactly what prom-client's
 * Gauge, Counter and Histogram would (same names, types, help, labels, values and order; checked
 * against prom-client in metrics.test.ts). `gauge().child(value)` and `histogram().child(value)`
 * hand out a series itself for a caller that counts per envelope without any lookup.
 */
import type { MetricsRegister, TopicStrToLabel } from '@libp2p/gossipsub/metrics';
import { prometheusMetrics } from '@libp2p/prometheus-metrics';
import { collectDefaultMetrics, type Registry } from 'prom-client';

/**
 * What a metered node passes to GossipSub (every topic its own label) and, with `libp2p`, to
 * libp2p; the process's own metrics (CPU, memory, event loop, GC) are collected either way.
 */
export function meshMetrics(registry: Registry, topics: readonly string[], libp2p: boolean) {
  const metricsTopicStrToLabel: TopicStrToLabel = new Map(topics.map((t) => [t, t]));
  if (!libp2p) collectDefaultMetrics({ register: registry });
  return {
    libp2p: libp2p ? prometheusMetrics({ registry, collectDefaultMetrics: true }) : undefined,
    gossipsub: { metricsRegister: gossipsubRegister(registry), metricsTopicStrToLabel },
  };
}

export type Labels = Record<string, string | number>;

/**
 * One value of a metric's `get()`, as prom-client's Registry reads it (besides `get()` it calls `reset()` and reads
 * name, help and type).
 */
interface MetricValue {
  value: number;
  labels: Labels;
  metricName?: string;
  sharedLabels?: Labels;
  exemplar?: null;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** prom-client's default histogram buckets, for a histogram configured without any. */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The series key of `labels`. For one label it is the value (undefined when the label is absent),
 * for none '', for more prom-client's own `name:value,` string over the sorted names (only
 * GossipSub's score weights, set once per heartbeat). Values compare as strings, as in prom-client.
 */
function keyOf(names: readonly string[], sorted: readonly string[], labels: Labels): string | undefined {
  if (names.length === 1) {
    const v = labels[names[0]];
    return v === undefined ? undefined : typeof v === 'string' ? v : String(v);
  }
  let key = '';
  for (const n of sorted) {
    const v = labels[n];
    if (v !== undefined) key += `${n}:${v},`;
  }
  return key;
}

abstract class LightMetric<S> {
  readonly aggregator = 'sum';
  abstract readonly type: 'gauge' | 'counter' | 'histogram';
  protected readonly sorted: readonly string[];
  protected series = new Map<string | undefined, S>();
  /** The key of the series without labels. */
  protected readonly plainKey: string | undefined;

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {
    if (!help) throw new Error('Missing mandatory help parameter');
    if (!METRIC_NAME.test(name)) throw new Error('Invalid metric name');
    if (!labelNames.every((l) => LABEL_NAME.test(l))) throw new Error('Invalid label name');
    this.sorted = [...labelNames].sort();
    this.plainKey = labelNames.length === 1 ? undefined : '';
    // A restarted node registers its metrics again: the new ones replace the old.
    if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
    registry.registerMetric(this as never);
  }

  /**
   * prom-client's check of the label names, made when a series is created and whenever the labels
   * name none of the metric's own (where a wrong name would land). prom-client checks every call;
   * GossipSub's callers name their labels in code, so a wrong one shows on its first call.
   */
  protected check(labels: Labels): void {
    for (const l in labels) {
      if (!this.labelNames.includes(l))
        throw new Error(`Added label "${l}" is not included in initial labelset: ${JSON.stringify(this.labelNames)}`);
    }
  }

  /** A new series for `labels`, at zero. */
  protected abstract fresh(labels: Labels): S;

  /** The series for `labels`, created at zero on first use (prom-client creates it on the first update). */
  protected at(labels: Labels): S {
    const key = keyOf(this.labelNames, this.sorted, labels);
    let s = this.series.get(key);
    if (s === undefined || key === this.plainKey) {
      this.check(labels);
      if (s !== undefined) return s;
      s = this.fresh(labels);
      this.series.set(key, s);
    }
    return s;
  }

  abstract reset(): void;
}

/** A gauge's (or counter's) series: the very object prom-client's get() lists. */
export interface Series {
  value: number;
  labels: Labels;
}

/** prom-client's Gauge (`inc`, `set`) plus GossipSub's `addCollect`: collect functions run at each scrape. */
export class LightGauge extends LightMetric<Series> {
  readonly type: 'gauge' | 'counter' = 'gauge';
  private readonly collectors: Array<(g: LightGauge) => void | Promise<void>> = [];

  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[] = []) {
    super(registry, name, help, labelNames);
    this.reset();
  }

  protected fresh(labels: Labels): Series {
    return { value: 0, labels };
  }

  /** The series without labels, kept at hand: GossipSub counts most per-RPC figures there. */
  private unlabelled: Series | undefined;

  private get plain(): Series {
    return (this.unlabelled ??= this.series.get(this.plainKey) ?? this.at({}));
  }

  inc(a?: Labels | number, b?: number): void {
    if (typeof a === 'object' && a !== null) {
      const v = b ?? 1;
      if (typeof v !== 'number') throw new TypeError(`Delta is not a valid number: ${String(v)}`);
      this.at(a).value += v;
    } else {
      const v = a === undefined ? 1 : a;
      if (typeof v !== 'number') throw new TypeError(`Delta is not a valid number: ${String(v)}`);
      this.plain.value += v;
    }
  }

  set(a: Labels | number, b?: number): void {
    if (typeof a === 'object' && a !== null) {
      const v = b ?? 0;
      if (typeof v !== 'number') throw new TypeError(`Value is not a valid number: ${String(v)}`);
      const s = this.at(a);
      // prom-client keeps the labels object of the latest set.
      s.labels = a;
      s.value = v;
    } else {
      if (typeof a !== 'number') throw new TypeError(`Value is not a valid number: ${String(a)}`);
      this.plain.value = a;
    }
  }

  /** The series of a one-label metric for `value`, to update directly (`series.value += 1`). */
  child(value: string): Series {
    return this.at({ [this.labelNames[0]]: value });
  }

  addCollect(fn: (g: LightGauge) => void | Promise<void>): void {
    this.collectors.push(fn);
  }

  async get(): Promise<{ name: string; help: string; type: string; values: Series[]; aggregator: string }> {
    for (const fn of this.collectors) {
      const p = fn(this);
      if (p instanceof Promise) await p;
    }
    return {
      help: this.help,
      name: this.name,
      type: this.type,
      values: [...this.series.values()],
      aggregator: this.aggregator,
    };
  }

  reset(): void {
    this.series = new Map();
    this.unlabelled = undefined;
    if (this.labelNames.length === 0) this.series.set('', { value: 0, labels: {} });
  }
}

/** prom-client's Counter: a gauge that only goes up. */
export class LightCounter extends LightGauge {
  override readonly type = 'counter';

  override inc(a?: Labels | number, b?: number): void {
    const v = typeof a === 'object' && a !== null ? b : a;
    if (v && !Number.isFinite(v)) throw new TypeError(`Value is not a valid number: ${String(v)}`);
    if (v !== undefined && v < 0) throw new Error('It is not possible to decrease a counter');
    super.inc(a, b);
  }

  override set(): void {
    throw new Error('A counter is only incremented');
  }
}

/** A histogram's series: counts per bucket (not cumulative), sum and count. */
export interface HistogramSeries {
  labels: Labels;
  counts: number[];
  sum: number;
  count: number;
}

/** prom-client's Histogram without exemplars: `observe`, `startTimer`, `reset`. */
export class LightHistogram extends LightMetric<HistogramSeries> {
  readonly type = 'histogram';
  readonly upperBounds: readonly number[];
  /**
   * Where bucket i counts: the first bucket with its bound (prom-client counts per distinct bound,
   * so a repeated bound shares one count).
   */
  private readonly slot: number[];

  constructor(
    registry: Registry,
    name: string,
    help: string,
    labelNames: readonly string[] = [],
    buckets: readonly number[] = DEFAULT_BUCKETS,
  ) {
    super(registry, name, help, labelNames);
    if (labelNames.includes('le')) throw new Error('le is a reserved label keyword');
    this.upperBounds = [...buckets];
    this.slot = this.upperBounds.map((b) => this.upperBounds.indexOf(b));
    // As in prom-client, an unlabelled histogram starts with its (zero) series; reset() clears it.
    if (labelNames.length === 0) this.series.set('', this.fresh({}));
  }

  protected fresh(labels: Labels): HistogramSeries {
    return { labels, counts: new Array<number>(this.upperBounds.length).fill(0), sum: 0, count: 0 };
  }

  /** Adds `value` to series `s` (the finite check is prom-client's, made before anything counts). */
  add(s: HistogramSeries, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${String(value)}`);
    this.count(s, value);
  }

  private count(s: HistogramSeries, value: number): void {
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        s.counts[i]++;
        break;
      }
    }
    s.sum += value;
    s.count++;
  }

  observe(a: Labels | number, b?: number): void {
    const labelled = typeof a === 'object';
    const v = labelled ? (b ?? 0) : a;
    // Checked before the series is created, as prom-client does.
    if (!Number.isFinite(v)) throw new TypeError(`Value is not a valid number: ${String(v)}`);
    this.count(labelled ? this.at(a ?? {}) : (this.series.get(this.plainKey) ?? this.at({})), v);
  }

  /** The series of a one-label histogram for `value`, for {@link add}. */
  child(value: string): HistogramSeries {
    return this.at({ [this.labelNames[0]]: value });
  }

  startTimer(): () => void {
    const start = process.hrtime();
    return () => {
      const d = process.hrtime(start);
      this.observe(d[0] + d[1] / 1e9);
    };
  }

  reset(): void {
    this.series = new Map();
  }

  /** The values as prom-client's Histogram renders them: buckets with `le` first and the series' labels shared. */
  async getForPromString(): Promise<{
    name: string;
    help: string;
    type: string;
    values: MetricValue[];
    aggregator: string;
  }> {
    const values: MetricValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.series.values()) {
      let acc = 0;
      for (let i = 0; i < this.upperBounds.length; i++) {
        acc += s.counts[this.slot[i]];
        values.push({
          labels: { le: this.upperBounds[i] },
          sharedLabels: s.labels,
          value: acc,
          metricName: bucket,
          exemplar: null,
        });
      }
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: bucket, exemplar: null },
        { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum`, exemplar: undefined },
        { labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count`, exemplar: undefined },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** As prom-client's get(): each value's labels hold its `le` (if any) and then the series' labels. */
  async get(): Promise<{ name: string; help: string; type: string; values: MetricValue[]; aggregator: string }> {
    const data = await this.getForPromString();
    data.values = data.values.map(({ sharedLabels, labels, ...rest }) => ({
      ...rest,
      labels: Object.assign(labels, sharedLabels),
    }));
    return data;
  }
}

/** GossipSub's metrics register over `registry`. */
export function gossipsubRegister(registry: Registry): MetricsRegister {
  const gauge = (name: string, help: string, labelNames?: string[]) => new LightGauge(registry, name, help, labelNames);
  const register = {
    gauge: (c: { name: string; help: string; labelNames?: string[] }) => gauge(c.name, c.help, c.labelNames),
    histogram: (c: { name: string; help: string; labelNames?: string[]; buckets?: number[] }) =>
      new LightHistogram(registry, c.name, c.help, c.labelNames, c.buckets),
    avgMinMax: (c: { name: string; help: string; labelNames?: string[] }) =>
      avgMinMax(c, (name, help) => gauge(name, help, c.labelNames)),
  };
  return register as unknown as MetricsRegister;
}

/** A gauge as avgMinMax sets it: with labels or without. */
export interface SettableGauge {
  set(a: Labels | number, b?: number): void;
}

/**
 * GossipSub's avg/min/max metric as three gauges (`<name>_avg`, `_min`, `_max`) made by `make`:
 * `set` takes a list of values (with or without labels) and keeps their mean, minimum and maximum.
 */
export function avgMinMax(c: { name: string; help: string }, make: (name: string, help: string) => SettableGauge) {
  const avg = make(`${c.name}_avg`, `${c.help} (mean)`);
  const min = make(`${c.name}_min`, `${c.help} (minimum)`);
  const max = make(`${c.name}_max`, `${c.help} (maximum)`);
  return {
    set: (a: Labels | number[], b?: number[]) => {
      const labels = Array.isArray(a) ? undefined : a;
      const values = Array.isArray(a) ? a : (b ?? []);
      if (values.length === 0) return;
      let lo = Infinity,
        hi = -Infinity,
        sum = 0;
      for (const v of values) {
        sum += v;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      for (const [g, v] of [
        [avg, sum / values.length],
        [min, lo],
        [max, hi],
      ] as const) {
        if (labels) g.set(labels, v);
        else g.set(v);
      }
    },
  };
}

/** Sum of a metric's values per label value (e.g. per topic), read from the registry. */
export async function metricByLabel(registry: Registry, name: string, label: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const m = registry.getSingleMetric(name);
  if (!m) return out;
  const { values } = await m.get();
  for (const v of values) {
    if ((v as { metricName?: string }).metricName?.endsWith('_bucket')) continue;
    const key = String((v.labels as Labels)[label] ?? '');
    out.set(key, (out.get(key) ?? 0) + v.value);
  }
  return out;
}

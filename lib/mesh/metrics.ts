/**
 * Mesh metrics in Prometheus form. libp2p's own metrics (connections, streams, bytes per
 * protocol, Noise and Yamux counters) come from @libp2p/prometheus-metrics, the implementation of
 * libp2p's metrics interface, when asked for: they count every frame of every stream, which
 * bench:ingest measured at 5-20 % more observer CPU per envelope. GossipSub 17 does not read that
 * interface: it takes a `metricsRegister`
 * (gauge, histogram, avg/min/max) and a topic → label map, the hook Lodestar feeds from
 * prom-client; {@link gossipsubRegister} is that register over the same prom-client Registry, so
 * one scrape of `/metrics` shows both, in the names the libp2p and GossipSub tracers use.
 */
import type { MetricsRegister, TopicStrToLabel } from '@libp2p/gossipsub/metrics';
import { prometheusMetrics } from '@libp2p/prometheus-metrics';
import { collectDefaultMetrics, Gauge, Histogram, type Registry } from 'prom-client';

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

type Labels = Record<string, string | number>;

/** A prom-client Gauge that also takes collect functions after creation (GossipSub adds them). */
function gauge(registry: Registry, name: string, help: string, labelNames: string[] = []) {
  const collectors: Array<(g: unknown) => void> = [];
  const existing = registry.getSingleMetric(name);
  if (existing) registry.removeSingleMetric(name);
  const g = new Gauge({
    name, help, labelNames, registers: [registry],
    collect() { for (const fn of collectors) fn(api); },
  });
  const api = {
    inc: (a?: Labels | number, b?: number) => (typeof a === 'object' ? g.inc(a, b ?? 1) : g.inc(a ?? 1)),
    set: (a: Labels | number, b?: number) => (typeof a === 'object' ? g.set(a, b ?? 0) : g.set(a)),
    addCollect: (fn: (g: unknown) => void) => { collectors.push(fn); },
  };
  return api;
}

/** GossipSub's metrics register over `registry`. */
export function gossipsubRegister(registry: Registry): MetricsRegister {
  const register = {
    gauge: (c: { name: string; help: string; labelNames?: string[] }) => gauge(registry, c.name, c.help, c.labelNames),
    histogram: (c: { name: string; help: string; labelNames?: string[]; buckets?: number[] }) => {
      if (registry.getSingleMetric(c.name)) registry.removeSingleMetric(c.name);
      const h = new Histogram({ name: c.name, help: c.help, labelNames: c.labelNames ?? [], buckets: c.buckets, registers: [registry] });
      return {
        startTimer: () => { const end = h.startTimer(); return () => { end(); }; },
        observe: (a: Labels | number, b?: number) => (typeof a === 'object' ? h.observe(a, b ?? 0) : h.observe(a)),
        reset: () => h.reset(),
      };
    },
    avgMinMax: (c: { name: string; help: string; labelNames?: string[] }) => {
      const avg = gauge(registry, `${c.name}_avg`, `${c.help} (mean)`, c.labelNames);
      const min = gauge(registry, `${c.name}_min`, `${c.help} (minimum)`, c.labelNames);
      const max = gauge(registry, `${c.name}_max`, `${c.help} (maximum)`, c.labelNames);
      return {
        set: (a: Labels | number[], b?: number[]) => {
          const labels = Array.isArray(a) ? undefined : a;
          const values = Array.isArray(a) ? a : (b ?? []);
          if (values.length === 0) return;
          let lo = Infinity, hi = -Infinity, sum = 0;
          for (const v of values) { sum += v; if (v < lo) lo = v; if (v > hi) hi = v; }
          for (const [g, v] of [[avg, sum / values.length], [min, lo], [max, hi]] as const) {
            if (labels) g.set(labels, v);
            else g.set(v);
          }
        },
      };
    },
  };
  return register as unknown as MetricsRegister;
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

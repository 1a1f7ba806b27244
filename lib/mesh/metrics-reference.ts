/**
 * GossipSub's metrics register over prom-client's own Gauge and Histogram: the straightforward
 * form of lib/mesh/metrics.ts's `gossipsubRegister`, which must render exactly what this renders
 * (metrics.test.ts drives both with the same calls) and which scripts/bench-metrics.ts measures
 * against it. Not used by the node.
 */
import type { MetricsRegister } from '@libp2p/gossipsub/metrics';
import { Gauge, Histogram, type Registry } from 'prom-client';
import { avgMinMax, type Labels } from './metrics';

/** A prom-client Gauge that also takes collect functions after creation (GossipSub adds them). */
function gauge(registry: Registry, name: string, help: string, labelNames: string[] = []) {
  const collectors: Array<(g: unknown) => void> = [];
  const existing = registry.getSingleMetric(name);
  if (existing) registry.removeSingleMetric(name);
  const g = new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      for (const fn of collectors) fn(api);
    },
  });
  const api = {
    inc: (a?: Labels | number, b?: number) => (typeof a === 'object' ? g.inc(a, b ?? 1) : g.inc(a ?? 1)),
    set: (a: Labels | number, b?: number) => (typeof a === 'object' ? g.set(a, b ?? 0) : g.set(a)),
    addCollect: (fn: (g: unknown) => void) => {
      collectors.push(fn);
    },
  };
  return api;
}

/** GossipSub's metrics register over `registry`, from prom-client's Gauge and Histogram. */
export function promClientRegister(registry: Registry): MetricsRegister {
  const register = {
    gauge: (c: { name: string; help: string; labelNames?: string[] }) => gauge(registry, c.name, c.help, c.labelNames),
    histogram: (c: { name: string; help: string; labelNames?: string[]; buckets?: number[] }) => {
      if (registry.getSingleMetric(c.name)) registry.removeSingleMetric(c.name);
      const h = new Histogram({
        name: c.name,
        help: c.help,
        labelNames: c.labelNames ?? [],
        buckets: c.buckets,
        registers: [registry],
      });
      return {
        startTimer: () => {
          const end = h.startTimer();
          return () => {
            end();
          };
        },
        observe: (a: Labels | number, b?: number) => (typeof a === 'object' ? h.observe(a, b ?? 0) : h.observe(a)),
        reset: () => h.reset(),
      };
    },
    avgMinMax: (c: { name: string; help: string; labelNames?: string[] }) =>
      avgMinMax(c, (name, help) => gauge(registry, name, help, c.labelNames)),
  };
  return register as unknown as MetricsRegister;
}

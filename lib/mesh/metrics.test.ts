/**
 * The light metrics of lib/mesh/metrics.ts against prom-client: GossipSub's whole metric set
 * (its own getMetrics) over gossipsubRegister and over the same register built from prom-client's
 * Gauge and Histogram (metrics-reference.ts), driven with the same calls, must render the same
 * `/metrics` text byte for byte, parse to the same families, give the same JSON and the same
 * per-label sums for mesh health; likewise the observer's own counter and histogram.
 */

import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { getMetrics, type MetricsRegister } from '@libp2p/gossipsub/metrics';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { Counter, Histogram, Registry } from 'prom-client';
import { gossipsubRegister, LightCounter, LightHistogram, metricByLabel } from './metrics';
import { promClientRegister } from './metrics-reference';

const TOPICS = ['/0x01/v1/broadcast', '/0x01/v1/notary', '/0x01/v1/reputation'];
const OPTS = { gossipPromiseExpireSec: 3, behaviourPenaltyThreshold: 6, maxMeshMessageDeliveriesWindowSec: 0.01 };

function pair() {
  const ref = new Registry();
  const light = new Registry();
  const labels = new Map(TOPICS.map((t) => [t, t]));
  return {
    ref,
    light,
    refMetrics: getMetrics(promClientRegister(ref), labels, OPTS),
    lightMetrics: getMetrics(gossipsubRegister(light), labels, OPTS),
  };
}

/** The same scrape from both registries, compared as text, as parsed families and as JSON. */
async function same(ref: Registry, light: Registry, what: string): Promise<string> {
  const [a, b] = [await ref.metrics(), await light.metrics()];
  // Family by family first, for a readable failure.
  const fa = a.split('\n\n'),
    fb = b.split('\n\n');
  for (let i = 0; i < Math.max(fa.length, fb.length); i++) assert.equal(fb[i], fa[i], `${what}: family ${i}`);
  assert.equal(b, a, `${what}: the whole text`);
  assert.deepEqual(parsePrometheusTextFormat(b), parsePrometheusTextFormat(a), `${what}: parsed`);
  assert.deepEqual(await light.getMetricsAsJSON(), await ref.getMetricsAsJSON(), `${what}: JSON`);
  return a;
}

/** A deterministic pseudo-random source (mulberry32). */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type M = ReturnType<typeof getMetrics>;

/** What GossipSub calls on a busy node: every per-message, per-RPC and heartbeat hook. */
function drive(m: M, seed: number, n: number) {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const topic = () => pick([...TOPICS, '/unknown/topic']);
  for (let i = 0; i < n; i++) {
    const t = topic();
    m.onRpcRecv(
      {
        subscriptions: r() < 0.1 ? [{}] : [],
        messages: [{}],
        control: r() < 0.2 ? { ihave: [{}], iwant: [], graft: [{}], prune: [] } : undefined,
      } as never,
      100 + Math.floor(r() * 900),
    );
    m.onMsgRecvPreValidation(t);
    m.onPrevalidationResult(t, pick(['valid', 'duplicate', 'invalid', 'other']) as never);
    m.onReportValidation(
      r() < 0.9 ? ({ message: { topic: t } } as never) : null,
      pick(['accept', 'ignore', 'reject', 'x']) as never,
      r() < 0.8 ? 1_000_000 - Math.floor(r() * 20_000) : null,
    );
    m.onForwardMsg(t, Math.floor(r() * 4));
    m.onRpcSent(
      {
        messages: [{}],
        control: r() < 0.3 ? { ihave: [{}], iwant: [{}], graft: [], prune: [{}], idontwant: [{}] } : undefined,
      } as never,
      200,
    );
    // Delays on, between and beyond the bucket bounds (0.0025 … 0.04 s) and exactly on one.
    m.onDuplicateMsgDelivery(t, pick([0, 2.5, 5, 7, 10, 40, 1000, r() * 50]), r() < 0.5);
    m.scoreFnCalls.inc();
    if (r() < 0.3) m.scoreFnRuns.inc();
    if (r() < 0.3) m.scoreCachedDelta.observe(pick([-5, 10, 55, 100, 5000]));
    if (r() < 0.05)
      m.onMsgRecvInvalid(t, pick([{ reason: 'error', error: 'invalid_signature' }, { reason: 'reject' }]) as never);
    if (r() < 0.05) m.onMsgRecvError(t);
    if (r() < 0.05) m.onPublishMsg(t, { direct: 1, floodsub: 0, mesh: 3, fanout: 0 }, 4, 300, r() * 3);
    if (r() < 0.05) m.onPublishDuplicateMsg(t);
    if (r() < 0.05)
      m.onAddToMesh(
        t,
        pick(['fanout', 'random', 'subscribed', 'outbound', 'not_enough', 'opportunistic', 'other']) as never,
        Math.floor(r() * 3),
      );
    if (r() < 0.05) m.onRemoveFromMesh(t, pick(['disconnected', 'bad_score', 'prune', 'excess', 'other']) as never, 1);
    if (r() < 0.05) m.onIhaveRcv(t, 5, 2);
    if (r() < 0.05)
      m.onIwantRcv(
        new Map([
          [t, 3],
          [topic(), 1],
        ]),
        1,
      );
    if (r() < 0.05) m.onIdontwantRcv(4, 1);
    if (r() < 0.05) m.onIdontwantSkippedSend(pick(['forward', 'iwant']) as never);
    if (r() < 0.02) m.onScorePenalty(pick(['graft_backoff', 'broken_promise']) as never);
    if (r() < 0.02) {
      m.onPeerReadStreamError();
      m.onRpcRecvError();
      m.onRpcDataError();
      m.rpcRecvNotAccepted.inc();
    }
    if (r() < 0.02) m.peersPerProtocol.inc({ protocol: pick(['/meshsub/1.1.0', '/meshsub/1.2.0']) }, pick([1, -1]));
    if (r() < 0.02) m.newConnectionCount.inc({ status: 'open' });
    if (r() < 0.02) m.iwantPromiseDeliveryTime.observe(pick([0.1, 1.5, 3, 100]));
    if (i % 50 === 0) heartbeat(m, r);
  }
}

function heartbeat(m: M, r: () => number) {
  m.heartbeatSkipped.inc();
  m.cacheSize.set({ cache: 'iasked' }, Math.floor(r() * 10));
  const scores = Array.from({ length: 1 + Math.floor(r() * 5) }, () => Math.round((r() * 40 - 10) * 100) / 100);
  m.registerScores(scores, {
    gossipThreshold: -10,
    publishThreshold: -50,
    graylistThreshold: -80,
    acceptPXThreshold: 10,
    opportunisticGraftThreshold: 20,
  });
  m.registerScores([], {
    gossipThreshold: -10,
    publishThreshold: -50,
    graylistThreshold: -80,
    acceptPXThreshold: 10,
    opportunisticGraftThreshold: 20,
  });
  // Two labels, some values with only one of them (as GossipSub sets p5-p7).
  m.registerScoreWeights({
    byTopic: new Map([
      [TOPICS[0], { p1w: [1, 2], p2w: [0], p3w: [-1, -3], p3bw: [0], p4w: [2] }],
      ['unknown', { p1w: [r()], p2w: [], p3w: [0], p3bw: [0], p4w: [0] }],
    ]),
    p5w: [1],
    p6w: [0, -2],
    p7w: [r()],
    score: [1, 2],
  } as never);
  m.registerScorePerMesh(
    new Map([
      [TOPICS[0], new Set(['a', 'b'])],
      ['/other', new Set(['c'])],
    ]),
    new Map([
      ['a', 3],
      ['b', -1],
    ]),
  );
  m.onJoin(TOPICS[Math.floor(r() * 3)]);
  if (r() < 0.2) m.onLeave(TOPICS[2]);
}

/** GossipSub's scrape-time collect (its onScrapeMetrics), here with numbers from `r`. */
function collect(m: M, r: () => number) {
  m.mcacheSize.addCollect(() => {
    m.mcacheSize.set(Math.floor(r() * 100));
    m.cacheSize.set({ cache: 'seenCache' }, 7);
    m.connectedPeersBackoffSec.reset();
    m.connectedPeersBackoffSec.observe(Math.floor(r() * 200));
    for (const t of TOPICS) m.topicPeersCount.set({ topicStr: t }, t.length % 4);
    m.behaviourPenalty.reset();
    m.behaviourPenalty.observe(r() * 30);
  });
}

test('GossipSub metrics over the light register render exactly as over prom-client', async (t: TestContext) => {
  t.mock.method(Date, 'now', () => 1_000_000);
  const { ref, light, refMetrics, lightMetrics } = pair();
  // Before any call: the unlabelled series at 0, the labelled metrics without series.
  await same(ref, light, 'fresh');
  collect(refMetrics, prng(7));
  collect(lightMetrics, prng(7));
  drive(refMetrics, 1, 2_000);
  drive(lightMetrics, 1, 2_000);
  const text = await same(ref, light, 'after 2,000 messages');
  // The text has what the comparison is about.
  assert.match(
    text,
    /^gossisub_duplicate_msg_delivery_delay_seconds_bucket\{le="0\.005",topic="\/0x01\/v1\/broadcast"\} \d+$/m,
  );
  assert.match(text, /^gossipsub_score_weights_avg\{topic="\/0x01\/v1\/broadcast",p="p1"\} 1\.5$/m);
  assert.match(text, /^gossipsub_score_weights_min\{p="p6"\} -2$/m);
  assert.match(text, /^gossipsub_mcache_size \d+$/m);
  assert.match(text, /^gossipsub_peer_stat_behaviour_penalty_count \d+$/m);
  // More calls and scrapes (collect functions run at each) keep them equal.
  drive(refMetrics, 2, 500);
  drive(lightMetrics, 2, 500);
  await same(ref, light, 'second scrape');
  // The counters mesh health reads, per topic, from both.
  for (const name of [
    'gossipsub_msg_received_prevalidation_total',
    'gossipsub_pre_validation_duplicate_total',
    'gossipsub_mesh_peer_inclusion_events_random_total',
    'gossipsub_peer_churn_events_prune_total',
    'gossisub_duplicate_msg_delivery_delay_seconds',
  ]) {
    assert.deepEqual(await metricByLabel(light, name, 'topic'), await metricByLabel(ref, name, 'topic'), name);
  }
  // The registry's reset, as prom-client's (an unlabelled histogram has no series after it).
  ref.resetMetrics();
  light.resetMetrics();
  await same(ref, light, 'after resetMetrics');
  drive(refMetrics, 3, 100);
  drive(lightMetrics, 3, 100);
  await same(ref, light, 'after reset and more calls');
});

test('labels, values and errors as in prom-client', async () => {
  const ref = new Registry();
  const light = new Registry();
  const regs = [promClientRegister(ref), gossipsubRegister(light)] as const;
  const both = <T>(fn: (r: MetricsRegister) => T): [T, T] => [fn(regs[0]), fn(regs[1])];
  const gauges = both((r) => r.gauge<{ topic: string }>({ name: 'g_total', help: 'g', labelNames: ['topic'] }));
  const plain = both((r) => r.gauge({ name: 'p_total', help: 'p' }));
  const two = both((r) =>
    r.gauge<{ a: string; b: string }>({ name: 'two', help: 'two labels', labelNames: ['a', 'b'] }),
  );
  const hist = both((r) =>
    r.histogram<{ topic: string }>({ name: 'h_seconds', help: 'h', labelNames: ['topic'], buckets: [1, 1, 2] }),
  );
  const plainHist = both((r) => r.histogram({ name: 'ph', help: 'ph', buckets: [0.5] }));
  for (const [i, g] of gauges.entries()) {
    g.inc({ topic: 'b' });
    g.inc({ topic: '' }, 2);
    g.inc({} as never, 3); // no label at all: its own series
    g.inc(4 as never); // likewise
    g.inc({ topic: 1 } as never, 0.5); // a number, the same series as '1'
    g.inc({ topic: '1' });
    g.set({ topic: 'a"quote\\ and\nline' }, -7);
    g.inc({ topic: 'b' }, -1);
    plain[i].inc();
    plain[i].inc(2.5);
    plain[i].set(-1);
    plain[i].inc();
    two[i].set({ b: 'y', a: 'x' }, 1); // rendered in this order: inc keeps a series' labels, set takes its own
    two[i].inc({ a: 'x', b: 'y' }, 2);
    two[i].set({ a: 'x' } as never, 3); // a series of its own
    two[i].set({ a: 'z', b: undefined } as never, 4); // the same series as {a: 'z'}, rendered as prom-client does
    hist[i].observe({ topic: 't' }, 1); // on the repeated bound
    hist[i].observe({ topic: 't' }, 0.5);
    hist[i].observe({ topic: 't' }, 2);
    hist[i].observe({ topic: 't' }, 3);
    hist[i].observe({ topic: 'u' }, -1);
    plainHist[i].observe(0.5);
    plainHist[i].observe(0);
    plainHist[i].observe(1e9);
    assert.throws(() => g.inc({ other: 'x' } as never), /not included in initial labelset/);
    assert.throws(() => hist[i].observe({ topic: 'v' }, NaN), /not a valid number/);
    assert.throws(() => hist[i].observe({ topic: 't' }, Infinity), /not a valid number/);
    assert.throws(() => g.set({ topic: 'c' }, 'x' as never), /not a valid number/);
    assert.throws(() => plain[i].inc('x' as never), /not a valid number/);
  }
  const text = await same(ref, light, 'edge cases');
  assert.match(text, /^g_total\{topic="a\\"quote\\\\ and\\nline"\} -7$/m);
  assert.match(text, /^two\{b="y",a="x"\} 3$/m);
  // A repeated bound adds its count twice to the cumulative ones after it, as prom-client does.
  assert.match(text, /^h_seconds_bucket\{le="2",topic="t"\} 5$/m);
  assert.match(text, /^h_seconds_bucket\{le="\+Inf",topic="t"\} 4$/m);
  // A timer observes the seconds it ran, once, without labels.
  const [, timer] = both((r) => r.histogram({ name: 'timer_seconds', help: 'timer', buckets: [60] }));
  timer.startTimer()();
  const v = (await light.getSingleMetric('timer_seconds')!.get()).values;
  assert.equal(v.find((x) => (x as { metricName?: string }).metricName === 'timer_seconds_count')?.value, 1);
  assert.ok(v.find((x) => (x as { metricName?: string }).metricName === 'timer_seconds_sum')!.value < 60);
  // Registering a metric again (a node restarted on the same registry) replaces it.
  gossipsubRegister(light).gauge<{ topic: string }>({ name: 'g_total', help: 'again', labelNames: ['topic'] });
  assert.match(await light.metrics(), /^# HELP g_total again$/m);
});

test("the observer's counter and histogram (and their series handles) render as prom-client's", async () => {
  const ref = new Registry();
  const light = new Registry();
  const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
  const rh = new Histogram({
    name: 'zerox1_first_seen_latency_seconds',
    help: 'latency',
    labelNames: ['topic'],
    buckets,
    registers: [ref],
  });
  const rc = new Counter({
    name: 'zerox1_envelopes_accepted_total',
    help: 'accepted',
    labelNames: ['topic'],
    registers: [ref],
  });
  const rd = new Counter({
    name: 'zerox1_envelopes_dropped_total',
    help: 'dropped',
    labelNames: ['reason'],
    registers: [ref],
  });
  const rp = new Counter({ name: 'plain_total', help: 'plain', registers: [ref] });
  const lh = new LightHistogram(light, 'zerox1_first_seen_latency_seconds', 'latency', ['topic'], buckets);
  const lc = new LightCounter(light, 'zerox1_envelopes_accepted_total', 'accepted', ['topic']);
  const ld = new LightCounter(light, 'zerox1_envelopes_dropped_total', 'dropped', ['reason']);
  const lp = new LightCounter(light, 'plain_total', 'plain');
  await same(ref, light, 'fresh');
  const r = prng(11);
  const children = new Map<string, { c: ReturnType<LightCounter['child']>; h: ReturnType<LightHistogram['child']> }>();
  for (let i = 0; i < 5_000; i++) {
    const t = ['/0x01/v1/broadcast', '/0x01/v1/envelope', '*'][Math.floor(r() * 3)];
    const s = Math.floor(r() * 40_000) / 1000 - 1;
    rc.labels(t).inc();
    rh.labels(t).observe(s);
    let ch = children.get(t);
    if (!ch) children.set(t, (ch = { c: lc.child(t), h: lh.child(t) }));
    ch.c.value++;
    lh.add(ch.h, s);
    if (r() < 0.01) {
      const reason = ['rate_limit', 'invalid_signature'][Math.floor(r() * 2)];
      rd.inc({ reason });
      ld.inc({ reason });
    }
    if (r() < 0.01) {
      rp.inc(2);
      lp.inc(2);
    }
  }
  for (const c of [rc, lc]) {
    assert.throws(() => c.inc({ topic: 'x' }, -1), /not possible to decrease/);
    assert.throws(() => c.inc({ topic: 'x' }, Infinity), /not a valid number/);
  }
  await same(ref, light, 'after 5,000 envelopes');
  assert.deepEqual(
    await metricByLabel(light, 'zerox1_envelopes_accepted_total', 'topic'),
    await metricByLabel(ref, 'zerox1_envelopes_accepted_total', 'topic'),
  );
});

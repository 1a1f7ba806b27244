/**
 * `npm run bench:metrics`: CPU per message of GossipSub's metric calls and of the observer's per
 * envelope counter and histogram, over lib/mesh/metrics.ts and over prom-client's own metrics
 * (lib/mesh/metrics-reference.ts), in one process, alternating. A message here is what the
 * observer's GossipSub records for one received message it accepts and forwards to two peers,
 * plus one duplicate of it from another peer (each RPC holding one message).
 *
 * Env: BENCH_MESSAGES (200000 per round), BENCH_ROUNDS (5).
 */
import { getMetrics, type MetricsRegister } from '@libp2p/gossipsub/metrics';
import { Counter, Histogram, Registry } from 'prom-client';
import { gossipsubRegister, LightCounter, LightHistogram } from '../lib/mesh/metrics';
import { promClientRegister } from '../lib/mesh/metrics-reference';

const N = Number(process.env.BENCH_MESSAGES ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TOPICS = ['/0x01/v1/broadcast', '/0x01/v1/notary', '/0x01/v1/reputation'];
const OPTS = { gossipPromiseExpireSec: 3, behaviourPenaltyThreshold: 6, maxMeshMessageDeliveriesWindowSec: 0.01 };

function gossip(register: MetricsRegister): () => void {
  const m = getMetrics(register, new Map(TOPICS.map((t) => [t, t])), OPTS);
  const rpc = { subscriptions: [], messages: [{}] } as never;
  const record = { message: { topic: TOPICS[0] } } as never;
  let i = 0;
  return () => {
    const t = TOPICS[i++ % 3];
    // The message: received, prevalidated, accepted, forwarded to two peers.
    m.onRpcRecv(rpc, 400);
    m.scoreFnCalls.inc();
    m.onMsgRecvPreValidation(t);
    m.onPrevalidationResult(t, 'valid' as never);
    m.onReportValidation(record, 'accept' as never, 1_000);
    m.onForwardMsg(t, 2);
    m.onRpcSent(rpc, 400);
    m.onRpcSent(rpc, 400);
    // Its duplicate from another mesh peer.
    m.onRpcRecv(rpc, 400);
    m.scoreFnCalls.inc();
    m.onMsgRecvPreValidation(t);
    m.onPrevalidationResult(t, 'duplicate' as never);
    m.onDuplicateMsgDelivery(t, 3, false);
  };
}

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** mesh-health's per-envelope update as it was: prom-client label children, looked up once per topic. */
function observerProm(): () => void {
  const r = new Registry();
  const latency = new Histogram({
    name: 'zerox1_first_seen_latency_seconds',
    help: 'l',
    labelNames: ['topic'],
    buckets: BUCKETS,
    registers: [r],
  });
  const accepted = new Counter({
    name: 'zerox1_envelopes_accepted_total',
    help: 'a',
    labelNames: ['topic'],
    registers: [r],
  });
  const per = new Map(TOPICS.map((t) => [t, { accepted: accepted.labels(t), latency: latency.labels(t) }]));
  let i = 0;
  return () => {
    const m = per.get(TOPICS[i++ % 3])!;
    m.accepted.inc();
    m.latency.observe((i % 700) / 1000);
  };
}

/** mesh-health's per-envelope update now: the series themselves. */
function observerLight(): () => void {
  const r = new Registry();
  const latency = new LightHistogram(r, 'zerox1_first_seen_latency_seconds', 'l', ['topic'], BUCKETS);
  const accepted = new LightCounter(r, 'zerox1_envelopes_accepted_total', 'a', ['topic']);
  const per = new Map(TOPICS.map((t) => [t, { accepted: accepted.child(t), latency: latency.child(t) }]));
  let i = 0;
  return () => {
    const m = per.get(TOPICS[i++ % 3])!;
    m.accepted.value++;
    latency.add(m.latency, (i % 700) / 1000);
  };
}

function time(fn: () => void): number {
  const t0 = process.cpuUsage();
  for (let i = 0; i < N; i++) fn();
  const d = process.cpuUsage(t0);
  return ((d.user + d.system) * 1000) / N; // ns per message
}

/** A register whose metrics do nothing: GossipSub's own cost of calling its hooks, the floor. */
function noopRegister(): MetricsRegister {
  const noop = () => undefined;
  const metric = { inc: noop, set: noop, addCollect: noop, observe: noop, reset: noop, startTimer: () => noop };
  return { gauge: () => metric, histogram: () => metric, avgMinMax: () => metric } as unknown as MetricsRegister;
}

const cases: Array<[string, () => void]> = [
  ['GossipSub metrics per message, prom-client', gossip(promClientRegister(new Registry()))],
  ['GossipSub metrics per message, light', gossip(gossipsubRegister(new Registry()))],
  ['GossipSub metrics per message, metrics doing nothing (the floor)', gossip(noopRegister())],
  ['observer counter + histogram per envelope, prom-client', observerProm()],
  ['observer counter + histogram per envelope, light', observerLight()],
];
const results = new Map<string, number[]>(cases.map(([k]) => [k, []]));
for (const [, fn] of cases) time(fn); // warm-up
for (let r = 0; r < ROUNDS; r++) for (const [k, fn] of cases) results.get(k)!.push(time(fn));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`bench:metrics: ${N} messages per round, ${ROUNDS} rounds, median CPU per message`);
for (const [k, xs] of results)
  console.log(`  ${k}: ${median(xs).toFixed(0)} ns (rounds ${xs.map((x) => x.toFixed(0)).join(', ')})`);

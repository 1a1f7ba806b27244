/**
 * `npm run bench:mesh`: gossip between two mesh nodes in two processes on loopback, no-op
 * validation, limits lifted (the bench measures the transport, not the 100/s cap).
 * Prints: gossip receive rate (msg/s), gossip latency p50/p99 at a paced 1,000 msg/s,
 * stream envelope receive rate, and the ratio to docs/architecture.md's measured GossipSub figure.
 * Usage: node --import tsx --import ./scripts/setup-node.mjs lib/mesh/bench.ts [count] [size]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { TOPIC_BROADCAST } from './constants';
import { createMeshNode, type MeshNode } from './node';

const COUNT = Number(process.argv[2] ?? 20_000);
const SIZE = Number(process.argv[3] ?? 400);
const LAT_RATE = 1_000;
const LAT_SECONDS = 3;
const ENV_GOSSIP_RATE = 21_600; // docs/architecture.md: StrictNoSign, 400 B, TCP, two processes
const NO_LIMITS = { messagesPerSecond: 1e9, burst: 1e9 };

type Phase = 1 | 2 | 3; // 1 throughput gossip, 2 latency gossip, 3 throughput stream
interface Report {
  count: number;
  /** CPU of the receiver process (every thread) from the phase's first message to the report, µs. */
  cpuUs: number;
  firstNs: string;
  lastNs: string;
  latenciesUs: number[];
}

function frame(phase: Phase, i: number): Uint8Array {
  const b = new Uint8Array(SIZE);
  const v = new DataView(b.buffer);
  b[0] = phase;
  v.setUint32(1, i);
  v.setBigUint64(5, process.hrtime.bigint()); // CLOCK_MONOTONIC: shared by both processes
  return b;
}

async function receiver(): Promise<void> {
  const state = new Map<Phase, { count: number; first: bigint; last: bigint; lat: number[]; cpu0: NodeJS.CpuUsage }>();
  const node = await createMeshNode({
    validate: () => 'accept',
    listen: ['/ip4/127.0.0.1/tcp/0'],
    dht: false,
    limits: NO_LIMITS,
    onEnvelope: (bytes) => {
      const now = process.hrtime.bigint();
      const phase = bytes[0] as Phase;
      let s = state.get(phase);
      if (s === undefined)
        state.set(phase, (s = { count: 0, first: now, last: now, lat: [], cpu0: process.cpuUsage() }));
      s.count++;
      s.last = now;
      if (phase === 2) {
        const sent = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(5);
        s.lat.push(Number(now - sent) / 1000);
      }
    },
  });
  process.send!({ addr: node.multiaddrs()[0] });
  process.on('message', async (m: { cmd: 'report'; phase: Phase; n: number } | { cmd: 'stop' }) => {
    if (m.cmd === 'stop') {
      await node.stop();
      process.exit(0);
    }
    const end = Date.now() + 30_000;
    let lastCount = -1;
    let idleSince = Date.now();
    for (;;) {
      const c = state.get(m.phase)?.count ?? 0;
      if (c >= m.n || Date.now() > end) break;
      if (c !== lastCount) {
        lastCount = c;
        idleSince = Date.now();
      } else if (Date.now() - idleSince > 3000) break; // lost messages: report what arrived
      await new Promise((r) => setTimeout(r, 10));
    }
    const s = state.get(m.phase) ?? { count: 0, first: 0n, last: 0n, lat: [], cpu0: process.cpuUsage() };
    const cpu = process.cpuUsage(s.cpu0);
    const report: Report = {
      count: s.count,
      firstNs: String(s.first),
      lastNs: String(s.last),
      latenciesUs: s.lat,
      cpuUs: cpu.user + cpu.system,
    };
    process.send!(report);
  });
}

function ask(child: ChildProcess, msg: object): Promise<Report> {
  return new Promise((resolve) => {
    child.once('message', (r) => resolve(r as Report));
    child.send(msg);
  });
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function main(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['--receiver'], {
    execArgv: ['--import', 'tsx', '--import', './scripts/setup-node.mjs'],
  });
  const { addr } = await new Promise<{ addr: string }>((r) => child.once('message', (m) => r(m as { addr: string })));
  const pub: MeshNode = await createMeshNode({
    validate: () => 'accept',
    listen: ['/ip4/127.0.0.1/tcp/0'],
    dht: false,
    limits: NO_LIMITS,
  });
  try {
    const peer = await pub.dial(addr);
    while (!pub.subscribers(TOPIC_BROADCAST).includes(peer)) await new Promise((r) => setTimeout(r, 20));

    // Warm-up (JIT, yamux windows), not counted.
    for (let i = 0; i < 2000; i++) await pub.publish(TOPIC_BROADCAST, frame(3 as Phase, 1_000_000 + i));
    await new Promise((r) => setTimeout(r, 300));

    // 1. Throughput: publish as fast as backpressure allows.
    const t0 = process.hrtime.bigint();
    // Up to WINDOW publishes in flight: each still waits for drain, the window hides the
    // per-call await latency that a strictly serial loop pays.
    const WINDOW = 64;
    for (let i = 0; i < COUNT; i += WINDOW) {
      const batch: Promise<unknown>[] = [];
      for (let j = i; j < Math.min(COUNT, i + WINDOW); j++) batch.push(pub.publish(TOPIC_BROADCAST, frame(1, j)));
      await Promise.all(batch);
    }
    const sendS = Number(process.hrtime.bigint() - t0) / 1e9;
    const r1 = await ask(child, { cmd: 'report', phase: 1, n: COUNT });
    const recvS = Number(BigInt(r1.lastNs) - t0) / 1e9;
    const rate = r1.count / recvS;

    // 2. Latency at a paced 1,000 msg/s.
    const n2 = LAT_RATE * LAT_SECONDS;
    const start = performance.now();
    for (let i = 0; i < n2; i++) {
      const due = start + (i * 1000) / LAT_RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      await pub.publish(TOPIC_BROADCAST, frame(2, i));
    }
    const r2 = await ask(child, { cmd: 'report', phase: 2, n: n2 });

    // 3. Stream envelopes, same size, one reused stream.
    const t3 = process.hrtime.bigint();
    for (let i = 0; i < COUNT; i++) await pub.sendEnvelope(peer, frame(3, i));
    const r3 = await ask(child, { cmd: 'report', phase: 3, n: COUNT + 2000 });
    const streamRate = (r3.count - 2000) / (Number(BigInt(r3.lastNs) - t3) / 1e9);

    console.log(
      `mesh bench: two processes, TCP loopback, ${SIZE}-byte messages, ` +
        `StrictNoSign, no-op validation (load average ${loadavg()[0]!.toFixed(2)})`,
    );
    console.log(
      `gossip receive rate: ${rate.toFixed(0)} msg/s (${r1.count}/${COUNT} ` +
        `received; publisher, 64 in flight, ${(COUNT / sendS).toFixed(0)} msg/s)`,
    );
    // What libp2p's receive path alone (TCP, Noise, Yamux, framing, protobuf, GossipSub) costs per
    // message, before any validation or storage: the floor under the observer's CPU per envelope.
    console.log(
      `gossip receiver CPU per message: ${(r1.cpuUs / Math.max(1, r1.count)).toFixed(1)}` +
        ` µs (every thread of the receiving process, no validation, nothing stored)`,
    );
    console.log(
      `gossip latency at ${LAT_RATE} msg/s: p50 ${(pct(r2.latenciesUs, 50) / 1000).toFixed(2)} ms, p99 ${(
        pct(r2.latenciesUs, 99) / 1000
      ).toFixed(2)} ms (${r2.count}/${n2} received)`,
    );
    console.log(`stream envelope receive rate: ${streamRate.toFixed(0)} msg/s (${r3.count - 2000}/${COUNT} received)`);
    console.log(
      `ratio to docs/architecture.md gossip figure (${ENV_GOSSIP_RATE} msg/s): ${(rate / ENV_GOSSIP_RATE).toFixed(2)}`,
    );
    console.log(
      `spec limit per peer is 100 msg/s: headroom ${(rate / 100).toFixed(0)}` +
        `x per peer, ${(rate / 50 / 100).toFixed(1)}x for 50 peers at the limit`,
    );
  } finally {
    child.send({ cmd: 'stop' });
    await pub.stop();
  }
}

if (process.argv.includes('--receiver')) await receiver();
else await main();

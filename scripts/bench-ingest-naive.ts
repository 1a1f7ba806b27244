/**
 * The naive observer of `npm run bench:ingest`, measured beside the real one in the same run:
 * the design a newcomer would write with the same libraries. GossipSub signs and checks every
 * message itself (StrictSign, its default), the envelope is validated on the event loop (no
 * signature workers) and stored with one INSERT per envelope, each awaited before the next
 * (no batching, no write-behind queue). Same publishers, same envelopes, same Postgres.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createMeshNode } from '../lib/mesh';
import { openObserverStore } from '../lib/observer/store-adapter';
import { publicKeyFromSeed, sha256 } from '../lib/protocol/crypto';
import { toHex } from '../lib/protocol/hex';
import { validateEnvelopeSync } from '../lib/protocol/validate';
import { createTestDatabase } from '../lib/store/testing';
import { loadConfig } from '../server/config';

export interface NaiveResult {
  /** Envelopes validated and committed per wall-clock second. */
  rate: number;
  /** Envelopes validated and committed per CPU-second of the observer. */
  perCpuSecond: number;
  envelopes: number;
  /** The naive node's inbound counters (accepted, drops by reason). */
  stats: string;
}

type Msg = Record<string, any>;
const ask = (c: ChildProcess, m: Msg, want: string) =>
  new Promise<Msg>((res) => {
    const on = (x: Msg) => {
      if (x.t === want) {
        c.off('message', on);
        res(x);
      }
    };
    c.on('message', on);
    c.send(m);
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const nowMs = () => performance.timeOrigin + performance.now();
const key = (i: number, l: string) => sha256(new TextEncoder().encode(`bench-naive/${i}/${l}`));

/**
 * Runs the naive observer on a fresh Postgres database: warm-up, then `total` envelopes from `publishers` processes.
 */
export async function runNaive(p: {
  pgUrl: string;
  publishers: number;
  total: number;
  warmup: number;
  setup: string;
}): Promise<NaiveResult> {
  const db = await createTestDatabase(p.pgUrl, 'zx_bench_naive');
  const config = { ...loadConfig({ DEMO_AGENTS: '0' }), listen: ['/ip4/127.0.0.1/tcp/0'], databaseUrl: db.url };
  const store = await openObserverStore(config);
  const registry = new Map<string, Uint8Array[]>();
  const nonces = new Map<string, bigint>();
  let committed = 0;
  let lastCommit = 0;
  let writes: Promise<unknown> = Promise.resolve();
  const node = await createMeshNode({
    listen: ['/ip4/127.0.0.1/tcp/0'],
    signaturePolicy: 'StrictSign',
    limits: { messagesPerSecond: 1e9, burst: 1e9 },
    validate: (bytes) => {
      const r = validateEnvelopeSync(bytes, {
        mode: 'live',
        registry: { keysFor: (id) => registry.get(toHex(id)) ?? [] },
        nonces,
        nowUs: BigInt(Date.now()) * 1000n,
      });
      return r.ok ? r : { result: 'reject', reason: r.reason };
    },
    onAccepted: (r, bytes, meta) => {
      const item = {
        id: r.id,
        envelope: r.envelope,
        raw: bytes,
        source: meta.via,
        topic: meta.topic,
        receivedAt: new Date(),
      };
      writes = writes
        .then(() => store.ingestEnvelopes([item]))
        .then(
          () => {
            committed++;
            lastCommit = nowMs();
          },
          (e) => console.error('naive insert failed', e),
        );
    },
  });
  const pubs: ChildProcess[] = [];
  try {
    const ready: Promise<unknown>[] = [];
    for (let i = 0; i < p.publishers; i++) {
      const seed = key(i, 'seed');
      const id = key(i, 'id');
      registry.set(toHex(id), [publicKeyFromSeed(seed)]);
      const c = fork(fileURLToPath(new URL('./bench-ingest-publisher.ts', import.meta.url)), [], {
        execArgv: ['--import', 'tsx', '--import', p.setup],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      pubs.push(c);
      ready.push(
        ask(
          c,
          {
            t: 'config',
            seedHex: toHex(seed),
            idHex: toHex(id),
            bootstrap: [node.multiaddrs()[0]],
            topicIndex: i,
            sign: true,
          },
          'ready',
        ),
      );
    }
    await Promise.all(ready);
    const phase = async (count: number) => {
      const c0 = committed;
      const cpu0 = process.cpuUsage();
      const r = await Promise.all(pubs.map((c) => ask(c, { t: 'run', count, ratePerSec: 0 }, 'done')));
      const start = Math.min(...r.map((x) => x.start as number));
      const want = c0 + count * pubs.length;
      const end = Date.now() + 300_000;
      while (committed < want && Date.now() < end && !(lastCommit > 0 && nowMs() - lastCommit > 10_000))
        await sleep(20);
      await writes;
      const cpu = process.cpuUsage(cpu0);
      const n = committed - c0;
      return { n, rate: n / ((lastCommit - start) / 1000), perCpuSecond: n / ((cpu.user + cpu.system) / 1e6) };
    };
    if (p.warmup > 0) await phase(Math.ceil(p.warmup / pubs.length));
    const m = await phase(Math.ceil(p.total / pubs.length));
    return { rate: m.rate, perCpuSecond: m.perCpuSecond, envelopes: m.n, stats: JSON.stringify(node.stats()) };
  } finally {
    for (const c of pubs) c.send({ t: 'stop' });
    await node.stop();
    await store.close();
    await db.drop();
  }
}

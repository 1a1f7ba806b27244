/**
 * Mesh health on the real observer: a peer on loopback gossips BEACONs whose timestamps are
 * known offsets before the observer's clock, so the first-seen latency percentiles are exact;
 * the minute and hour rows land in the store (PGlite, and Postgres when TEST_DATABASE_URL is
 * set) and old rows are pruned; /metrics parses as the Prometheus text format with libp2p's,
 * GossipSub's and the observer's own metrics in it.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { createMeshNode, type MeshNode, TOPIC_BROADCAST, TOPIC_REPUTATION } from '../mesh';
import { publicKeyFromSeed, sha256 } from '../protocol/crypto';
import { buildEnvelope } from '../protocol/envelope';
import { MsgType } from '../protocol/types';
import { NODE_TOPIC } from '../store/mesh-health';
import { skipWithoutPostgres } from '../store/testing';
import { MAX_SAMPLES, percentile, toMs } from './mesh-health';
import { startObservatory } from './observatory';
import { makeBackend, quietLogger, waitFor } from './testing';

test('nearest-rank percentiles', () => {
  const s = Array.from({ length: 10 }, (_, i) => (i + 1) * 100);
  assert.deepEqual(
    [percentile(s, 50), percentile(s, 90), percentile(s, 99), percentile(s, 100), percentile(s, 1)],
    [500, 900, 1000, 1000, 100],
  );
  assert.equal(percentile([], 50), null);
  assert.equal(percentile([7], 99), 7);
});

test('timestamps in µs to whole ms as the BigInt division gives them, past 2^53 too', () => {
  const xs = [
    0n,
    999n,
    1000n,
    1001n,
    1_764_300_000_000_999n,
    9_007_199_254_740_991n,
    9_007_199_254_740_993n,
    2n ** 64n - 1n,
  ];
  for (let k = 0n; k < 10_000n; k++)
    xs.push(1_764_300_000_000_000n + k * 7_919n, k * 1_000n - 1n + (k === 0n ? 1n : 0n));
  for (const us of xs) assert.equal(toMs(us), Number(us / 1000n), String(us));
});

const backends: Array<'pglite' | 'postgres'> = ['pglite', 'postgres'];
for (const kind of backends) {
  const skip = kind === 'postgres' ? skipWithoutPostgres() : false;
  describe(`mesh health on ${kind}`, { skip }, () => {
    test('latency from known timestamps, rows per topic and per hour, pruning, and /metrics', async () => {
      const backend = await makeBackend(kind);
      let now = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;
      // libp2p's own metrics are opt-in (LIBP2P_METRICS): on in one run, off in the other.
      const libp2pMetrics = kind === 'pglite';
      const obs = await startObservatory({
        config: { ...backend.config, libp2pMetrics },
        logger: quietLogger,
        clock: () => now,
        meshHealth: { timer: false },
      });
      let peer: MeshNode | undefined;
      try {
        const seed = sha256(new TextEncoder().encode(`mesh-health/${kind}/seed`));
        const id = sha256(new TextEncoder().encode(`mesh-health/${kind}/id`));
        await obs.registry.register(id, publicKeyFromSeed(seed));
        peer = await createMeshNode({ listen: ['/ip4/127.0.0.1/tcp/0'], validate: () => 'accept', dht: false });
        await peer.dial(obs.mesh.multiaddrs()[0]!);
        const p = peer;
        await waitFor('the observer subscribed, seen by the peer', () =>
          p.subscribers(TOPIC_BROADCAST).includes(obs.mesh.peerId),
        );
        // Ten BEACONs 100, 200, … 1,000 ms older than the observer's (frozen) clock.
        for (let k = 1; k <= 10; k++) {
          const e = buildEnvelope(
            {
              msgType: MsgType.BEACON,
              sender: id,
              timestamp: BigInt(now - k * 100) * 1000n,
              nonce: BigInt(k),
              conversationId: new Uint8Array(16),
              payload: new TextEncoder().encode(`beacon ${k}`),
            },
            seed,
          );
          await peer.publish(TOPIC_BROADCAST, e.bytes);
        }
        await waitFor('10 envelopes accepted', () => obs.mesh.stats().accepted.gossip === 10);

        const rows = await obs.meshHealth.roll();
        const minute = Math.floor(now / 60_000) * 60;
        const b = rows.find((r) => r.res === 60 && r.topic === TOPIC_BROADCAST)!;
        assert.equal(b.bucket, minute);
        assert.equal(b.observer, obs.mesh.peerId);
        assert.equal(b.messages, 10);
        assert.equal(b.latencySamples, 10);
        assert.deepEqual([b.latencyP50, b.latencyP90, b.latencyP99], [500, 900, 1000]);
        assert.ok(b.received !== null && b.received >= 10, `GossipSub counted ${b.received} received`);
        assert.equal(b.duplicates, 0);
        assert.ok(
          b.meshPeers !== null && b.topicPeers !== null && b.topicPeers >= 1,
          `mesh ${b.meshPeers}, topic ${b.topicPeers}`,
        );
        const r = rows.find((x) => x.res === 60 && x.topic === TOPIC_REPUTATION)!;
        assert.equal(r.messages, 0);
        assert.deepEqual([r.latencyP50, r.latencySamples], [null, 0], 'no samples: unknown, not zero');
        const node = rows.find((x) => x.res === 60 && x.topic === NODE_TOPIC)!;
        assert.equal(node.messages, 10);
        assert.ok(node.connections !== null && node.connections >= 1);
        assert.deepEqual(node.drops, {});
        assert.equal(rows.filter((x) => x.res === 3600).length, 0, 'the hour is not over');

        const stored = await obs.store.readMeshHealth({ res: 60, from: minute, to: minute + 60 });
        assert.deepEqual(
          stored.find((x) => x.topic === TOPIC_BROADCAST),
          b,
        );

        // The next hour: the hour's rows, percentiles from the hour's own samples.
        now += 3_600_000;
        const later = await obs.meshHealth.roll();
        const h = later.find((x) => x.res === 3600 && x.topic === TOPIC_BROADCAST)!;
        assert.equal(h.bucket, Math.floor((now - 3_600_000) / 3_600_000) * 3600);
        assert.equal(h.messages, 10);
        assert.deepEqual([h.latencyP50, h.latencyP90, h.latencyP99], [500, 900, 1000]);
        assert.equal(later.find((x) => x.res === 60 && x.topic === TOPIC_BROADCAST)!.messages, 0);

        // Rows past their retention go at the next prune (once an hour): 3-day-old minutes do, 3-day-old hours stay.
        const old = Math.floor(now / 1000) - 3 * 86_400;
        const gone = { ...b, bucket: Math.floor(old / 60) * 60 };
        const kept = { ...h, bucket: Math.floor(old / 3600) * 3600 };
        await obs.store.writeMeshHealth([gone, kept]);
        now += 3_600_000;
        await obs.meshHealth.roll();
        assert.equal((await obs.store.readMeshHealth({ res: 60, from: gone.bucket, to: gone.bucket + 60 })).length, 0);
        assert.equal(
          (
            await obs.store.readMeshHealth({
              res: 3600,
              from: kept.bucket,
              to: kept.bucket + 3600,
              topic: TOPIC_BROADCAST,
            })
          ).length,
          1,
        );

        // A second observer on the same database: listed, and the spread of the medians per interval.
        const x = minute - 600;
        await obs.store.writeMeshHealth([
          { ...node, bucket: x },
          { ...node, bucket: x, observer: 'other', latencyP50: 700 },
          { ...node, bucket: x + 60, observer: 'other' },
        ]);
        const both = await obs.store.meshHealthObservers({ res: 60, from: x, to: x + 120 });
        assert.deepEqual(
          both.observers,
          [
            { observer: obs.mesh.peerId, intervals: 1 },
            { observer: 'other', intervals: 2 },
          ].sort((a, b) => a.observer.localeCompare(b.observer)),
        );
        assert.deepEqual(
          both.spread,
          [{ bucket: x, observers: 2, p50Min: 500, p50Max: 700 }],
          'an interval one observer measured has no spread',
        );
        assert.deepEqual(
          (await obs.store.readMeshHealth({ res: 60, from: x, to: x + 120, observer: 'other' })).map((r) => [
            r.bucket,
            r.topic,
          ]),
          [
            [x, NODE_TOPIC],
            [x + 60, NODE_TOPIC],
          ],
        );

        // /metrics: the Prometheus text format, with the three sources in it.
        const m = await obs.metrics();
        assert.match(m.contentType, /^text\/plain; version=0\.0\.4/);
        const families = parsePrometheusTextFormat(m.text);
        const family = (name: string) => families.find((f) => f.name === name);
        const accepted = family('zerox1_envelopes_accepted_total')!;
        assert.equal(accepted.type, 'COUNTER');
        assert.equal(Number(accepted.metrics.find((x) => x.labels?.topic === TOPIC_BROADCAST)?.value), 10);
        const lat = family('zerox1_first_seen_latency_seconds')!;
        assert.equal(lat.type, 'HISTOGRAM');
        // Only the broadcast topic has observations; this parser folds a histogram's series into
        // its buckets (labels dropped), so the buckets are what is checked: 0.1 … 1.0 s.
        assert.equal(lat.metrics.length, 1);
        const buckets = lat.metrics[0].buckets!;
        assert.deepEqual([buckets['0.25'], buckets['0.5'], buckets['1'], buckets['+Inf']], ['2', '5', '10', '10']);
        assert.ok(
          family('gossipsub_msg_received_prevalidation_total')?.metrics.some(
            (x) => x.labels?.topic === TOPIC_BROADCAST,
          ),
          'GossipSub metrics per topic',
        );
        assert.ok(family('gossipsub_mesh_peer_count'), 'GossipSub mesh gauge');
        assert.equal(
          families.some((f) => f.name.startsWith('libp2p_')),
          libp2pMetrics,
          `libp2p metrics ${libp2pMetrics ? 'on' : 'off'}`,
        );
        assert.ok(family('process_cpu_user_seconds_total'), 'process metrics');
      } finally {
        await peer?.stop();
        await obs.stop();
        await backend.cleanup();
      }
    });
  });
}

test(`a busy interval keeps at most ${MAX_SAMPLES} samples per topic, chosen uniformly`, async () => {
  const { createMeshHealth } = await import('./mesh-health');
  const { Registry } = await import('prom-client');
  const written: unknown[] = [];
  const now = 1_800_000_000_000;
  const mesh = {
    peerId: 'self',
    meshPeers: () => [],
    subscribers: () => [],
    peers: () => [],
    libp2p: { getConnections: () => [], services: {} },
  };
  const h = createMeshHealth({
    mesh: mesh as never,
    registry: new Registry(),
    topics: [TOPIC_BROADCAST],
    write: async (r) => {
      written.push(...r);
    },
    prune: async () => 0,
    clock: () => now,
    timer: false,
  });
  // 40,000 envelopes with latencies 1..40,000 ms: the kept sample's median stays near 20,000.
  for (let i = 1; i <= 40_000; i++) h.accepted(BigInt(now - i) * 1000n, TOPIC_BROADCAST);
  const rows = await h.roll();
  const b = rows.find((r) => r.topic === TOPIC_BROADCAST)!;
  assert.equal(b.messages, 40_000);
  assert.equal(b.latencySamples, 40_000);
  assert.ok(Math.abs(b.latencyP50! - 20_000) < 2_000, `p50 ${b.latencyP50}`);
  assert.ok(b.latencyP99! > 36_000, `p99 ${b.latencyP99}`);
  await h.stop();
});

/**
 * One publisher process of `npm run bench:ingest`: its own libp2p node and agent key, publishing
 * signed envelopes on one topic, each timestamped (µs) with its publish time (paced runs), so
 * the observer side can measure publish → committed / → WebSocket latency.
 * Driven over IPC by scripts/bench-ingest.ts.
 */
import { createMeshNode, MESH_TOPICS, type MeshTopic, TOPIC_BROADCAST, TOPIC_NOTARY } from '../lib/mesh';
import { buildEnvelope } from '../lib/protocol/envelope';
import { fromHex } from '../lib/protocol/hex';
import { encodeFeedback, encodeNotarizeBid } from '../lib/protocol/payloads';
import { MsgType } from '../lib/protocol/types';

type Cmd =
  | { t: 'config'; seedHex: string; idHex: string; bootstrap: string[]; topicIndex: number; sign?: boolean }
  | { t: 'run'; count: number; ratePerSec: number }
  | { t: 'stop' };

const nowMs = () => performance.timeOrigin + performance.now();
let seed: Uint8Array;
let id: Uint8Array;
let nonce = 0n;
let node: Awaited<ReturnType<typeof createMeshNode>> | undefined;
let topic: MeshTopic = TOPIC_BROADCAST;
let msgType: number = MsgType.BEACON;
let payload: Uint8Array = new Uint8Array(300).fill(0x5a);
const streamClosed: string[] = [];

/** Each publisher gossips on its own topic, with the msg type and payload that topic carries. */
function useTopic(i: number): void {
  topic = MESH_TOPICS[i % MESH_TOPICS.length];
  const conv = new Uint8Array(16).fill(1);
  if (topic === TOPIC_NOTARY) {
    msgType = MsgType.NOTARIZE_BID;
    payload = encodeNotarizeBid({ bidType: 1, conversationId: conv, terms: new Uint8Array(283).fill(0x5a) });
  } else if (topic !== TOPIC_BROADCAST) {
    msgType = MsgType.FEEDBACK;
    payload = encodeFeedback({
      conversationId: conv,
      targetAgent: new Uint8Array(32).fill(2),
      score: 50,
      outcome: 2,
      isDispute: false,
      role: 0,
    });
  }
}

const build = (tsMs: number) =>
  buildEnvelope(
    {
      msgType,
      sender: id,
      timestamp: BigInt(Math.round(tsMs * 1000)),
      nonce: ++nonce,
      conversationId: new Uint8Array(16),
      payload,
    },
    seed,
  ).bytes;

/**
 * Every envelope is signed before the clock starts, so the publishers' own signing does not
 * compete with the observer for the two cores. ratePerSec 0 = as fast as gossipsub's
 * backpressure allows (timestamps = signing time, well inside the 30 s window for the bench's
 * sizes). Paced: envelope i carries its scheduled publish time `t0 + i / rate` as timestamp and
 * is published at that time, so observer-side latency counts from the scheduled publish (a
 * publisher running late only makes the figure worse).
 */
async function run(count: number, ratePerSec: number): Promise<void> {
  const lead = 100 + count * 0.2; // ms to sign everything first (~30 µs each, with margin)
  const t0 = ratePerSec > 0 ? nowMs() + lead : 0;
  const prebuilt = Array.from({ length: count }, (_, i) =>
    build(ratePerSec > 0 ? t0 + (i * 1000) / ratePerSec : nowMs()),
  );
  const cpu0 = process.cpuUsage();
  const start = ratePerSec > 0 ? t0 : nowMs();
  let sent = 0;
  let late = 0;
  let unsent = 0;
  for (let i = 0; i < count; i++) {
    if (ratePerSec > 0) {
      const due = t0 + (i * 1000) / ratePerSec;
      const wait = due - nowMs();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      else if (wait < -5) late++;
    }
    // A publish that reached no peer is lost (gossipsub has no stream to the observer, e.g.
    // after a reset): counted so the bench can tell loss in transit from loss at the observer.
    if ((await node!.publish(topic, prebuilt[i])).recipients === 0) unsent++;
    sent++;
  }
  // When publishes reached no peer: what this node thinks of the observer (which of gossipsub's
  // conditions for sending to it failed).
  let noPeer: string | undefined;
  if (unsent > 0) {
    const gs = (
      node!.libp2p.services as unknown as {
        pubsub: {
          getScore(p: string): number;
          topics: Map<string, Set<string>>;
          streamsOutbound: Map<string, unknown>;
        };
      }
    ).pubsub;
    noPeer =
      node!
        .peers()
        .map(
          (p) =>
            `${p.slice(-6)}: score ${gs.getScore(p).toFixed(1)}, subscribed ` +
            `${gs.topics.get(topic)?.has(p) ?? false}, outbound stream ` +
            `${gs.streamsOutbound.has(p)}, mesh ${node!.meshPeers(topic).includes(p)}`,
        )
        .join('; ') || 'no connected peer';
  }
  process.send!({
    t: 'done',
    sent,
    unsent,
    noPeer,
    streamClosed: streamClosed.splice(0),
    late,
    start,
    elapsedMs: nowMs() - start,
    cpu: process.cpuUsage(cpu0),
  });
}

process.on('message', async (m: Cmd) => {
  if (m.t === 'config') {
    seed = fromHex(m.seedHex);
    id = fromHex(m.idHex);
    nonce = BigInt(Date.now()) * 1000n;
    useTopic(m.topicIndex);
    // One topic per publisher (up to three): the observer then has no other publisher to relay
    // to, so the bench measures ingest rather than gossip relaying between publishers.
    // `sign`: GossipSub's own per-message signature (the naive observer's setting; both ends must agree).
    node = await createMeshNode({
      listen: ['/ip4/127.0.0.1/tcp/0'],
      bootstrap: m.bootstrap,
      validate: () => 'ignore',
      dht: false,
      topics: [topic],
      signaturePolicy: m.sign ? 'StrictSign' : undefined,
    });
    while (node.meshPeers(topic).length === 0) await new Promise((r) => setTimeout(r, 50));
    // Why the gossip stream to the observer ends, if it does (the bench prints it).
    const outbound = (
      node.libp2p.services as unknown as { pubsub: { streamsOutbound: Map<string, { rawStream: EventTarget }> } }
    ).pubsub.streamsOutbound;
    for (const s of outbound.values()) {
      s.rawStream.addEventListener(
        'close',
        (e) => {
          streamClosed.push(String((e as Event & { error?: Error }).error?.message ?? 'closed without an error'));
        },
        { once: true },
      );
    }
    process.send!({ t: 'ready' });
  } else if (m.t === 'run') {
    await run(m.count, m.ratePerSec);
  } else if (m.t === 'stop') {
    await node?.stop();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));

/**
 * The mesh node factory shared by the observer and every agent (docs/architecture.md "Mesh",
 * docs/protocol.md §9, 0x01 spec §11). libp2p 3 + @libp2p/gossipsub 17; see README.md.
 */
import './shims';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { bootstrap } from '@libp2p/bootstrap';
import { type GossipSub, gossipsub, StrictNoSign, StrictSign, TopicValidatorResult } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import type { Libp2p, PeerDiscovery, PeerId, Stream } from '@libp2p/interface';
import { kadDHT, passthroughMapper } from '@libp2p/kad-dht';
import { mdns } from '@libp2p/mdns';
import { ping } from '@libp2p/ping';
import { tcp } from '@libp2p/tcp';
import { webSockets } from '@libp2p/websockets';
import { createLibp2p } from 'libp2p';
import { keccak256 } from '../protocol/crypto';
import { toHex } from '../protocol/hex';
import { resolveMeshConfig } from './config';
import {
  DHT_PROTOCOL,
  DRAIN_TIMEOUT_MS,
  GOSSIP_MAX_OUTBOUND_BUFFER_BYTES,
  GOSSIP_MAX_RPC_BYTES,
  type MeshLimits,
  type MeshTopic,
  PING_INTERVAL_MS,
  PING_TIMEOUT_MAX_MS,
  PING_TIMEOUT_MIN_MS,
  type RelayLimits,
  SEEN_TTL_MS,
} from './constants';
import { EnvelopeStreams, parseTarget, type SendTarget } from './envelope-stream';
import { MeshStoppedError } from './errors';
import { skipOversizeFrames } from './frames';
import { createInboundPipeline } from './inbound';
import { toPrivateKey } from './keys';
import { PeerRateLimiter } from './rate-limit';
import { isMeshTopic } from './topics';
import type { CreateMeshNodeParams, MeshStats, MeshValidationResult, PublishResult } from './types';

/** A running mesh node. Every method throws MeshStoppedError after stop(). */
export interface MeshNode {
  /** This node's libp2p peer id (base58). */
  readonly peerId: string;
  /** The limits in force (spec §11 unless overridden). */
  readonly limits: Readonly<MeshLimits>;
  /** The circuit relay's limits, or null when this node relays nothing. */
  readonly relay: Readonly<RelayLimits> | null;
  /** Peers holding a relay reservation here now. */
  relayReservations(): string[];
  /**
   * Publishes an envelope on a docs/protocol.md §9 topic. Resolves after gossipsub has queued it
   * and every recipient's outbound stream that reported a full buffer has drained (or
   * DRAIN_TIMEOUT_MS passed), so a sender that awaits each publish never builds an unbounded
   * queue. Throws TypeError for an unknown topic, RangeError over maxMessageBytes.
   */
  publish(topic: MeshTopic, bytes: Uint8Array): Promise<PublishResult>;
  /** Sends one envelope on `/0x01/v1/envelope` to a peer id or multiaddr, reusing the stream. */
  sendEnvelope(target: SendTarget, bytes: Uint8Array): Promise<void>;
  /** Dials a peer id or multiaddr (no protocol); resolves with the remote peer id. */
  dial(target: SendTarget): Promise<string>;
  /** Connected peer ids. */
  peers(): string[];
  /** Addresses this node listens on, each with /p2p/<peerId>. */
  multiaddrs(): string[];
  /** Peers subscribed to `topic` as far as gossipsub knows. */
  subscribers(topic: MeshTopic): string[];
  /** Peers in this node's gossipsub mesh for `topic` (these receive forwarded messages). */
  meshPeers(topic: MeshTopic): string[];
  stats(): MeshStats;
  stop(): Promise<void>;
  /** Escape hatch for diagnostics and tests; other areas must not depend on libp2p types. */
  readonly libp2p: Libp2p;
}

type OutboundStreams = Map<string, { rawStream: Stream }>;

/**
 * Creates and starts a mesh node: TCP + WebSockets, Noise, Yamux, identify, ping, GossipSub
 * (StrictNoSign, message id = keccak256 of the data = the envelope id, docs/protocol.md §9),
 * Kademlia DHT, optional mDNS, bootstrap list, and the `/0x01/v1/envelope` stream protocol,
 * with the spec §11 limits on every inbound message. Throws TypeError/RangeError naming the
 * parameter for bad config.
 */
export async function createMeshNode(params: CreateMeshNodeParams): Promise<MeshNode> {
  const cfg = resolveMeshConfig(params);
  const privateKey = await toPrivateKey(params.privateKey).catch((e: unknown) => {
    if (e instanceof TypeError) throw new TypeError(`params.${e.message}`, { cause: e.cause });
    throw e;
  });
  const { limits } = cfg;
  const limiter = new PeerRateLimiter({ ratePerSecond: limits.messagesPerSecond, burst: limits.burst, now: cfg.now });
  const inbound = createInboundPipeline({
    limiter,
    maxMessageBytes: limits.maxMessageBytes,
    validate: params.validate,
    onAccepted: params.onAccepted,
    onEnvelope: params.onEnvelope,
    onDrop: params.onDrop,
    now: cfg.now,
  });

  // Loaded only for a node that keeps metrics (the observer), not by every demo agent.
  const metered = params.metrics
    ? (await import('./metrics')).meshMetrics(params.metrics, cfg.topics, params.libp2pMetrics === true)
    : null;

  // Each libp2p module takes its own components type; libp2p passes them all.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  const peerDiscovery: Array<(components: any) => PeerDiscovery> = [];
  // The bootstrap module waits 1 s (its default) before dialling the list; a node that has
  // nothing to do until it is connected dials at once.
  if (cfg.bootstrap.length > 0) peerDiscovery.push(bootstrap({ list: cfg.bootstrap, timeout: 0 }));
  if (cfg.mdns) peerDiscovery.push(mdns());

  // biome-ignore lint/suspicious/noExplicitAny: as above, for services
  const services: Record<string, (components: any) => unknown> = {
    identify: identify(),
    ping: ping(),
    pubsub: gossipsub({
      globalSignaturePolicy: cfg.signaturePolicy === 'StrictSign' ? StrictSign : StrictNoSign,
      msgIdFn: (msg) => keccak256(msg.data),
      msgIdToStrFn: toHex,
      allowPublishToZeroTopicPeers: true,
      ignoreDuplicatePublishError: true,
      emitSelf: false,
      fallbackToFloodsub: false,
      allowedTopics: cfg.topics,
      maxInboundDataLength: GOSSIP_MAX_RPC_BYTES,
      maxOutboundBufferSize: GOSSIP_MAX_OUTBOUND_BUFFER_BYTES,
      heartbeatInterval: cfg.heartbeatMs,
      // GossipSub remembers every message id for 2 minutes by default. An envelope older than
      // the timestamp tolerance is refused by validation anyway (and a repeat within it as a
      // replay), so ids are kept only that long: at thousands of envelopes per second the
      // default kept hundreds of thousands of ids live, and garbage collection walked them all.
      seenTTL: SEEN_TTL_MS,
      ...(metered?.gossipsub ?? {}),
    }),
  };
  if (cfg.relay) {
    const r = cfg.relay;
    // Server only: the node relays for others but does not dial through relays or speak WebRTC
    // itself (that would pull a native data-channel module into Node for nothing). Loaded only
    // here: every demo agent is its own process and relays nothing.
    const { circuitRelayServer } = await import('@libp2p/circuit-relay-v2');
    services.relay = circuitRelayServer({
      hopTimeout: r.hopTimeoutMs,
      maxInboundHopStreams: r.maxHopStreams,
      maxOutboundHopStreams: r.maxHopStreams,
      maxOutboundStopStreams: r.maxHopStreams,
      reservations: {
        maxReservations: r.maxReservations,
        reservationTtl: r.reservationTtlMs,
        applyDefaultLimit: true,
        defaultDurationLimit: r.durationLimitMs,
        defaultDataLimit: r.dataLimitBytes,
      },
    });
  }
  if (cfg.dht) {
    services.dht = kadDHT({ protocol: DHT_PROTOCOL, clientMode: false, peerInfoMapper: passthroughMapper });
  }

  const libp2p = (await createLibp2p({
    privateKey,
    ...(metered?.libp2p ? { metrics: metered.libp2p } : {}),
    addresses: { listen: cfg.listen },
    transports: [tcp(), webSockets()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    peerDiscovery,
    connectionManager: { maxConnections: limits.maxConnections },
    connectionMonitor: {
      pingInterval: PING_INTERVAL_MS,
      pingTimeout: { minTimeout: PING_TIMEOUT_MIN_MS, maxTimeout: PING_TIMEOUT_MAX_MS },
    },
    services,
    // Started below, once gossipsub reads its inbound streams through the oversize filter.
    start: false,
  } as Parameters<typeof createLibp2p>[0])) as unknown as Libp2p<{ pubsub: GossipSub }>;
  const gs = libp2p.services.pubsub;
  skipOversizeGossipFrames(gs, GOSSIP_MAX_RPC_BYTES, (peer) => inbound.drop('oversize', peer, 'gossip'));
  await libp2p.start();

  for (const topic of cfg.topics) {
    gs.topicValidators.set(topic, async (peer, msg) =>
      toGossip(await inbound.handle(msg.data, peer.toString(), topic, 'gossip')),
    );
    gs.subscribe(topic);
  }

  const streams = new EnvelopeStreams({
    libp2p,
    maxMessageBytes: limits.maxMessageBytes,
    onFrame: (bytes, peer) => inbound.handle(bytes, peer, '/0x01/v1/envelope', 'stream'),
    onBadFrame: (reason, peer) => inbound.drop(reason, peer, 'stream'),
  });
  await streams.start();

  // libp2p 3 does not dial what discovery finds; mDNS peers are dialled here while there is room.
  let stopped = false;
  if (cfg.mdns) {
    libp2p.addEventListener('peer:discovery', (evt) => {
      const id = evt.detail.id;
      if (stopped || libp2p.getConnections(id).length > 0) return;
      if (libp2p.getConnections().length >= limits.maxConnections) return;
      libp2p.dial(id).catch(() => undefined);
    });
  }

  const live = () => {
    if (stopped) throw new MeshStoppedError('mesh node is stopped');
  };

  const node: MeshNode = {
    peerId: libp2p.peerId.toString(),
    limits: Object.freeze({ ...limits }),
    relay: cfg.relay ? Object.freeze({ ...cfg.relay }) : null,
    relayReservations: () => {
      const relay = (libp2p.services as { relay?: { reservations: Map<unknown, unknown> } }).relay;
      return relay ? [...relay.reservations.keys()].map(String) : [];
    },
    libp2p,
    async publish(topic, bytes) {
      live();
      if (!isMeshTopic(topic) || !cfg.topics.includes(topic))
        throw new TypeError(`topic is not subscribed: ${String(topic)}`);
      if (!(bytes instanceof Uint8Array)) throw new TypeError('bytes must be a Uint8Array');
      if (bytes.length > limits.maxMessageBytes) {
        throw new RangeError(`bytes must be at most ${limits.maxMessageBytes} bytes, got ${bytes.length}`);
      }
      const res = await gs.publish(topic, bytes);
      await drainOutbound(gs, res.recipients.map(String));
      return { recipients: res.recipients.length };
    },
    async sendEnvelope(target, bytes) {
      live();
      if (!(bytes instanceof Uint8Array)) throw new TypeError('bytes must be a Uint8Array');
      if (bytes.length > limits.maxMessageBytes) {
        throw new RangeError(`bytes must be at most ${limits.maxMessageBytes} bytes, got ${bytes.length}`);
      }
      await streams.send(target, bytes);
    },
    async dial(target) {
      live();
      const { peer, addr } = parseTarget(target);
      const conn = await libp2p.dial(addr ?? peer!);
      return conn.remotePeer.toString();
    },
    peers: () => libp2p.getPeers().map(String),
    multiaddrs: () => libp2p.getMultiaddrs().map(String),
    subscribers: (topic) => gs.getSubscribers(topic).map(String),
    meshPeers: (topic) => (gs as unknown as { getMeshPeers(t: string): string[] }).getMeshPeers(topic),
    stats: () => inbound.stats(),
    async stop() {
      if (stopped) return;
      stopped = true;
      await streams.stop();
      await libp2p.stop();
    },
  };
  return node;
}

/**
 * GossipSub reads each peer's RPCs from one inbound stream through it-length-prefixed, capped
 * at `maxRpcBytes`; a longer frame throws, gossipsub then forgets the peer (no log above debug,
 * no count), the sender keeps writing into a stream nobody reads, and every envelope it
 * sends after the big frame is lost. So the raw stream is handed to gossipsub through
 * {@link skipOversizeFrames}: the oversize RPC is skipped and reported, the next ones are read.
 * gossipsub 17 builds that reader in `createInboundStream(peerId, stream)`, from the stream's
 * async iterator (anything without `addEventListener` is read as a plain source) and its
 * `close`/`abort`; the wrapper offers exactly that. A gossipsub without the method fails here,
 * at start, rather than losing the filter silently.
 */
function skipOversizeGossipFrames(gs: GossipSub, maxRpcBytes: number, onOversize: (peer: string) => void): void {
  const target = gs as unknown as { createInboundStream?: (this: unknown, peerId: PeerId, stream: unknown) => void };
  const original = target.createInboundStream;
  if (typeof original !== 'function')
    throw new Error(
      'lib/mesh: @libp2p/gossipsub has no createInboundStream; ' +
        'the oversize-frame filter must be adapted to this version',
    );
  target.createInboundStream = function (this: unknown, peerId: PeerId, raw: unknown) {
    const stream = raw as Stream;
    const peer = peerId.toString();
    const filtered = {
      [Symbol.asyncIterator]: () =>
        skipOversizeFrames(stream, { maxDataLength: maxRpcBytes, onOversize: () => onOversize(peer) }),
      close: (options?: Parameters<Stream['close']>[0]) => stream.close(options),
      abort: (err: Error) => stream.abort(err),
    };
    original.call(this, peerId, filtered);
  };
}

function toGossip(r: MeshValidationResult): TopicValidatorResult {
  if (r === 'accept') return TopicValidatorResult.Accept;
  if (r === 'reject') return TopicValidatorResult.Reject;
  return TopicValidatorResult.Ignore;
}

/**
 * gossipsub 17 writes without backpressure (its OutboundStream has a "TODO: backpressure"),
 * so publish() waits here on any recipient stream that reports a full buffer, until its
 * `drain` event (the stream's own onDrain() promise is not renewed after the first drain, so
 * it cannot be used) or DRAIN_TIMEOUT_MS.
 */
async function drainOutbound(gs: GossipSub, recipients: string[]): Promise<void> {
  const outbound = (gs as unknown as { streamsOutbound?: OutboundStreams }).streamsOutbound;
  if (outbound === undefined) return;
  const waits: Promise<void>[] = [];
  for (const id of recipients) {
    const raw = outbound.get(id)?.rawStream;
    if (raw?.writableNeedsDrain === true) waits.push(writable(raw, Date.now() + DRAIN_TIMEOUT_MS));
  }
  if (waits.length > 0) await Promise.all(waits);
}

/** Resolves once `raw` accepts writes again, it closes, or the deadline passes. */
async function writable(raw: Stream, deadline: number): Promise<void> {
  while (raw.writableNeedsDrain && raw.status === 'open') {
    const left = deadline - Date.now();
    if (left <= 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        raw.removeEventListener('drain', done);
        raw.removeEventListener('close', done);
        resolve();
      };
      const timer = setTimeout(done, left);
      raw.addEventListener('drain', done);
      raw.addEventListener('close', done);
    });
  }
}

/**
 * Public shapes of lib/mesh (docs/protocol.md §9, 0x01 spec §11).
 */
import type { Envelope } from '../protocol/types';
import type { MeshLimits, MeshTopic, RelayLimits } from './constants';

/** How an envelope reached this node. */
export type MeshVia = 'gossip' | 'stream';

/** A validator's verdict; maps to gossipsub's TopicValidatorResult. */
export type MeshValidationResult = 'accept' | 'reject' | 'ignore';

/**
 * An accepted envelope in the shape lib/protocol's validation returns (`{ ok: true, envelope, id }`).
 * A validator that returns one accepts the message, and the node hands that very object to
 * `onAccepted`: whoever ingests it gets the decoded envelope and its id without decoding again.
 */
export interface MeshAccepted {
  readonly ok: true;
  readonly envelope: Envelope;
  /** keccak256 of the encoded envelope (= the gossipsub message id). */
  readonly id: Uint8Array;
}

/**
 * A validator may also return a reason with a reject/ignore (e.g. a docs/protocol.md §3 code such
 * as `signature`); the node passes it to `onDrop` instead of the generic `rejected`/`ignored`.
 * Returning a {@link MeshAccepted} accepts and delivers it to `onAccepted`.
 */
export type MeshValidationOutcome =
  | MeshValidationResult
  | { result: 'reject' | 'ignore'; reason: string }
  | MeshAccepted;

export interface MeshValidateMeta {
  /** Remote peer id the bytes came from (the gossip propagation source, or the stream's peer). */
  peer: string;
  /** The GossipSub topic; for a stream envelope, the protocol id `/0x01/v1/envelope`. */
  topic: string;
  via: MeshVia;
}

/**
 * Decides whether an envelope is delivered (and, on gossip, forwarded). `reject` also lowers
 * the sender's gossipsub score; `ignore` drops without penalty. Throwing counts as `ignore`
 * with reason `validator_error`.
 */
export type MeshValidator = (
  bytes: Uint8Array,
  meta: MeshValidateMeta,
) => Promise<MeshValidationOutcome> | MeshValidationOutcome;

export interface MeshEnvelopeMeta {
  peer: string;
  /** Set for gossip; undefined for stream envelopes. */
  topic?: MeshTopic;
  via: MeshVia;
  /** Arrival time (before validation) from the node's clock, ms. */
  receivedAt: number;
}

/**
 * Drop reasons the node itself produces. A validator-supplied reason (see
 * {@link MeshValidationOutcome}) is passed through as is.
 * - `rate_limit`: over the per-peer token bucket (spec §11: 100 messages/s).
 * - `oversize`: over `maxMessageBytes` (65,536, docs/protocol.md §2).
 * - `rejected` / `ignored`: the validator said so without a reason.
 * - `validator_error`: the validator threw.
 * - `stream_error`: a malformed `/0x01/v1/envelope` frame (bad varint, truncated).
 */
export type MeshDropReason = 'rate_limit' | 'oversize' | 'rejected' | 'ignored' | 'validator_error' | 'stream_error';

export type MeshDropHandler = (reason: MeshDropReason | string, peer: string, source: MeshVia) => void;
export type MeshEnvelopeHandler = (bytes: Uint8Array, meta: MeshEnvelopeMeta) => void;
/**
 * Receives what the validator accepted, once per accepted message, right after validation (in
 * the order validations finish). `meta` is the object the validator was given.
 */
export type MeshAcceptedHandler = (accepted: MeshAccepted, bytes: Uint8Array, meta: MeshValidateMeta) => void;

/** Counters since start; handy for /api/health and benches. */
export interface MeshStats {
  accepted: Record<MeshVia, number>;
  drops: Record<string, number>;
}

export interface PublishResult {
  /** Peers the message was handed to (0 when no peer subscribes to the topic yet). */
  recipients: number;
}

/** Parameters of {@link createMeshNode}. */
export interface CreateMeshNodeParams {
  /** Required: run on every inbound gossip message and stream envelope. */
  validate: MeshValidator;
  /** Called for each message the validator accepted with a {@link MeshAccepted} (the ingest seam). */
  onAccepted?: MeshAcceptedHandler;
  onEnvelope?: MeshEnvelopeHandler;
  onDrop?: MeshDropHandler;
  /**
   * The node's Ed25519 libp2p key: a `PrivateKey` from @libp2p/crypto, its protobuf bytes
   * (from {@link generateMeshKey}), or a 32-byte seed. Generated when absent.
   */
  privateKey?: unknown;
  /** Listen multiaddrs. Default: 127.0.0.1, ephemeral ports, TCP and WebSockets. */
  listen?: readonly string[];
  /** Bootstrap multiaddrs (with /p2p/<id>); dialled at start and re-dialled by libp2p. */
  bootstrap?: readonly string[];
  /** mDNS discovery on the LAN. Default false (tests and loopback demos need none). */
  mdns?: boolean;
  /** Kademlia DHT (server mode, private protocol id). Default true. */
  dht?: boolean;
  /** Topics to subscribe to and validate. Default: all three of docs/protocol.md §9. */
  topics?: readonly MeshTopic[];
  /** Override spec limits (tests, benches). */
  limits?: Partial<MeshLimits>;
  /** Clock for rate limiting and receivedAt, ms. Default Date.now. */
  now?: () => number;
  /** GossipSub heartbeat, ms. Default 1,000 (gossipsub's own default). */
  heartbeatMs?: number;
  /**
   * Serve as a circuit relay v2 (the hop protocol) so browser nodes reserve a relayed address
   * here and signal WebRTC connections to each other through it. `true` takes
   * DEFAULT_RELAY_LIMITS; an object overrides some of them. Default false (agents relay nothing).
   */
  relay?: boolean | Partial<RelayLimits>;
  /**
   * GossipSub's own message signatures. Default 'StrictNoSign' (docs/protocol.md §9: envelopes
   * carry their own signature, so a second one per message only costs CPU); 'StrictSign' is
   * GossipSub's default, kept for the naive baseline of `npm run bench:ingest`. Every node of a
   * mesh must use the same policy.
   */
  signaturePolicy?: 'StrictNoSign' | 'StrictSign';
  /**
   * A prom-client Registry: libp2p's metrics (@libp2p/prometheus-metrics) and GossipSub's
   * (lib/mesh/metrics.ts) are registered there, per topic. Default none (no metrics cost).
   */
  metrics?: import('prom-client').Registry;
  /** With `metrics`: also libp2p's own (every frame of every stream is counted: it costs CPU). Default false. */
  libp2pMetrics?: boolean;
}

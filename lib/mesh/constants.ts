/**
 * Mesh constants: topic names and stream protocol (docs/protocol.md §9), limits (0x01 spec §11,
 * docs/architecture.md "Limits"). One place for every lib/mesh default.
 */
import { MAX_CONNECTIONS, MAX_ENVELOPE_BYTES, MAX_MESSAGES_PER_SECOND_PER_PEER, TIMESTAMP_TOLERANCE_US } from '../protocol/constants';

/** GossipSub topics, docs/protocol.md §9. */
export const TOPIC_BROADCAST = '/0x01/v1/broadcast';
export const TOPIC_NOTARY = '/0x01/v1/notary';
export const TOPIC_REPUTATION = '/0x01/v1/reputation';
/** All three topics, in docs/protocol.md §9 order. */
export const MESH_TOPICS = [TOPIC_BROADCAST, TOPIC_NOTARY, TOPIC_REPUTATION] as const;
export type MeshTopic = (typeof MESH_TOPICS)[number];

/** Bilateral stream protocol: one unsigned-varint length-prefixed envelope per message (§9). */
export const ENVELOPE_PROTOCOL = '/0x01/v1/envelope';
/** Kademlia protocol id: a private DHT for the 0x01 mesh rather than the public IPFS one. */
export const DHT_PROTOCOL = '/0x01/kad/1.0.0';

/** Limits enforced by every mesh node (spec §11). */
export interface MeshLimits {
  /** libp2p connection manager cap. */
  maxConnections: number;
  /** Sustained messages per second accepted from one remote peer, gossip and stream together. */
  messagesPerSecond: number;
  /** Token-bucket depth: messages a quiet peer may send at once. */
  burst: number;
  /** Largest envelope, bytes, on gossip and on streams. */
  maxMessageBytes: number;
}

export const DEFAULT_MESH_LIMITS: Readonly<MeshLimits> = Object.freeze({
  maxConnections: MAX_CONNECTIONS,
  messagesPerSecond: MAX_MESSAGES_PER_SECOND_PER_PEER,
  burst: MAX_MESSAGES_PER_SECOND_PER_PEER,
  maxMessageBytes: MAX_ENVELOPE_BYTES,
});

/**
 * GossipSub inbound RPC frame cap. One RPC may carry several messages (an IWANT reply batches
 * them), so the frame cap is 16 envelopes, not one: a single-envelope cap would make
 * gossipsub kill the whole inbound stream on a legitimate batch. Per-message size is enforced
 * in the topic validator, where it can be reported as `oversize`.
 */
export const GOSSIP_MAX_RPC_BYTES = 16 * MAX_ENVELOPE_BYTES;
/** Per-peer gossipsub outbound buffer; a peer that stops reading past this loses its stream. */
export const GOSSIP_MAX_OUTBOUND_BUFFER_BYTES = 16 * 1024 * 1024;
/** Longest a publish()/sendEnvelope() waits for a full outbound buffer to drain. */
export const DRAIN_TIMEOUT_MS = 10_000;
/** Inbound `/0x01/v1/envelope` streams allowed per connection (a sender reuses one). */
export const ENVELOPE_MAX_INBOUND_STREAMS = 8;
/** Default listen addresses: loopback, ephemeral ports, TCP and WebSockets. */
export const DEFAULT_LISTEN = ['/ip4/127.0.0.1/tcp/0', '/ip4/127.0.0.1/tcp/0/ws'] as const;

/**
 * How long GossipSub remembers a message id, ms: the timestamp tolerance of live validation
 * (docs/protocol.md §3, 30 s) plus 5 s, past which a repeat is refused by validation anyway.
 */
export const SEEN_TTL_MS = Number(TIMESTAMP_TOLERANCE_US / 1000n) + 5_000;

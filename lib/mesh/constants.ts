/**
 * Mesh constants: topic names and stream protocol (docs/protocol.md §9), limits (0x01 spec §11,
 * docs/protocol.md §10). One place for every lib/mesh default.
 */
import {
  MAX_CONNECTIONS,
  MAX_ENVELOPE_BYTES,
  MAX_MESSAGES_PER_SECOND_PER_PEER,
  TIMESTAMP_TOLERANCE_US,
} from '../protocol/constants';

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
/**
 * libp2p's connection monitor pings every connection and aborts it when the answer is late or the
 * ping cannot start. Its defaults (every 10 s, a timeout from 5 s growing with the measured round
 * trip up to 60 s) abort live connections of a loaded node: the ping shares the TCP connection
 * with the gossip it carries, so a node whose event loop is seconds behind (an observer on a
 * busy machine with megabytes of gossip queued) answers late though alive, and a ping still
 * pending when the next is due fails the second ("too many outbound protocol streams"), which
 * aborts the connection too. bench:ingest saw both, each losing every envelope in flight and
 * every later publish. So: a ping every 30 s, answered within 20–25 s (always before the next
 * one starts); a dead peer is still dropped, within a minute.
 */
export const PING_INTERVAL_MS = 30_000;
export const PING_TIMEOUT_MIN_MS = 20_000;
export const PING_TIMEOUT_MAX_MS = 25_000;
/** Longest a publish()/sendEnvelope() waits for a full outbound buffer to drain. */
export const DRAIN_TIMEOUT_MS = 10_000;
/** Inbound `/0x01/v1/envelope` streams allowed per connection (a sender reuses one). */
export const ENVELOPE_MAX_INBOUND_STREAMS = 8;
/** Default listen addresses: loopback, ephemeral ports, TCP and WebSockets. */
export const DEFAULT_LISTEN = ['/ip4/127.0.0.1/tcp/0', '/ip4/127.0.0.1/tcp/0/ws'] as const;

/**
 * Circuit relay v2 limits of a node that relays for browsers (the observer). The relay carries
 * only the WebRTC signalling between two browsers (an SDP offer, an answer and ICE candidates:
 * a few KiB, a few seconds); gossip then flows over the direct WebRTC connection, so a relayed
 * connection is held to a small data and time budget and cannot become a free proxy.
 */
export interface RelayLimits {
  /** Browsers holding a reservation at once; the next one is refused until a slot expires. */
  maxReservations: number;
  /** A reservation lasts this long; a live browser renews it 5 min before (libp2p's client). */
  reservationTtlMs: number;
  /** Longest a relayed connection stays open. */
  durationLimitMs: number;
  /** Bytes a relayed connection may carry, both directions together. */
  dataLimitBytes: bigint;
  /** A relay request (reserve or connect) must complete within this. */
  hopTimeoutMs: number;
  /** Relay requests handled at once per connection, inbound and outbound. */
  maxHopStreams: number;
}

export const DEFAULT_RELAY_LIMITS: Readonly<RelayLimits> = Object.freeze({
  maxReservations: 32,
  // Short enough that a closed tab's slot frees within minutes (the relay keeps a reservation
  // until it expires, not until the connection closes), long enough that renewals are rare.
  reservationTtlMs: 15 * 60_000,
  durationLimitMs: 2 * 60_000,
  dataLimitBytes: 128n * 1024n,
  hopTimeoutMs: 15_000,
  maxHopStreams: 16,
});

/**
 * How long GossipSub remembers a message id, ms: the timestamp tolerance of live validation
 * (docs/protocol.md §3, 30 s) plus 5 s, past which a repeat is refused by validation anyway.
 */
export const SEEN_TTL_MS = Number(TIMESTAMP_TOLERANCE_US / 1000n) + 5_000;

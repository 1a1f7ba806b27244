/**
 * Public shapes of lib/store.
 * Byte fields are Uint8Array; 64-bit protocol integers are bigint.
 */

import type { ReputationState } from '../protocol/reputation';
import type { Envelope } from '../protocol/types';
import type { EnvelopeSource } from '../wire/events';

/** Where an envelope came from (gossip, stream or upload). */
export type { EnvelopeSource };
export const ENVELOPE_SOURCES: readonly EnvelopeSource[] = ['gossip', 'stream', 'upload'];

/** One validated envelope to store. `id` = keccak256(raw) (docs/protocol.md §3). */
export interface IngestItem {
  id: Uint8Array;
  envelope: Envelope;
  raw: Uint8Array;
  source: EnvelopeSource;
  topic?: string;
  receivedAt: Date;
}

/** Outcome of one ingest call. Only `newIds` were stored by this call (feed them live). */
export interface IngestResult {
  inserted: number;
  duplicates: number;
  newIds: Uint8Array[];
  /** Agents first stored by this call (for `agent_joined`). */
  newAgents: Uint8Array[];
}

/** A stored envelope with its receipt metadata. */
export interface StoredEnvelope {
  id: Uint8Array;
  /** Insertion order; cursor for `recentEnvelopes({ before })`. */
  seq: bigint;
  envelope: Envelope;
  raw: Uint8Array;
  source: EnvelopeSource;
  topic: string | null;
  receivedAt: Date;
  epoch: number;
}

export interface RecentEnvelopesParams {
  limit?: number;
  /** Only envelopes with seq < before. */
  before?: bigint;
  type?: number;
  /** Sender or recipient. */
  agent?: Uint8Array;
  conversation?: Uint8Array;
  /** Envelope timestamp window (the sender's clock), unix ms, inclusive. */
  fromMs?: number;
  toMs?: number;
}

/** A dropped envelope (docs/protocol.md §3 reason codes, or a mesh limit such as `rate_limit`). */
export interface DropRecord {
  reason: string;
  peer?: string;
  source?: EnvelopeSource | string;
  detail?: string;
  at?: Date;
}

export interface AgentRow {
  id: Uint8Array;
  firstSeen: Date;
  lastSeen: Date;
  label: string | null;
  online: boolean;
  sent: number;
}

export interface ConversationRow {
  id: Uint8Array;
  participants: Uint8Array[];
  firstSeen: Date;
  lastSeen: Date;
  state: string;
  messageCount: number;
  lastType: number;
  outcome: string | null;
}

export interface ConversationDetail extends ConversationRow {
  envelopes: StoredEnvelope[];
  feedback: FeedbackRow[];
  notaryBids: NotaryBidRow[];
}

export interface FeedbackRow {
  envelopeId: Uint8Array;
  conversationId: Uint8Array;
  fromAgent: Uint8Array;
  targetAgent: Uint8Array;
  score: number;
  outcome: number;
  isDispute: boolean;
  role: number;
  timestamp: bigint;
}

export interface NotaryBidRow {
  envelopeId: Uint8Array;
  conversationId: Uint8Array;
  bidder: Uint8Array;
  recipient: Uint8Array;
  bidType: number;
  terms: Uint8Array;
  timestamp: bigint;
}

export interface GraphEdge {
  a: Uint8Array;
  b: Uint8Array;
  messages: number;
}

export interface ConversationGraph {
  nodes: AgentRow[];
  edges: GraphEdge[];
}

/** Reputation vector (docs/protocol.md §7); `kind` gossip = live fold, batch = authoritative. */
export interface ReputationRow extends ReputationState {
  agentId: Uint8Array;
  kind: 'gossip' | 'batch';
  lastEpoch: number | null;
  updatedAt: Date;
}

export interface StoreHealth {
  ok: boolean;
  database: 'pglite' | 'postgres';
  error?: string;
  envelopes: number;
  agents: number;
  conversations: number;
  drops: number;
}

/** On-chain (Haggle) negotiations: haggle.ts. */
export type { HaggleNegotiationRow, HaggleTransitionRow } from './chain/haggle';

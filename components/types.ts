/**
 * JSON view models shared by the API routes, the server-rendered pages and the client
 * components. Bytes are lowercase hex, 64-bit integers decimal strings, times unix milliseconds.
 */

/** One stored envelope as the feed and the API show it (PROTOCOL.md §2 header fields). */
export interface EnvelopeView {
  id: string;
  msgType: number;
  type: string;
  sender: string;
  /** 64 zeros = broadcast. */
  recipient: string;
  conversationId: string;
  /** Envelope timestamp (sender's clock). */
  timestampMs: number;
  /** When the observer stored it. */
  receivedAtMs: number | null;
  source: string | null;
  topic: string | null;
  nonce: string;
  payloadLen: number;
}

/** An agent known to the observatory. */
export interface AgentView {
  id: string;
  name: string | null;
  firstSeenMs: number | null;
  lastSeenMs: number | null;
  /** Seen within the online window. */
  online: boolean;
  envelopes: number | null;
  reputation: ReputationView | null;
}

/** Reputation vector (PROTOCOL.md §7), fixed point ONE = 1,000,000, as decimal strings. */
export interface ReputationView {
  reliabilityScore: string;
  cooperationIndex: string;
  notaryAccuracy: string;
  totalTasks: string;
  totalNotarized: string;
  totalDisputes: string;
}

export interface GraphNodeView {
  id: string;
  online: boolean;
}

/** Two agents that exchanged bilateral envelopes (a conversation pair); `messages` = how many. */
export interface GraphLinkView {
  source: string;
  target: string;
  messages: number;
}

export interface GraphView {
  nodes: GraphNodeView[];
  links: GraphLinkView[];
}

export interface StatsView {
  /** Envelopes stored, per msg_type name. */
  byType: Record<string, number>;
  /** Drops, per PROTOCOL.md §3 reason code (plus mesh reasons such as rate limiting). */
  drops: Record<string, number>;
}

export interface ConversationSummaryView {
  id: string;
  participants: string[];
  messages: number;
  state: string | null;
  firstMs: number | null;
  lastMs: number | null;
}

/** One step of a NEG1 negotiation (PROTOCOL.md §8). */
export interface PriceStepView {
  envelopeId: string;
  type: string;
  sender: string;
  round: number | null;
  /** Decimal string, token's smallest unit. */
  bidValue: string | null;
  /** neg1, negc (sealed commitment), negr (reveal) or opaque. */
  kind: string;
  timestampMs: number;
}

export interface FeedbackView {
  envelopeId: string;
  from: string;
  target: string;
  /** -100..100 */
  score: number;
  /** 0 negative, 1 neutral, 2 positive */
  outcome: number;
  isDispute: boolean;
  /** 0 participant, 1 notary */
  role: number;
}

export interface NotaryBidView {
  envelopeId: string;
  bidder: string;
  recipient: string;
  /** 0 participant request, 1 notary offer */
  bidType: number;
}

export interface ConversationView extends ConversationSummaryView {
  /** In protocol order (timestamp, nonce). */
  envelopes: EnvelopeView[];
  pricePath: PriceStepView[];
  feedback: FeedbackView[];
  notaryBids: NotaryBidView[];
}

/** What the overview renders first and reloads after a reconnect or a `lagged` notice. */
export interface OverviewSnapshot {
  stats: StatsView;
  envelopes: EnvelopeView[];
  agents: AgentView[];
  graph: GraphView;
  mesh: { peerId: string; peers: number } | null;
  database: { ok: boolean; kind: string } | null;
  /** The chain section (issue 5); null/absent when the process runs no chain. */
  chain?: ChainOverviewView | null;
}

/** Chain summary of the overview: batches, challenges, stakes, leases (served by app/_lib/runtime). */
export interface ChainOverviewView {
  batches: number;
  verifiedBatches: number;
  challenges: number;
  resolvedChallenges: number;
  lockedStakes: number;
  activeLeases: number;
  lastChallenge: { address: string; agent: string; epoch: string; status: string } | null;
}

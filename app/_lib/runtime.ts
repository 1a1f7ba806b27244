/**
 * The shapes the pages and API routes read through: the store's read queries and the chain
 * reads. The running instances reach routes through the services registry (./services).
 * Type-only imports: nothing from lib/store is bundled.
 */
import type { ChainOverviewView } from '../../components/types';
import type {
  AgentRow,
  ConversationDetail,
  ConversationGraph,
  ConversationRow,
  FeedbackRow,
  RecentEnvelopesParams,
  ReputationRow,
  StoredEnvelope,
} from '../../lib/store/types';

/** The read queries of lib/store the web app uses (lib/store `Store` satisfies it). */
export interface ReadStore {
  countsByType(): Promise<Record<number, number>>;
  dropCounts(): Promise<Record<string, number>>;
  recentEnvelopes(p?: RecentEnvelopesParams): Promise<StoredEnvelope[]>;
  listAgents(p?: { limit?: number }): Promise<AgentRow[]>;
  getAgent(id: Uint8Array): Promise<AgentRow | null>;
  conversationGraph(p?: { limit?: number }): Promise<ConversationGraph>;
  listConversations(p?: { limit?: number; agent?: Uint8Array }): Promise<ConversationRow[]>;
  getConversation(id: Uint8Array): Promise<ConversationDetail | null>;
  getReputation(agentId: Uint8Array, kind?: 'gossip' | 'batch'): Promise<ReputationRow | null>;
  feedbackFor(agent: Uint8Array, limit?: number): Promise<FeedbackRow[]>;
}

/** One batch as GET /api/batches returns it (lib/indexer/queries.ts BatchJson). */
export interface BatchJson {
  agent: string; agentAddress: string; epoch: string; batchHash: string; logMerkleRoot: string; slot: string;
  signature: string | null; status: 'unverified' | 'verified' | 'mismatch'; uploadedLogRoot: string | null; data: unknown;
}
/** One challenge as GET /api/challenges returns it (lib/indexer/queries.ts listChallengesJson). */
export interface ChallengeJson {
  address: string; agent: string; agentAddress: string; epoch: string; challenger: string; status: string; slot: string; openedSlot: string;
  data: unknown; transitions: { status: string; slot: string; signature: string }[];
}
/** GET /api/reputation/{agent} (lib/indexer/queries.ts reputationJson): gossip and authoritative side by side. */
export interface ReputationJson {
  agent: string; agentAddress: string;
  gossip: Record<string, unknown> | null;
  authoritative: Record<string, unknown>;
  batches: { epoch: string; status: string; folded: boolean }[];
}

/** The chain's part of an agent page: stake, lease, batches, challenges. */
export interface AgentChainView {
  stake: { amount: string; status: string; slot: string } | null;
  lease: { paidThroughEpoch: string; lastPaidEpoch: string | null; missedEpochs: number; active: boolean } | null;
  batches: BatchJson[];
  challenges: ChallengeJson[];
}

/** The overview's chain section: the shape the page renders. */
export type ChainOverview = ChainOverviewView;

/**
 * Chain reads (issue 5 "REST", lib/indexer/queries.ts), implemented by the server
 * (server/chain.ts) so route code bundles neither @solana/* nor litesvm.
 */
export interface ChainReads {
  rpcUrl: string;
  /** An agent id from 64 hex characters or a base58 address; null when neither. */
  parseAgent(s: string): Uint8Array | null;
  listBatches(q: { agent?: Uint8Array; epoch?: bigint; status?: 'unverified' | 'verified' | 'mismatch'; limit?: number }): Promise<BatchJson[]>;
  listChallenges(q: { agent?: Uint8Array; status?: string }): Promise<ChallengeJson[]>;
  reputation(agent: Uint8Array): Promise<ReputationJson>;
  agentChain(agent: Uint8Array): Promise<AgentChainView>;
  overview(): Promise<ChainOverview>;
  health(): Promise<{ ok: boolean; rpcUrl: string; slot?: number; error?: string }>;
}

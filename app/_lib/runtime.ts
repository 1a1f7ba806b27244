/**
 * The shapes the pages and API routes read through: the store's read queries and the chain
 * reads. The running instances reach routes through the services registry (./services).
 * Type-only imports: nothing from lib/store is bundled.
 */

import type { EconomyStore } from '../../lib/indexer/economy';
import type { BatchesQuery, ChallengesQuery } from '../../lib/indexer/queries';
import type {
  AgentRow,
  ConversationDetail,
  ConversationGraph,
  ConversationRow,
  FeedbackRow,
  HaggleNegotiationRow,
  RecentEnvelopesParams,
  ReputationRow,
  Store,
  StoredEnvelope,
} from '../../lib/store';
import type {
  AgentFilter,
  AgentListRow,
  ConversationFilter,
  ReplayParams,
  ReplayRow,
  SearchRows,
  SearchTerms,
} from '../../lib/store/envelopes';
import type { MeshHealthRange, MeshHealthRow, MeshHealthSpread } from '../../lib/store/mesh-health';
import type { StatsSeriesParams } from '../../lib/store/stats';
import type {
  AgentChainView,
  AgentSatiProfileView,
  BatchCheck,
  BatchJson,
  BatchList,
  ChainHealth,
  ChainOverviewView,
  ChallengeJson,
  ChallengeList,
  ReputationJson,
  SatiAddressesView,
  SatiDiscoveryStats,
  SatiReputationView,
} from '../../lib/wire';
import type { StatsSeries } from '../../lib/wire/stats';

/**
 * The store queries the pages and routes of the web app reach the store through
 * (lib/store `Store` satisfies it; server/runtime.ts checks so). Pages use `reads` only, never
 * the observer's store (scripts/boundaries.test.ts greps app/ for it).
 */
export interface ReadStore extends EconomyStore, StoreQueries {
  countsByType(): Promise<Record<number, number>>;
  dropCounts(): Promise<Record<string, number>>;
  statsSeries(p: StatsSeriesParams): Promise<StatsSeries>;
  recentEnvelopes(p?: RecentEnvelopesParams): Promise<StoredEnvelope[]>;
  replayEnvelopes(p: ReplayParams): Promise<ReplayRow[]>;
  listAgents(p?: { limit?: number }): Promise<AgentRow[]>;
  getAgent(id: Uint8Array): Promise<AgentRow | null>;
  conversationGraph(p?: { limit?: number }): Promise<ConversationGraph>;
  listConversations(p?: { limit?: number; agent?: Uint8Array }): Promise<ConversationRow[]>;
  getConversation(id: Uint8Array): Promise<ConversationDetail | null>;
  /**
   * Each conversation's negotiators (senders and direct recipients of its offers and answers), by conversation id hex.
   */
  conversationNegotiators(ids: readonly Uint8Array[]): Promise<Map<string, Uint8Array[]>>;
  /** The agent's conversations counted up to `cap` (a result of `cap` means at least that many). */
  countAgentConversations(agent: Uint8Array, cap: number): Promise<number>;
  getReputation(agentId: Uint8Array, kind?: 'gossip' | 'batch'): Promise<ReputationRow | null>;
  feedbackFor(agent: Uint8Array, limit?: number): Promise<FeedbackRow[]>;
  /** FEEDBACK counts per agent (hex) with the share from senders with no stake and no deal with it. */
  feedbackBacking(agents: readonly Uint8Array[]): Promise<Map<string, { feedback: number; unbacked: number }>>;
  /** The senders (hex) of FEEDBACK about `agent` with no stake and no deal with it. */
  unbackedSenders(agent: Uint8Array): Promise<Set<string>>;
  /** The conversation's on-chain (Haggle) negotiations, empty off chain. */
  onChainNegotiations(conversationId: Uint8Array): Promise<HaggleNegotiationRow[]>;
  recentOnChainNegotiations(p?: { status?: string; limit?: number }): Promise<HaggleNegotiationRow[]>;
  search(t: SearchTerms): Promise<SearchRows>;
  listAgentsPage(f: AgentFilter): Promise<{ rows: AgentListRow[]; more: boolean }>;
  readMeshHealth(p: MeshHealthRange & { topic?: string; observer?: string }): Promise<MeshHealthRow[]>;
  meshHealthObservers(
    p: MeshHealthRange,
  ): Promise<{ observers: Array<{ observer: string; intervals: number }>; spread: MeshHealthSpread[] }>;
  listConversationsPage(
    f: ConversationFilter,
  ): Promise<{ rows: ConversationRow[]; next: { value: number; id: Uint8Array } | null }>;
}

/** The queries of the agent, envelope, verification, reconciliation, collusion and dispute pages. */
type StoreQueries = Pick<
  Store,
  // An agent's chain standing, batches, reputation history and counterparties.
  | 'agentStakeLease'
  | 'listAgentBatches'
  | 'authoritativeBasis'
  | 'reputationPoints'
  | 'counterpartiesOf'
  // An envelope and the uploaded epoch logs that hold it (the browser verifier's inputs).
  | 'getEnvelope'
  | 'epochLog'
  | 'epochLogsWith'
  | 'reconciliationTotals'
  | 'listReconciliation'
  | 'reconciliationDetail'
  | 'collusionSignals'
  // The dispute desk; its one write is a reviewer's signed opinion (claimed once, then saved).
  | 'listDisputes'
  | 'disputeCounts'
  | 'getDispute'
  | 'disputeOpinions'
  | 'conversationPayloads'
  | 'usedSignatures'
  | 'saveDisputeOpinion'
>;

/**
 * Chain reads (lib/indexer/queries.ts; shapes in lib/wire), implemented by the server
 * (server/chain.ts) so route code bundles neither @solana/* nor litesvm.
 */
export interface ChainReads {
  rpcUrl: string;
  /** SATI's addresses on this chain (the browser's signer checks apply SATI's rule with them). */
  sati: SatiAddressesView;
  /** What discovery from SATI knows of an agent (registration, registration file), or null. */
  satiProfile(agent: Uint8Array): AgentSatiProfileView | null;
  /** Discovery's counters, null before it starts. */
  discovery(): SatiDiscoveryStats | null;
  /** SATI's own reputation for agents (FeedbackPublicV1 through a Photon indexer): whether it can be shown. */
  satiReputation(): SatiReputationView;
  /** An agent id from 64 hex characters or a base58 address; null when neither. */
  parseAgent(s: string): Uint8Array | null;
  listBatches(q: { agent?: Uint8Array; epoch?: bigint; status?: BatchCheck; limit?: number }): Promise<BatchJson[]>;
  listChallenges(q: { agent?: Uint8Array; status?: string }): Promise<ChallengeJson[]>;
  /** One page of batches / challenges, filtered and sorted, with the cursor of the next. */
  batchesPage(q: BatchesQuery): Promise<BatchList>;
  challengesPage(q: ChallengesQuery): Promise<ChallengeList>;
  reputation(agent: Uint8Array): Promise<ReputationJson>;
  agentChain(agent: Uint8Array): Promise<AgentChainView>;
  /**
   * The identity NFT's holder (base58) read from the chain, or null: an agent exists from its registration, before the
   * mesh sees it.
   */
  identityHolder(agent: Uint8Array): Promise<string | null>;
  overview(): Promise<ChainOverviewView>;
  health(): Promise<ChainHealth>;
}

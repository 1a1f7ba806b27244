/**
 * What the pages and API routes read from: the running observatory (live bus, health, uploads;
 * lib/observer/runtime) and the store's read queries. The observer holds the store behind its
 * narrow ingest port, so the server (server/runtime.ts) opens the full store itself, hands
 * the observer an adapted view of it, and registers the read side here. Both live on globalThis
 * under Symbol.for keys: Next's bundled route modules and the custom server share one process but
 * not one module graph. Type-only imports: nothing from lib/store is bundled.
 */
import 'server-only';
import { getObservatory } from '../../lib/observer/runtime';
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

const CHAIN_KEY = Symbol.for('zerox1.web.chain');
type ChainHolder = { [CHAIN_KEY]?: ChainReads };

/** Registers the chain reads (or clears them). Called by the server. */
export function setChainReads(c: ChainReads | undefined): void {
  (globalThis as ChainHolder)[CHAIN_KEY] = c;
}

/** The chain reads of this process, or undefined when it runs no chain. */
export function getChainReads(): ChainReads | undefined {
  return (globalThis as ChainHolder)[CHAIN_KEY];
}

const KEY = Symbol.for('zerox1.web.reads');
type Holder = { [KEY]?: ReadStore };

/** Registers the store the pages read from (or clears it). Called by the server. */
export function setReadStore(s: ReadStore | undefined): void {
  (globalThis as Holder)[KEY] = s;
}

export type RunningObservatory = NonNullable<ReturnType<typeof getObservatory>>;

export interface WebRuntime {
  observatory: RunningObservatory;
  reads: ReadStore;
  /** Absent when this process runs without a chain. */
  chain?: ChainReads;
}

/** The observatory and its read store, or undefined when this process does not run them. */
export function getWebRuntime(): WebRuntime | undefined {
  const observatory = getObservatory();
  const reads = (globalThis as Holder)[KEY];
  const chain = getChainReads();
  return observatory && reads ? (chain ? { observatory, reads, chain } : { observatory, reads }) : undefined;
}

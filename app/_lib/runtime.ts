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
import type { AgentChainView, BatchCheck, BatchJson, ChainHealth, ChainOverviewView, ChallengeJson, ReputationJson } from '../../lib/wire';
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

/**
 * Chain reads (lib/indexer/queries.ts; shapes in lib/wire), implemented by the server
 * (server/chain.ts) so route code bundles neither @solana/* nor litesvm.
 */
export interface ChainReads {
  rpcUrl: string;
  /** An agent id from 64 hex characters or a base58 address; null when neither. */
  parseAgent(s: string): Uint8Array | null;
  listBatches(q: { agent?: Uint8Array; epoch?: bigint; status?: BatchCheck; limit?: number }): Promise<BatchJson[]>;
  listChallenges(q: { agent?: Uint8Array; status?: string }): Promise<ChallengeJson[]>;
  reputation(agent: Uint8Array): Promise<ReputationJson>;
  agentChain(agent: Uint8Array): Promise<AgentChainView>;
  overview(): Promise<ChainOverviewView>;
  health(): Promise<ChainHealth>;
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

/**
 * lib/store/envelopes: the envelopes and what ingest derives from them (lib/store/envelopes/README.md).
 * EnvelopesPort: ingest and drops, and the reads of the pages and the API over envelopes,
 * agents and conversations.
 */
import 'server-only';
import type { PortContext } from '../engine/port';
import type {
  AgentRow,
  ConversationDetail,
  ConversationGraph,
  ConversationRow,
  DropRecord,
  FeedbackRow,
  IngestItem,
  IngestResult,
  RecentEnvelopesParams,
  StoredEnvelope,
} from '../types';
import { type AgentFilter, type AgentListRow, listAgentsPage } from './agent-list';
import { type CounterpartyRow, counterpartiesOf } from './counterparties';
import { ingestBatch } from './ingest';
import * as q from './queries';
import { type ReplayParams, type ReplayRow, replayEnvelopes } from './replay';
import * as find from './search';

export type { AgentFilter, AgentListRow, AgentSort } from './agent-list';
export type { CounterpartyRow } from './counterparties';
export { conversationBit, storedStateSql } from './derive';
export { epochOfFn } from './ingest';
export { type ListConversationsParams, payloadOf } from './queries';
export {
  createIngestQueue,
  type IngestQueue,
  type IngestQueueOptions,
  type IngestTarget,
  type PushResult,
} from './queue';
export { REPLAY_PAGE_MAX, type ReplayParams, type ReplayRow } from './replay';
export type { ConversationFilter, ConversationSort, SearchRows, SearchTerms } from './search';

export interface EnvelopesPort {
  /** Stores validated envelopes idempotently; see ingest.ts. */
  ingestEnvelopes(items: readonly IngestItem[]): Promise<IngestResult>;
  /** Records drops and bumps the per-reason counters in one transaction. */
  recordDrops(drops: readonly DropRecord[]): Promise<void>;
  dropCounts(): Promise<Record<string, number>>;
  countsByType(): Promise<Record<number, number>>;
  recentEnvelopes(p?: RecentEnvelopesParams): Promise<StoredEnvelope[]>;
  getEnvelope(id: Uint8Array): Promise<StoredEnvelope | null>;
  /** A window's envelopes in (timestamp, id) order, keyset-paged; see replay.ts. */
  replayEnvelopes(p: ReplayParams): Promise<ReplayRow[]>;
  listAgents(p?: { limit?: number }): Promise<AgentRow[]>;
  getAgent(id: Uint8Array): Promise<AgentRow | null>;
  /** Marks agents online/offline (the observer knows who is connected). */
  setAgentsOnline(ids: readonly Uint8Array[], online: boolean): Promise<void>;
  setAgentLabel(id: Uint8Array, label: string | null): Promise<void>;
  conversationGraph(p?: { limit?: number }): Promise<ConversationGraph>;
  listConversations(p?: q.ListConversationsParams): Promise<ConversationRow[]>;
  getConversation(id: Uint8Array): Promise<ConversationDetail | null>;
  /** The negotiators of each of these conversations, by id hex (queries.ts). */
  conversationNegotiators(ids: readonly Uint8Array[]): Promise<Map<string, Uint8Array[]>>;
  /** Conversations of one agent counted up to `cap` (queries.ts). */
  countAgentConversations(agent: Uint8Array, cap: number): Promise<number>;
  feedbackFor(agent: Uint8Array, limit?: number): Promise<FeedbackRow[]>;
  /** Id prefixes, labels, batches, challenges, signatures; see search.ts. */
  search(t: find.SearchTerms): Promise<find.SearchRows>;
  /** Filtered, keyset-paged conversations; see search.ts. */
  listConversationsPage(f: find.ConversationFilter): ReturnType<typeof find.listConversationsPage>;
  /** Filtered, sorted, keyset-paged agents with reputation and stake; see agent-list.ts. */
  listAgentsPage(f: AgentFilter): Promise<{ rows: AgentListRow[]; more: boolean }>;
  /** An agent's negotiating counterparties with conversation and deal counts; see counterparties.ts. */
  counterpartiesOf(agent: Uint8Array, limit?: number): Promise<CounterpartyRow[]>;
}

/** What ingest needs from the rest of the store: the partitions ahead and the stats fold. */
export interface IngestHooks {
  /** A partition creation ingest must wait for, if one is due (partitions.ts). */
  beforeIngest(): Promise<void> | undefined;
  /** Keep the stats rollups as envelopes are stored. */
  statsRollups: boolean;
  /** Envelopes were stored: their stats are pending a fold (stats/folder.ts). */
  stored(): void;
}

export function envelopesPort({ db, prisma, live, epochSeconds }: PortContext, hooks: IngestHooks): EnvelopesPort {
  return {
    ingestEnvelopes: (items) =>
      live(async () => {
        const due = hooks.beforeIngest();
        if (due) await due;
        const r = await ingestBatch(db, items, epochSeconds, { statsRollups: hooks.statsRollups });
        if (r.inserted > 0 && hooks.statsRollups) hooks.stored();
        return r;
      }),
    recordDrops: (drops) =>
      live(async () => {
        if (drops.length === 0) return;
        const counts = new Map<string, number>();
        for (const d of drops) counts.set(d.reason, (counts.get(d.reason) ?? 0) + 1);
        const reasons = [...counts.keys()].sort();
        await db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO "drop" (reason, peer, source, detail, at) SELECT * FROM ` +
              `unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])`,
            [
              drops.map((d) => d.reason),
              drops.map((d) => d.peer ?? null),
              drops.map((d) => d.source ?? null),
              drops.map((d) => d.detail ?? null),
              drops.map((d) => (d.at ?? new Date()).toISOString()),
            ],
          );
          await tx.query(
            `INSERT INTO drop_counter (reason, count) SELECT * FROM unnest($1::text[], $2::int8[])
          ON CONFLICT (reason) DO UPDATE SET count = drop_counter.count + excluded.count`,
            [reasons, reasons.map((r) => String(counts.get(r)))],
          );
        });
      }),
    dropCounts: () => live(() => q.dropCounts(db)),
    countsByType: () => live(() => q.countsByType(db)),
    recentEnvelopes: (p) => live(() => q.recentEnvelopes(db, p, epochSeconds)),
    getEnvelope: (id) => live(() => q.getEnvelope(db, id)),
    replayEnvelopes: (p) => live(() => replayEnvelopes(db, p, epochSeconds)),
    listAgents: (p) => live(() => q.listAgents(db, p)),
    getAgent: (id) => live(() => q.getAgent(db, id)),
    setAgentsOnline: (ids, online) =>
      live(async () => {
        await prisma.agent.updateMany({ where: { id: { in: ids.map((i) => new Uint8Array(i)) } }, data: { online } });
      }),
    setAgentLabel: (id, label) =>
      live(async () => {
        const now = new Date();
        await prisma.agent.upsert({
          where: { id: new Uint8Array(id) },
          create: { id: new Uint8Array(id), label, firstSeen: now, lastSeen: now },
          update: { label },
        });
      }),
    conversationGraph: (p) => live(() => q.conversationGraph(db, p)),
    listConversations: (p) => live(() => q.listConversations(db, p)),
    getConversation: (id) => live(() => q.getConversation(db, id)),
    conversationNegotiators: (ids) => live(() => q.conversationNegotiators(db, ids)),
    countAgentConversations: (agent, cap) => live(() => q.countAgentConversations(db, agent, cap)),
    feedbackFor: (agent, limit) => live(() => q.feedbackFor(db, agent, limit)),
    search: (t) => live(() => find.search(db, t)),
    listConversationsPage: (f) => live(() => find.listConversationsPage(db, f)),
    listAgentsPage: (f) => live(() => listAgentsPage(db, f)),
    counterpartiesOf: (agent, limit) => live(() => counterpartiesOf(db, agent, limit)),
  };
}

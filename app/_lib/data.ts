/**
 * The web app's only path to the data: the running services (./services: observatory, reads, chain) and their
 * store queries, mapped to view models. Pages and API routes both call these, so the JSON of
 * `/api/*` and what the pages render are the same thing.
 */
import 'server-only';
import { fromHex } from '../../lib/protocol/hex';
import { applyFeedback, emptyReputation } from '../../lib/protocol/reputation';
import { backingSummary } from '../../lib/protocol/reputation-backing';
import type { RecentEnvelopesParams } from '../../lib/store';
import {
  type AgentView,
  type ConversationSummaryView,
  type ConversationView,
  type EnvelopePage,
  FEED_SIZE,
  type GraphView,
  type HealthReport,
  msgTypeName,
  type OverviewSnapshot,
  type StatsView,
} from '../../lib/wire';
import { getServices, type Services } from './services';
import { agentView, conversationSummaryView, conversationView, envelopeView, graphView } from './views';

type Running = Services;

export interface EnvelopeQuery {
  type?: number;
  /** 64 hex */
  agent?: string;
  /** 32 hex */
  conversation?: string;
  limit: number;
  /** seq cursor (decimal) */
  before?: string;
  /** Envelope timestamp window, unix ms. */
  fromMs?: number;
  toMs?: number;
}

export async function loadStats(o: Running): Promise<StatsView> {
  const [counts, drops] = await Promise.all([o.reads.countsByType(), o.reads.dropCounts()]);
  const byType: Record<string, number> = {};
  for (const [k, n] of Object.entries(counts as Record<string, number>)) byType[msgTypeName(k)] = Number(n);
  const dropMap: Record<string, number> = {};
  for (const [k, n] of Object.entries(drops as Record<string, number>)) dropMap[k] = Number(n);
  return { byType, drops: dropMap };
}

export async function loadEnvelopes(o: Running, q: EnvelopeQuery): Promise<EnvelopePage> {
  const params: RecentEnvelopesParams = { limit: q.limit };
  if (q.type !== undefined) params.type = q.type;
  if (q.agent) params.agent = fromHex(q.agent);
  if (q.conversation) params.conversation = fromHex(q.conversation);
  if (q.before) params.before = BigInt(q.before);
  if (q.fromMs !== undefined) params.fromMs = q.fromMs;
  if (q.toMs !== undefined) params.toMs = q.toMs;
  const rows = await o.reads.recentEnvelopes(params);
  return {
    envelopes: rows.map(envelopeView),
    next: rows.length === q.limit && rows.length > 0 ? rows[rows.length - 1].seq.toString() : null,
  };
}

/**
 * The agent with its gossip reputation and, unless `backing` is false, how much of that comes from
 * senders with nothing at stake (the agent page reads that part apart, streamed: loadAgentBacking).
 */
export async function loadAgent(
  o: Running,
  idHex: string,
  opts: { backing?: boolean } = {},
): Promise<AgentView | null> {
  const id = fromHex(idHex);
  const a = await o.reads.getAgent(id);
  if (!a) return null;
  // The stored gossip fold when the observer keeps one, else fold the stored feedback (docs/protocol.md, reputation).
  let rep = await o.reads.getReputation(id, 'gossip');
  if (!rep) {
    const fb = await o.reads.feedbackFor(id);
    if (fb.length > 0)
      rep = {
        ...fb.reduce((s, f) => applyFeedback(s, f), emptyReputation()),
        agentId: id,
        kind: 'gossip',
        lastEpoch: null,
        updatedAt: new Date(),
      };
  }
  const view = agentView(a, rep);
  return opts.backing === false
    ? view
    : { ...view, backing: await loadBacking(o, id, idHex, rep?.reliabilityScore ?? null) };
}

/** The backing of an agent's gossip score (see loadBacking), for a page that shows it after the rest. */
export function loadAgentBacking(
  o: Running,
  idHex: string,
  reliability: string | null,
): Promise<NonNullable<AgentView['backing']>> {
  return loadBacking(o, fromHex(idHex), idHex, reliability === null ? null : BigInt(reliability));
}

/** Beyond this many FEEDBACK about one agent, the fold without the unbacked ones is not recomputed per page view. */
const BACKING_FOLD_CAP = 10_000;

/**
 * How much of the agent's gossip score comes from senders with no stake and no deal with it: the
 * counts, and the reliability folded without them (the whole fold replayed, up to the cap).
 */
async function loadBacking(
  o: Running,
  id: Uint8Array,
  idHex: string,
  reliability: bigint | null,
): Promise<NonNullable<AgentView['backing']>> {
  const b = (await o.reads.feedbackBacking([id])).get(idHex) ?? { feedback: 0, unbacked: 0 };
  if (b.unbacked === 0) return { ...b, reliabilityWithout: reliability === null ? null : reliability.toString() };
  if (b.feedback > BACKING_FOLD_CAP) return { ...b, reliabilityWithout: null };
  const [rows, unbacked] = await Promise.all([
    o.reads.feedbackFor(id, BACKING_FOLD_CAP + 1),
    o.reads.unbackedSenders(id),
  ]);
  // Feedback stored between the two reads: the counts no longer describe these rows, so say nothing.
  if (rows.length !== b.feedback) return { ...b, reliabilityWithout: null };
  const s = backingSummary(
    rows.map((f) => ({ ...f, unbacked: unbacked.has(Buffer.from(f.fromAgent).toString('hex')) })),
  );
  return { feedback: s.feedback, unbacked: s.unbacked, reliabilityWithout: s.reliabilityWithout.toString() };
}

export async function loadGraph(o: Running): Promise<GraphView> {
  return graphView(await o.reads.conversationGraph());
}

export async function loadConversations(o: Running, agentHex?: string, limit = 50): Promise<ConversationSummaryView[]> {
  const rows = await o.reads.listConversations({ limit, ...(agentHex ? { agent: fromHex(agentHex) } : {}) });
  return rows.map(conversationSummaryView);
}

export async function loadConversation(o: Running, idHex: string): Promise<ConversationView | null> {
  const c = await o.reads.getConversation(fromHex(idHex));
  return c ? conversationView(c) : null;
}

/** The observatory's health plus the chain's (rpcUrl, slot); a down chain makes it not ok. */
export async function loadHealth(o: Running): Promise<HealthReport> {
  const [report, chain] = await Promise.all([o.observatory.health(), o.chain?.health()]);
  const startup = o.startup?.();
  const withStartup = startup ? { ...report, startup: [...startup] } : report;
  if (!chain) return withStartup;
  return { ...withStartup, ok: report.ok && chain.ok, chain };
}

/** A commit since the snapshot was taken makes it due after this long. */
export const OVERVIEW_REFRESH_MS = 1_000;
/** Without commits it is still retaken after this long: "online" is a time window. */
export const OVERVIEW_MAX_AGE_MS = 5_000;

interface AgentsSnapshot {
  agents: AgentView[];
  graph: GraphView;
  at: number;
}
interface SnapshotState {
  snap?: AgentsSnapshot;
  dirty: boolean;
  pending?: Promise<AgentsSnapshot>;
}
const snapshots = new WeakMap<Running, SnapshotState>();

/** The overview's agents and graph read now (what a snapshot holds). */
export async function takeAgentsSnapshot(o: Running): Promise<AgentsSnapshot> {
  // One read of the 1,000 latest agents serves both the list and the graph's nodes.
  const g = await o.reads.conversationGraph();
  const now = Date.now();
  return { agents: g.nodes.map((a) => agentView(a, null, now)), graph: graphView(g, now), at: now };
}

/**
 * The overview's agents and graph: the same 1,000 agents and 4,000 busiest pairs for every
 * visitor (the page then follows the live stream), so one snapshot serves every request. A
 * commit on the live bus marks it stale; a stale snapshot is still served while one refresh at
 * a time retakes it, at most every OVERVIEW_REFRESH_MS, and any snapshot is retaken after
 * OVERVIEW_MAX_AGE_MS. Only the first request waits for the reads.
 */
export async function loadAgentsSnapshot(
  o: Running,
  now = Date.now(),
): Promise<{ agents: AgentView[]; graph: GraphView }> {
  let st = snapshots.get(o);
  if (!st) {
    const state: SnapshotState = { dirty: false };
    st = state;
    snapshots.set(o, state);
    o.observatory.bus?.subscribe(() => {
      state.dirty = true;
    });
  }
  const state = st;
  const refresh = () => {
    state.pending ??= takeAgentsSnapshot(o)
      .then((snap) => {
        state.snap = snap;
        return snap;
      })
      .finally(() => {
        state.pending = undefined;
      });
    return state.pending;
  };
  const snap = state.snap;
  if (!snap) return refresh();
  const age = now - snap.at;
  if (age >= OVERVIEW_MAX_AGE_MS || (state.dirty && age >= OVERVIEW_REFRESH_MS)) {
    state.dirty = false;
    refresh().catch(() => undefined); // the next request sees it; this one gets the snapshot it has
  }
  return snap;
}

/** What the overview shows from the store: counters, the feed's first page, agents and graph. */
export async function loadOverviewData(
  o: Running,
): Promise<{ stats: StatsView; page: EnvelopePage; agents: AgentView[]; graph: GraphView }> {
  const [stats, page, snap] = await Promise.all([
    loadStats(o),
    loadEnvelopes(o, { limit: FEED_SIZE }),
    loadAgentsSnapshot(o),
  ]);
  return { stats, page, ...snap };
}

export async function loadOverview(): Promise<OverviewSnapshot | null> {
  const o = getServices();
  if (!o) return null;
  const [{ stats, page, agents, graph }, health] = await Promise.all([
    loadOverviewData(o),
    loadHealth(o).catch(() => null),
  ]);
  const chain = o.chain ? await o.chain.overview().catch(() => null) : null;
  return {
    stats,
    envelopes: page.envelopes,
    agents,
    graph,
    mesh: health ? { peerId: health.mesh.peerId, peers: health.mesh.peers } : null,
    database: health ? { ok: health.database.ok, kind: health.database.kind } : null,
    chain,
  };
}

/**
 * Filtered, cursor-paged lists shared by the API routes, the MCP tools and the pages. A cursor is
 * opaque text the caller hands back as `before`; the filter travels with each request, so a URL
 * holding both is a shareable view.
 */
import 'server-only';
import type { z } from 'zod';
import { fromHex } from '../../lib/protocol/hex';
import { applyFeedback, emptyReputation, type ReputationState } from '../../lib/protocol/reputation';
import type { AgentListRow, AgentSort } from '../../lib/store/envelopes';
import {
  type AgentList,
  type AgentsQuerySchema,
  bytesToHex,
  type ConversationList,
  type ConversationsQuerySchema,
  TIME_PRESETS,
} from '../../lib/wire';
import { conversationCursorText } from '../../lib/wire/params';
import { HttpError } from './http';
import type { Services } from './services';
import { agentView, conversationSummaryView, ONLINE_WINDOW_MS } from './views';

export type ConversationsQuery = z.output<typeof ConversationsQuerySchema>;

/** Conversations matching `p`, sorted descending by `p.sort`; `next` continues after the last one. */
export async function loadConversationsPage(
  o: Services,
  p: ConversationsQuery,
  now = Date.now(),
): Promise<ConversationList> {
  const fromMs = p.range ? now - TIME_PRESETS[p.range] : p.from;
  const page = await o.reads.listConversationsPage({
    agent: p.agent ? fromHex(p.agent) : undefined,
    state: p.state,
    outcome: p.outcome,
    fromMs,
    toMs: p.to,
    sort: p.sort,
    limit: p.limit,
    cursor: p.before ? { value: p.before.value, id: fromHex(p.before.idHex) } : undefined,
  });
  return {
    conversations: page.rows.map(conversationSummaryView),
    next: page.next ? conversationCursorText(p.sort, page.next.value, bytesToHex(page.next.id)) : null,
  };
}

export type AgentsQuery = z.output<typeof AgentsQuerySchema>;

/** Every candidate a reputation filter or sort looks at (the store's list cap). */
const MAX_AGENTS = 1000;

/** The stored gossip fold, else the fold of the agent's stored feedback (docs/protocol.md §7), as loadAgent does. */
async function gossipOf(o: Services, r: AgentListRow): Promise<ReputationState | null> {
  if (r.reputation) return r.reputation;
  const fb = await o.reads.feedbackFor(r.id);
  return fb.length ? fb.reduce((s, f) => applyFeedback(s, f), emptyReputation()) : null;
}

function parseCursor(q: AgentsQuery): { value: string; id: Uint8Array } | undefined {
  if (!q.before) return undefined;
  const [value, id] = q.before.split('~');
  const timeSort = q.sort === 'last_seen' || q.sort === 'first_seen';
  if (timeSort ? Number.isNaN(Date.parse(value)) || !value.includes('T') : !/^-?\d+$/.test(value)) {
    throw new HttpError(400, `query parameter "before": not a cursor of sort=${q.sort}`);
  }
  return { value, id: fromHex(id) };
}

/**
 * Agents matching `q`, sorted descending by `q.sort`, with gossip reputation and stake. Online,
 * stake and the time/envelope sorts run in SQL with keyset paging; a reliability range or sort
 * needs the fold, so it reads every candidate (up to {@link MAX_AGENTS}), folds, filters, sorts
 * and pages the same keyset way in memory.
 */
export async function loadAgentsPage(o: Services, q: AgentsQuery, now = Date.now()): Promise<AgentList> {
  const cursor = parseCursor(q);
  const base = { online: q.online, onlineSinceMs: now - ONLINE_WINDOW_MS, stake: q.stake };
  const byReputation = q.sort === 'reliability' || q.minReliability !== undefined || q.maxReliability !== undefined;
  let rows: { row: AgentListRow; rep: ReputationState | null; key: string }[];
  let more: boolean;
  if (!byReputation) {
    const page = await o.reads.listAgentsPage({ ...base, sort: q.sort as AgentSort, limit: q.limit, cursor });
    rows = await Promise.all(page.rows.map(async (row) => ({ row, rep: await gossipOf(o, row), key: row.sortValue })));
    more = page.more;
  } else {
    const sort: AgentSort = q.sort === 'reliability' ? 'last_seen' : q.sort;
    const all = (await o.reads.listAgentsPage({ ...base, sort, limit: MAX_AGENTS })).rows;
    const folded = await Promise.all(all.map(async (row) => ({ row, rep: await gossipOf(o, row) })));
    const score = (r: ReputationState | null) => r?.reliabilityScore ?? -1n;
    let list = folded
      .filter(
        ({ rep }) =>
          (q.minReliability === undefined || (rep !== null && rep.reliabilityScore >= q.minReliability)) &&
          (q.maxReliability === undefined || (rep !== null && rep.reliabilityScore <= q.maxReliability)),
      )
      .map((x) => ({ ...x, key: q.sort === 'reliability' ? score(x.rep).toString() : x.row.sortValue }));
    if (q.sort === 'reliability') {
      // Descending by (score, id), like the SQL keyset order.
      list.sort((a, b) =>
        score(a.rep) !== score(b.rep) ? (score(b.rep) > score(a.rep) ? 1 : -1) : Buffer.compare(b.row.id, a.row.id),
      );
    }
    if (cursor) {
      const after = (x: { row: AgentListRow; key: string }) => {
        const c =
          q.sort === 'reliability'
            ? BigInt(x.key) - BigInt(cursor.value)
            : q.sort === 'envelopes'
              ? Number(x.key) - Number(cursor.value)
              : Date.parse(x.key) - Date.parse(cursor.value);
        return c < 0 || (c === 0 || c === 0n ? Buffer.compare(x.row.id, cursor.id) < 0 : false);
      };
      list = list.filter(after);
    }
    more = list.length > q.limit;
    rows = list.slice(0, q.limit);
  }
  const last = rows[rows.length - 1];
  // One statement for the page: how much of each score comes from senders with no stake and no deal.
  const backing = await o.reads.feedbackBacking(rows.map(({ row }) => row.id));
  return {
    agents: rows.map(({ row, rep }) => ({
      ...agentView(row, rep, now),
      stake: row.stake ? { status: row.stake.status, amount: row.stake.amount.toString() } : null,
      backing: { ...(backing.get(bytesToHex(row.id)) ?? { feedback: 0, unbacked: 0 }), reliabilityWithout: null },
    })),
    next: more && last ? `${last.key}~${bytesToHex(last.row.id)}` : null,
  };
}

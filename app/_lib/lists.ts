/**
 * Filtered, cursor-paged lists shared by the API routes, the MCP tools and the pages. A cursor is
 * opaque text the caller hands back as `before`; the filter travels with each request, so a URL
 * holding both is a shareable view.
 */
import 'server-only';
import { fromHex } from '../../lib/protocol/hex';
import { bytesToHex, TIME_PRESETS, type AgentList, type AgentsQuerySchema, type ConversationList, type ConversationsQuerySchema } from '../../lib/wire';
import { HttpError } from './http';
import type { z } from 'zod';
import type { Services } from './services';
import { agentView, conversationSummaryView, ONLINE_WINDOW_MS } from './views';

export type ConversationsQuery = z.output<typeof ConversationsQuerySchema>;

/** Conversations matching `p`, newest activity first; `next` continues after the last one. */
export async function loadConversationsPage(o: Services, p: ConversationsQuery, now = Date.now()): Promise<ConversationList> {
  const fromMs = p.range ? now - TIME_PRESETS[p.range] : p.from;
  const page = await o.reads.listConversationsPage({
    agent: p.agent ? fromHex(p.agent) : undefined,
    state: p.state,
    outcome: p.outcome,
    fromMs,
    toMs: p.to,
    limit: p.limit,
    cursor: p.before ? { lastSeenMs: p.before.lastSeenMs, id: fromHex(p.before.idHex) } : undefined,
  });
  return {
    conversations: page.rows.map(conversationSummaryView),
    next: page.next ? `${page.next.lastSeenMs}-${bytesToHex(page.next.id)}` : null,
  };
}

export type AgentsQuery = z.output<typeof AgentsQuerySchema>;

/** Agents matching `q`, sorted descending by `q.sort`, with gossip reputation and stake. */
export async function loadAgentsPage(o: Services, q: AgentsQuery, now = Date.now()): Promise<AgentList> {
  let cursor;
  if (q.before) {
    const [value, id] = q.before.split('~');
    const timeSort = q.sort === 'last_seen' || q.sort === 'first_seen';
    if (timeSort ? Number.isNaN(Date.parse(value)) || !value.includes('T') : !/^-?\d+$/.test(value)) {
      throw new HttpError(400, `query parameter "before": not a cursor of sort=${q.sort}`);
    }
    cursor = { value, id: fromHex(id) };
  }
  const page = await o.reads.listAgentsPage({
    online: q.online, onlineSinceMs: now - ONLINE_WINDOW_MS, stake: q.stake, minReliability: q.minReliability, maxReliability: q.maxReliability,
    sort: q.sort, limit: q.limit, cursor,
  });
  const last = page.rows[page.rows.length - 1];
  return {
    agents: page.rows.map((r) => ({
      ...agentView(r, r.reputation, now),
      stake: r.stake ? { status: r.stake.status, amount: r.stake.amount.toString() } : null,
    })),
    next: page.more && last ? `${last.sortValue}~${bytesToHex(last.id)}` : null,
  };
}

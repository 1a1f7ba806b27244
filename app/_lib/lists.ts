/**
 * Filtered, cursor-paged lists shared by the API routes, the MCP tools and the pages. A cursor is
 * opaque text the caller hands back as `before`; the filter travels with each request, so a URL
 * holding both is a shareable view.
 */
import 'server-only';
import { fromHex } from '../../lib/protocol/hex';
import { bytesToHex, TIME_PRESETS, type ConversationList, type ConversationsQuerySchema } from '../../lib/wire';
import type { z } from 'zod';
import type { Services } from './services';
import { conversationSummaryView } from './views';

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

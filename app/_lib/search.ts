/**
 * Search: the query read into terms (lib/wire/search-terms.ts), asked of the store
 * (lib/store/envelopes/search.ts), and the rows turned into hits that each name the page showing them.
 * Shared by GET /api/search, the /search page and the MCP `search` tool, so all three answer alike.
 */
import 'server-only';
import { type ConversationStage, STAGE_LABELS } from '../../lib/protocol/conversation-state';
import { bytesToHex as hex, msgTypeName, SEARCH_KINDS, type SearchHit, type SearchResult } from '../../lib/wire';
import { agentBytes } from '../../lib/wire/agent-id';
import { agentLabel, labelPrefix } from '../../lib/wire/agent-name';
import { base58 } from '../../lib/wire/format';
import { searchTerms } from '../../lib/wire/search-terms';
import { agentNameResolver } from './names';
import type { Services } from './services';

const ZERO16 = '0'.repeat(32);

/** A transaction's page: the batch it submitted (small, and what it proves), else its agent's, else the search. */
function txPage(signature: string, what: string, agent: string | null, epoch: bigint | null): string {
  if (agent && what === 'batch' && epoch !== null) return `/batches/${base58(agent)}/${epoch}`;
  return agent ? `/agents/${agent}` : `/search?q=${encodeURIComponent(signature)}`;
}

/** Runs a search against the running store and builds the hits, grouped in SEARCH_KINDS order. */
export async function runSearch(o: Services, query: string, limit: number): Promise<SearchResult> {
  const q = query.trim();
  const t = searchTerms(q, limit);
  const [r, nameOf] = await Promise.all([o.reads.search(t), agentNameResolver(o)]);
  const hits: SearchHit[] = [];
  const agentHex = t.agent ? hex(t.agent) : null;
  const full = (id: string) => t.hexPrefix !== undefined && t.hexPrefix === id;

  const lp = labelPrefix(q);
  for (const a of r.agents) {
    const id = hex(a.id);
    const b58 = base58(id);
    // A label query matches by its hex prefix range: keep only ids whose label it is (and that have no SATI name hiding
    // it).
    if (lp && id.startsWith(lp) && !a.label && agentLabel(id) !== q.toLowerCase() && !b58.startsWith(q)) continue;
    hits.push({
      kind: 'agent',
      id,
      detail: `${nameOf(id, a.label)} · ${b58}`,
      href: `/agents/${id}`,
      at: a.lastSeen.toISOString(),
      exact: id === agentHex && t.epoch === undefined,
    });
  }
  for (const c of r.conversations) {
    const id = hex(c.id);
    hits.push({
      kind: 'conversation',
      id,
      detail: `${STAGE_LABELS[c.state as ConversationStage] ?? c.state} · ${c.messageCount} messages`,
      href: `/conversations/${id}`,
      at: c.lastSeen.toISOString(),
      exact: full(id),
    });
  }
  for (const e of r.envelopes) {
    const id = hex(e.id);
    const conv = hex(e.conversationId);
    const href = conv === ZERO16 ? `/agents/${hex(e.sender)}` : `/conversations/${conv}#envelope-${id}`;
    hits.push({
      kind: 'envelope',
      id,
      detail: `${msgTypeName(e.msgType)} from ${nameOf(hex(e.sender))} ${base58(hex(e.sender)).slice(0, 5)}…`,
      href,
      exact: full(id),
    });
  }
  const pairQuery = t.agent !== undefined && t.epoch !== undefined;
  for (const b of r.batches) {
    const agent = hex(b.agent);
    hits.push({
      kind: 'batch',
      id: `${agent}/${b.epoch}`,
      detail: `${nameOf(agent)} · epoch ${b.epoch} · ${b.status}`,
      href: `/batches/${base58(agent)}/${b.epoch}`,
      exact: pairQuery,
    });
  }
  for (const c of r.challenges) {
    const agent = hex(c.agent);
    hits.push({
      kind: 'challenge',
      id: c.address,
      detail: `epoch ${c.epoch} · ${c.status} · agent ${nameOf(agent)} ${base58(agent).slice(0, 5)}…`,
      href: `/agents/${agent}#challenges`,
      exact: c.address === q,
    });
  }
  for (const x of r.transactions) {
    const bytes = x.agent ?? (x.agentAddress ? agentBytes(x.agentAddress) : null);
    const agent = bytes ? hex(bytes) : null;
    hits.push({
      kind: 'transaction',
      id: x.signature,
      detail: `${x.what}${x.epoch !== null ? ` · epoch ${x.epoch}` : ''}`,
      href: txPage(x.signature, x.what, agent, x.epoch),
      exact: x.signature === q,
    });
  }
  hits.sort((a, b) => SEARCH_KINDS.indexOf(a.kind) - SEARCH_KINDS.indexOf(b.kind));
  const exact = hits.filter((h) => h.exact);
  // One signature can stand for several rows (a batch and its event): one page either way.
  const pages = new Set(exact.map((h) => h.href));
  return { query: q, hits, direct: pages.size === 1 ? exact[0].href : null };
}

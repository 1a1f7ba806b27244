/**
 * Search: reads a query the way a person types it (an id in hex or base58, a prefix of one,
 * `agent epoch` for a batch, a signature, a label), asks the store (lib/store/envelopes/search.ts) and
 * turns the rows into hits that each name the page showing them. Shared by GET /api/search, the
 * /search page and the MCP `search` tool, so all three answer alike.
 */
import 'server-only';
import { base58 } from '../../components/format';
import { agentLabel, base58PrefixRanges, labelPrefix } from '../../components/names/label';
import { type ConversationStage, STAGE_LABELS } from '../../lib/protocol/conversation-state';
import type { SearchTerms } from '../../lib/store/envelopes';
import { bytesToHex as hex, msgTypeName, SEARCH_KINDS, type SearchHit, type SearchResult } from '../../lib/wire';
import { INT8_MAX } from '../../lib/wire/params';
import { agentBytes } from './agent-id';
import { agentNameResolver } from './names';
import type { Services } from './services';

const HEX = /^(?:0x)?([0-9a-fA-F]{1,64})$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const ZERO16 = '0'.repeat(32);

export { agentBytes };

/** An epoch from digits, or none past the store's int8 epoch columns (a larger number names none). */
const epochOf = (digits: string): bigint | undefined => {
  const e = BigInt(digits);
  return e <= BigInt(INT8_MAX) ? e : undefined;
};

/** The store's search terms for a query string; `exactAgent` is set when the query names one agent in full. */
export function termsOf(query: string, limit: number): SearchTerms {
  const q = query.trim();
  const t: SearchTerms = { limit, text: q };
  // `agent epoch`, `agent/epoch`, `agent:epoch` or `agent@epoch`: one batch (and its challenges).
  const pair = /^(\S+?)\s*[\s/:@#]\s*(\d{1,19})$/.exec(q);
  if (pair) {
    const agent = agentBytes(pair[1]);
    const epoch = epochOf(pair[2]);
    if (agent && epoch !== undefined) return { limit, agent, epoch };
  }
  const m = HEX.exec(q);
  if (m) t.hexPrefix = m[1].toLowerCase();
  if (BASE58.test(q)) {
    t.base58Prefix = q;
    // An agent's base58 address prefix: the ids it can start are a few key ranges.
    if (q.length >= 3) t.agentRanges = base58PrefixRanges(q);
  }
  // A derived label (`swift-otter`) names the ids starting with its 3 hex digits.
  const lp = labelPrefix(q);
  if (lp) t.agentRanges = [...(t.agentRanges ?? []), [lp.padEnd(64, '0'), lp.padEnd(64, 'f')]];
  const agent = agentBytes(q);
  if (agent) t.agent = agent;
  if (/^\d{1,19}$/.test(q)) t.epoch = epochOf(q);
  return t;
}

/** Runs a search against the running store and builds the hits, grouped in SEARCH_KINDS order. */
export async function runSearch(o: Services, query: string, limit: number): Promise<SearchResult> {
  const q = query.trim();
  const t = termsOf(q, limit);
  const [r, nameOf] = await Promise.all([o.reads.search(t), agentNameResolver(o)]);
  const hits: SearchHit[] = [];
  const agentHex = t.agent ? hex(t.agent) : null;
  const full = (id: string) => t.hexPrefix !== undefined && t.hexPrefix === id;

  const lp = labelPrefix(q);
  for (const a of r.agents) {
    const id = hex(a.id);
    const b58 = base58(id);
    // A label query matches by its hex prefix range: keep only ids whose label it is (and that have no SATI name hiding it).
    if (lp && id.startsWith(lp) && !a.label && agentLabel(id) !== q.toLowerCase() && !b58.startsWith(q)) continue;
    hits.push({
      kind: 'agent',
      id,
      detail: `${nameOf(id, a.label)} · ${b58} · last seen ${a.lastSeen.toISOString().replace('T', ' ').slice(0, 19)} UTC`,
      href: `/agents/${id}`,
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
      href: agent ? `/agents/${agent}` : `/search?q=${encodeURIComponent(x.signature)}`,
      exact: x.signature === q,
    });
  }
  hits.sort((a, b) => SEARCH_KINDS.indexOf(a.kind) - SEARCH_KINDS.indexOf(b.kind));
  const exact = hits.filter((h) => h.exact);
  // One signature can stand for several rows (a batch and its event): one page either way.
  const pages = new Set(exact.map((h) => h.href));
  return { query: q, hits, direct: pages.size === 1 ? exact[0].href : null };
}

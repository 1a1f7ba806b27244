/**
 * The MCP tools' reads (lib/mcp McpReads) over the running services: the same loaders the REST
 * routes answer with, so a tool's answer and the matching API response agree.
 */
import 'server-only';
import { type McpReads, ToolInputError } from '../../lib/mcp/server';
import { fromHex } from '../../lib/protocol/hex';
import { bytesToHex, ConversationCursorSchema } from '../../lib/wire';
import { agentBytes } from '../../lib/wire/agent-id';
import { loadAgent, loadConversation, loadConversations, loadHealth, loadStats } from './data';
import { loadConversationsPage } from './lists';
import { runSearch } from './search';
import type { Services } from './services';

const agentOf = (s: string): Uint8Array => {
  const a = agentBytes(s.trim());
  if (!a) throw new ToolInputError('agent: must be 64 hex characters or a base58 address');
  return a;
};
const conversationOf = (s: string): string => {
  const h = s.trim().toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{32}$/.test(h)) throw new ToolInputError('id: must be 32 hex characters (a conversation id)');
  return h;
};
const chainOf = (o: Services) => {
  if (!o.chain) throw new ToolInputError('this observatory runs without a chain');
  return o.chain;
};

export function mcpReads(o: Services): McpReads {
  return {
    search: (query, limit) => runSearch(o, query, limit),
    async agent(agent) {
      const hex = bytesToHex(agentOf(agent));
      const a = await loadAgent(o, hex);
      return a ? { agent: a, conversations: await loadConversations(o, hex, 10) } : null;
    },
    negotiations(f) {
      let before;
      if (f.cursor !== undefined) {
        const c = ConversationCursorSchema.safeParse(f.cursor);
        if (!c.success || c.data.sort !== 'last_seen')
          throw new ToolInputError('cursor: must be the `next` of a previous page');
        before = c.data;
      }
      if (f.range && (f.fromMs !== undefined || f.toMs !== undefined))
        throw new ToolInputError('range: give either range or from_ms/to_ms, not both');
      return loadConversationsPage(o, {
        agent: f.agent === undefined ? undefined : bytesToHex(agentOf(f.agent)),
        state: f.state as never,
        outcome: f.outcome as never,
        range: f.range,
        from: f.fromMs,
        to: f.toMs,
        limit: f.limit,
        before,
        sort: 'last_seen',
      });
    },
    negotiation: (id) => loadConversation(o, conversationOf(id)),
    async negotiationPayloads(id) {
      const c = await o.reads.getConversation(fromHex(conversationOf(id)));
      return (c?.envelopes ?? []).map((s) => ({
        id: bytesToHex(s.id),
        sender: bytesToHex(s.envelope.sender),
        msgType: s.envelope.msgType,
        timestamp: s.envelope.timestamp,
        payload: s.envelope.payload,
      }));
    },
    async batch(agent, epoch) {
      const [b] = await chainOf(o).listBatches({ agent: agentOf(agent), epoch: BigInt(epoch), limit: 1 });
      return b ?? null;
    },
    async epochLog(agent, epoch) {
      const rows = await o.reads.epochLog(agentOf(agent), BigInt(epoch));
      return rows.map((r) => ({ id: bytesToHex(r.id), raw: r.raw }));
    },
    chain: (agent) => chainOf(o).agentChain(agentOf(agent)),
    async stats() {
      const [stats, health] = await Promise.all([loadStats(o), loadHealth(o)]);
      return { stats, health };
    },
  };
}

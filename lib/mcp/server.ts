/**
 * The observatory as a Model Context Protocol server (official @modelcontextprotocol/sdk): read-only
 * tools that mirror the HTTP API, for the agents the mesh is made of. Nothing here signs or
 * writes. Answers are kept small for an agent's context: lists are cursor-paged, long arrays and
 * strings are cut with a note saying how much was left out.
 *
 * Transport-free: app/api/mcp/route.ts serves it over Streamable HTTP, `npm run mcp` bridges
 * stdio to that endpoint (scripts/mcp-stdio.ts). The data comes through {@link McpReads}, which
 * the route implements over the running services.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type {
  AgentChainView,
  AgentView,
  BatchJson,
  ConversationList,
  ConversationSummaryView,
  ConversationView,
  HealthReport,
  SearchResult,
  StatsView,
} from '../wire';
import { MAX_TIME_MS, MIN_TIME_MS, TIME_RANGE_TEXT, textProblem } from '../wire/input-limits';
import { CONVERSATION_OUTCOMES, CONVERSATION_STATES, TimePresetSchema } from '../wire/params';
import { ToolInputError } from './errors';
import { inclusionProof } from './inclusion';
import { negotiationDigest } from './negotiation';

export { ToolInputError };

/** What the tools read; every id argument is passed as the caller typed it (hex or base58). */
export interface McpReads {
  search(query: string, limit: number): Promise<SearchResult>;
  agent(agent: string): Promise<{ agent: AgentView; conversations: ConversationSummaryView[] } | null>;
  negotiations(f: {
    agent?: string;
    state?: string;
    outcome?: string;
    range?: '1h' | '24h' | '7d';
    fromMs?: number;
    toMs?: number;
    limit: number;
    cursor?: string;
  }): Promise<ConversationList>;
  negotiation(id: string): Promise<ConversationView | null>;
  /** Raw envelopes of a conversation in protocol order (for the NEG1 analytics). */
  negotiationPayloads(
    id: string,
  ): Promise<{ id: string; sender: string; msgType: number; timestamp: bigint; payload: Uint8Array }[]>;
  batch(agent: string, epoch: string): Promise<BatchJson | null>;
  /** The agent's uploaded epoch log in order: envelope ids and bytes; [] when none. */
  epochLog(agent: string, epoch: string): Promise<{ id: string; raw: Uint8Array | null }[]>;
  chain(agent: string): Promise<AgentChainView | null>;
  stats(): Promise<{ stats: StatsView; health: HealthReport }>;
}

/** Longest array and string a tool answer carries before it is cut. */
export const MAX_ITEMS = 25;
export const MAX_STRING = 400;

/** A copy of `v` with arrays over {@link MAX_ITEMS} and strings over {@link MAX_STRING} cut, each cut noted. */
export function truncate(v: unknown, items = MAX_ITEMS, chars = MAX_STRING): unknown {
  if (typeof v === 'string')
    return v.length > chars ? `${v.slice(0, chars)}… (${v.length - chars} more characters)` : v;
  if (Array.isArray(v)) {
    const head = v.slice(0, items).map((x) => truncate(x, items, chars));
    return v.length > items
      ? [...head, `… ${v.length - items} more items (narrow the query or page with a cursor)`]
      : head;
  }
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, truncate(x, items, chars)]));
  return v;
}

const text = (value: unknown) => ({
  content: [
    {
      type: 'text' as const,
      text: JSON.stringify(truncate(value), (_k, x) => (typeof x === 'bigint' ? x.toString() : x)),
    },
  ],
});
const fail = (message: string) => ({ isError: true, content: [{ type: 'text' as const, text: message }] });

/**
 * Runs a tool body, turning bad input and misses into tool errors (the protocol's way), not
 * exceptions. Any other failure is logged here and answered with a fixed sentence: the SDK would
 * otherwise hand the error's own text (a database's message, a query) to whoever called.
 */
async function answer(fn: () => Promise<unknown>) {
  try {
    return text(await fn());
  } catch (e) {
    if (e instanceof ToolInputError) return fail(e.message);
    console.error('[mcp] tool failed', e);
    return fail(
      'the observatory could not answer this call (an internal error, logged on the server); try again later',
    );
  }
}

/** A text argument: at most `max` characters, none of them NUL or a lone surrogate (lib/wire/input-limits.ts). */
const textArg = (max: number, min = 1) =>
  z
    .string()
    .min(min)
    .max(max)
    .refine((s) => textProblem(s) === null, 'must not hold a NUL character (U+0000) or a lone UTF-16 surrogate');
/** A time argument (unix ms), in the range every time parameter shares. */
const timeArg = z
  .number()
  .int()
  .min(MIN_TIME_MS)
  .max(MAX_TIME_MS, `must be at most ${MAX_TIME_MS} (${TIME_RANGE_TEXT})`);

const notFound = (what: string) => {
  throw new ToolInputError(`${what} not found`);
};

const agentArg = textArg(100).describe('agent id: 64 hex characters or a base58 address');
const epochArg = z
  .string()
  .regex(/^\d{1,19}$/, 'a decimal epoch number')
  .refine((s) => BigInt(s) < 2n ** 63n, 'must be below 2^63')
  .describe('epoch number (decimal)');
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export function createMcpServer(reads: McpReads, version = '1'): McpServer {
  const server = new McpServer(
    { name: 'zerox1-observatory', version },
    {
      instructions:
        'Read-only view of the 0x01 agent mesh: search, agents, negotiations, ' +
        'batches, inclusion proofs, stakes, mesh stats. Ids are lowercase hex; ' +
        'agents also accept base58. Lists return `next`: pass it as `cursor`.',
    },
  );

  server.registerTool(
    'search',
    {
      description:
        'Find agents (hex or base58 id, label), conversations, envelopes, batches ' +
        '("<agent> <epoch>"), challenges and transactions by id or id prefix.',
      inputSchema: { query: textArg(200), limit: z.number().int().min(1).max(20).default(5).describe('hits per kind') },
      annotations: READ_ONLY,
    },
    ({ query, limit }) => answer(() => reads.search(query, limit)),
  );

  server.registerTool(
    'get_agent',
    {
      description:
        'One agent: label, first/last seen, online, envelopes sent, gossip reputation, its latest conversations.',
      inputSchema: { agent: agentArg },
      annotations: READ_ONLY,
    },
    ({ agent }) => answer(async () => (await reads.agent(agent)) ?? notFound(`agent ${agent}`)),
  );

  server.registerTool(
    'list_negotiations',
    {
      description:
        'Conversations (negotiations) newest activity first, filtered by ' +
        'participant, stage, outcome and time; returns `next` for the following page.',
      inputSchema: {
        agent: agentArg.optional(),
        state: z.enum(CONVERSATION_STATES).optional(),
        outcome: z.enum(CONVERSATION_OUTCOMES).optional().describe('`open` = no outcome yet'),
        range: TimePresetSchema.optional().describe('last activity within 1h, 24h or 7d'),
        from_ms: timeArg.optional().describe('last activity at or after (unix ms)'),
        to_ms: timeArg.optional().describe('last activity at or before (unix ms)'),
        limit: z.number().int().min(1).max(100).default(20),
        cursor: textArg(100, 0).optional().describe('`next` of the previous page'),
      },
      annotations: READ_ONLY,
    },
    (a) =>
      answer(() =>
        reads.negotiations({
          agent: a.agent,
          state: a.state,
          outcome: a.outcome,
          range: a.range,
          fromMs: a.from_ms,
          toMs: a.to_ms,
          limit: a.limit,
          cursor: a.cursor,
        }),
      ),
  );

  server.registerTool(
    'get_negotiation',
    {
      description:
        'One conversation: its message trace in protocol order, the NEG1 price path and ' +
        'negotiation analytics (rounds, concessions, curve fits, deal, ZOPA, Nash point).',
      inputSchema: { id: textArg(66).describe('conversation id, 32 hex characters') },
      annotations: READ_ONLY,
    },
    ({ id }) =>
      answer(async () => {
        const c = (await reads.negotiation(id)) ?? notFound(`conversation ${id}`);
        return negotiationDigest(c, await reads.negotiationPayloads(id));
      }),
  );

  server.registerTool(
    'get_batch',
    {
      description:
        "An agent's BehaviorBatch of one epoch as indexed from chain, with " +
        'its check against the uploaded log (verified / mismatch / unverified).',
      inputSchema: { agent: agentArg, epoch: epochArg },
      annotations: READ_ONLY,
    },
    ({ agent, epoch }) =>
      answer(async () => (await reads.batch(agent, epoch)) ?? notFound(`batch of ${agent} in epoch ${epoch}`)),
  );

  server.registerTool(
    'verify_inclusion',
    {
      description:
        'Merkle inclusion proof (docs/protocol.md §5) of an envelope in an ' +
        "agent's epoch log, checked against the batch root committed on chain.",
      inputSchema: {
        agent: agentArg,
        epoch: epochArg,
        envelope: textArg(66).describe('envelope id, 64 hex characters'),
      },
      annotations: READ_ONLY,
    },
    ({ agent, epoch, envelope }) =>
      answer(async () => {
        const batch = await reads.batch(agent, epoch);
        return inclusionProof(envelope, await reads.epochLog(agent, epoch), batch);
      }),
  );

  server.registerTool(
    'get_stake_status',
    {
      description: "An agent's stake and lease on chain, with counts of its batches and challenges.",
      inputSchema: { agent: agentArg },
      annotations: READ_ONLY,
    },
    ({ agent }) =>
      answer(async () => {
        const c = (await reads.chain(agent)) ?? notFound(`chain state of ${agent}`);
        return {
          stake: c.stake,
          lease: c.lease,
          batches: c.batches.length,
          verifiedBatches: c.batches.filter((b) => b.status === 'verified').length,
          challenges: c.challenges.map((x) => ({ address: x.address, epoch: x.epoch, status: x.status })),
        };
      }),
  );

  server.registerTool(
    'mesh_stats',
    {
      description:
        'Mesh totals: envelopes per msg_type, drops per reason, ' +
        'agents, conversations, peers, database and chain health.',
      inputSchema: {},
      annotations: READ_ONLY,
    },
    () =>
      answer(async () => {
        const { stats, health } = await reads.stats();
        return {
          ok: health.ok,
          counts: health.counts,
          peers: health.mesh.peers,
          database: health.database,
          chain: health.chain ?? null,
          byType: stats.byType,
          drops: stats.drops,
        };
      }),
  );

  return server;
}

/** The tool names, for tests and docs. */
export const MCP_TOOLS = [
  'search',
  'get_agent',
  'list_negotiations',
  'get_negotiation',
  'get_batch',
  'verify_inclusion',
  'get_stake_status',
  'mesh_stats',
] as const;

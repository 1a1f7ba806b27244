/**
 * JSON view models of the mesh side, shared by the API routes, the server-rendered pages and
 * the client components: what `/api/envelopes`, `/api/agents`, `/api/conversations`,
 * `/api/graph`, `/api/stats`, `/api/overview`, `/api/health` and the upload endpoints return.
 * Bytes are lowercase hex, 64-bit integers decimal strings, times unix milliseconds.
 */
import { z } from 'zod';
import { CONVERSATION_OUTCOMES, CONVERSATION_STAGES } from '../protocol/conversation-state';
import { ChainOverviewViewSchema } from './chain-views';
import { hex16, hex32, intString, nonNegInt, u64String } from './codec';
import { ReleaseStatusSchema } from './datasets';

/** The header fields every envelope shape starts with (the `message` event and the API's view). */
export const envelopeHeader = {
  id: hex32,
  msgType: nonNegInt.max(255),
  /** msgTypeName of msgType. */
  type: z.string(),
  sender: hex32,
  /** 64 zeros = broadcast. */
  recipient: hex32,
  conversationId: hex16,
};

/** One stored envelope as the feed and the API show it (envelope header fields). */
export const EnvelopeViewSchema = z.object({
  ...envelopeHeader,
  /** Envelope timestamp (sender's clock), unix ms. */
  timestampMs: z.number(),
  /** When the observer stored it. */
  receivedAtMs: z.number().nullable(),
  source: z.string().nullable(),
  topic: z.string().nullable(),
  nonce: u64String,
  payloadLen: nonNegInt,
});
export type EnvelopeView = z.infer<typeof EnvelopeViewSchema>;

/** A page of `/api/envelopes`: pass `next` as `before` for the next (older) page; null at the end. */
export const EnvelopePageSchema = z.object({ envelopes: z.array(EnvelopeViewSchema), next: u64String.nullable() });
export type EnvelopePage = z.infer<typeof EnvelopePageSchema>;

/** Reputation vector (docs/protocol.md, reputation), fixed point ONE = 1,000,000, as decimal strings. */
export const ReputationViewSchema = z.object({
  reliabilityScore: intString,
  cooperationIndex: intString,
  notaryAccuracy: intString,
  totalTasks: intString,
  totalNotarized: intString,
  totalDisputes: intString,
});
export type ReputationView = z.infer<typeof ReputationViewSchema>;

/** An agent known to the observatory. */
export const AgentViewSchema = z.object({
  id: hex32,
  name: z.string().nullable(),
  firstSeenMs: z.number().nullable(),
  lastSeenMs: z.number().nullable(),
  /** Seen within the online window. */
  online: z.boolean(),
  envelopes: nonNegInt.nullable(),
  reputation: ReputationViewSchema.nullable(),
  /**
   * How much of the gossip reputation comes from FEEDBACK of identities with no stake and no deal
   * with the agent: `feedback` about it, `unbacked` of them, and on the agent's own view the
   * reliability its gossip fold would have without them (null where not computed).
   */
  backing: z
    .object({ feedback: nonNegInt, unbacked: nonNegInt, reliabilityWithout: intString.nullable() })
    .nullable()
    .optional(),
  /** The agent's stake on chain, where a list reads it (GET /api/agents); absent elsewhere. */
  stake: z.object({ status: z.string(), amount: u64String }).nullable().optional(),
});
export type AgentView = z.infer<typeof AgentViewSchema>;

export const GraphNodeViewSchema = z.object({ id: hex32, online: z.boolean() });
export type GraphNodeView = z.infer<typeof GraphNodeViewSchema>;

/** Two agents that exchanged bilateral envelopes (a conversation pair); `messages` = how many. */
export const GraphLinkViewSchema = z.object({ source: hex32, target: hex32, messages: nonNegInt });
export type GraphLinkView = z.infer<typeof GraphLinkViewSchema>;

export const GraphViewSchema = z.object({ nodes: z.array(GraphNodeViewSchema), links: z.array(GraphLinkViewSchema) });
export type GraphView = z.infer<typeof GraphViewSchema>;

export const StatsViewSchema = z.object({
  /** Envelopes stored, per msg_type name. */
  byType: z.record(z.string(), nonNegInt),
  /** Drops, per validation reason code (plus mesh reasons such as rate limiting). */
  drops: z.record(z.string(), nonNegInt),
});
export type StatsView = z.infer<typeof StatsViewSchema>;

export const ConversationSummaryViewSchema = z.object({
  id: hex16,
  participants: z.array(hex32),
  messages: nonNegInt,
  /** The state machine's stage and outcome (docs/protocol.md "Conversation state"). */
  stage: z.enum(CONVERSATION_STAGES),
  outcome: z.enum(CONVERSATION_OUTCOMES),
  /** Stage and outcome in words, as the pages show them: "completed (agreed)", "feedback without a deal". */
  state: z.string().nullable(),
  firstMs: z.number().nullable(),
  lastMs: z.number().nullable(),
});
export type ConversationSummaryView = z.infer<typeof ConversationSummaryViewSchema>;

/** One step of a NEG1 negotiation (docs/protocol.md, negotiation). */
export const PriceStepViewSchema = z.object({
  envelopeId: hex32,
  type: z.string(),
  sender: hex32,
  round: nonNegInt.nullable(),
  /** Decimal string, token's smallest unit. */
  bidValue: intString.nullable(),
  /** neg1, negc (sealed commitment), negr (reveal) or opaque. */
  kind: z.enum(['neg1', 'negc', 'negr', 'opaque']),
  timestampMs: z.number(),
});
export type PriceStepView = z.infer<typeof PriceStepViewSchema>;

export const FeedbackViewSchema = z.object({
  envelopeId: hex32,
  from: hex32,
  target: hex32,
  /** -100..100 */
  score: z.number().int(),
  /** 0 negative, 1 neutral, 2 positive */
  outcome: nonNegInt,
  isDispute: z.boolean(),
  /** 0 participant, 1 notary */
  role: nonNegInt,
});
export type FeedbackView = z.infer<typeof FeedbackViewSchema>;

export const NotaryBidViewSchema = z.object({
  envelopeId: hex32,
  bidder: hex32,
  recipient: hex32,
  /** 0 participant request, 1 notary offer */
  bidType: nonNegInt,
});
export type NotaryBidView = z.infer<typeof NotaryBidViewSchema>;

export const ConversationViewSchema = ConversationSummaryViewSchema.extend({
  /** In protocol order (timestamp, nonce). */
  envelopes: z.array(EnvelopeViewSchema),
  pricePath: z.array(PriceStepViewSchema),
  feedback: z.array(FeedbackViewSchema),
  notaryBids: z.array(NotaryBidViewSchema),
});
export type ConversationView = z.infer<typeof ConversationViewSchema>;

/** Rows of the overview's live feed: the snapshot's envelopes, and what the browser keeps. */
export const FEED_SIZE = 30;

/** What the overview renders first and reloads after a reconnect or a `lagged` notice. */
export const OverviewSnapshotSchema = z.object({
  stats: StatsViewSchema,
  envelopes: z.array(EnvelopeViewSchema),
  agents: z.array(AgentViewSchema),
  graph: GraphViewSchema,
  mesh: z.object({ peerId: z.string(), peers: nonNegInt }).nullable(),
  database: z.object({ ok: z.boolean(), kind: z.string() }).nullable(),
  /** The chain section; null/absent when the process runs no chain. */
  chain: ChainOverviewViewSchema.nullable().optional(),
});
export type OverviewSnapshot = z.infer<typeof OverviewSnapshotSchema>;

/** The chain's health as `/api/health` reports it. */
export const ChainHealthSchema = z.object({
  ok: z.boolean(),
  rpcUrl: z.string(),
  slot: nonNegInt.optional(),
  error: z.string().optional(),
});
export type ChainHealth = z.infer<typeof ChainHealthSchema>;

/** `/api/health`. */
/** The ingest side of the database in /api/health: outage state and the buffer of accepted envelopes. */
export const StoreStatusSchema = z.object({
  ok: z.boolean(),
  since: z.string().optional(),
  lastError: z.string().optional(),
  outages: nonNegInt,
  buffered: nonNegInt,
  bufferedBytes: nonNegInt,
  bufferedPeak: nonNegInt,
  shed: nonNegInt,
  retries: nonNegInt,
});

/** `limits` of /api/health: the HTTP server's caps and what they refused since start (docs/app.md "Fair limits"). */
export const LimitsReportSchema = z.object({
  connections: z.object({ open: nonNegInt, clients: nonNegInt, refused: nonNegInt, perClient: nonNegInt.nullable() }),
  /** Upgrade requests answered with a 4xx (not the stream's). */
  upgradesRefused: nonNegInt,
  stream: z.object({ clients: nonNegInt, refused: nonNegInt, perClient: nonNegInt }),
  rpc: z.object({ inFlight: nonNegInt, queued: nonNegInt, overBudget: nonNegInt, busy: nonNegInt }).optional(),
  /** Heavy reads (server/heavy-gate.ts): running and waiting now, refused since start by reason. */
  heavy: z
    .object({
      running: nonNegInt,
      waiting: nonNegInt,
      refusedBusy: nonNegInt,
      refusedWait: nonNegInt,
      refusedBudget: nonNegInt,
      perClient: nonNegInt,
      queue: nonNegInt,
    })
    .optional(),
});
export type LimitsReport = z.infer<typeof LimitsReportSchema>;

/**
 * `memory` of /api/health: the serving process's memory, bytes (process.memoryUsage()), and the embedded chain thread's
 * own heap.
 */
export const MemoryReportSchema = z.object({
  rss: nonNegInt,
  heapUsed: nonNegInt,
  external: nonNegInt,
  arrayBuffers: nonNegInt,
  /** The embedded chain's worker thread (its heap is not in heapUsed); absent on a cluster. */
  chainThread: z.object({ heapUsed: nonNegInt, external: nonNegInt }).optional(),
});
export type MemoryReport = z.infer<typeof MemoryReportSchema>;

/** `leaders` of /api/health: the run-once roles (lib/store/leader/leader.ts) this process leads or stands by for. */
export const LeaderStatusSchema = z.object({
  role: z.enum(['indexer', 'releases', 'alerts']),
  leading: z.boolean(),
  since: z.string().nullable(),
  terms: nonNegInt,
  lastError: z.string().nullable(),
});

export const HealthReportSchema = z.object({
  ok: z.boolean(),
  database: z.object({ ok: z.boolean(), kind: z.enum(['pglite', 'postgres']), error: z.string().optional() }),
  store: StoreStatusSchema,
  mesh: z.object({ peerId: z.string(), peers: nonNegInt, multiaddrs: z.array(z.string()) }),
  counts: z.object({ envelopes: nonNegInt, agents: nonNegInt, drops: nonNegInt, conversations: nonNegInt }),
  chain: ChainHealthSchema.optional(),
  /** When each start-up phase of the serving process ended, ms since the process started. */
  startup: z.array(z.object({ phase: z.string(), ms: nonNegInt })).optional(),
  /** Dataset releases of the serving process (lib/export/release.ts status). */
  datasets: ReleaseStatusSchema.optional(),
  /** The HTTP server's limits (server/main.ts). */
  limits: LimitsReportSchema.optional(),
  /** The serving process's memory. */
  memory: MemoryReportSchema.optional(),
  /** Which run-once roles the serving process leads; the others it stands by for. */
  leaders: z.array(LeaderStatusSchema).optional(),
});
export type HealthReport = z.infer<typeof HealthReportSchema>;

/** Per-item result of an upload to POST /api/ingest/envelopes. */
export const UploadItemResultSchema = z.union([
  z.object({ index: nonNegInt, ok: z.literal(true), id: hex32, duplicate: z.boolean() }),
  z.object({ index: nonNegInt, ok: z.literal(false), reason: z.string(), detail: z.string().optional() }),
]);
export type UploadItemResult = z.infer<typeof UploadItemResultSchema>;

/** The 200 answer of POST /api/ingest/envelopes. */
export const UploadResponseSchema = z.object({ results: z.array(UploadItemResultSchema) });
export type UploadResponse = z.infer<typeof UploadResponseSchema>;

/** The 200 answer of POST /api/ingest/log. */
export const EpochLogUploadViewSchema = z.object({
  agent: hex32,
  epoch: u64String,
  entries: nonNegInt,
  logMerkleRoot: hex32,
  stored: z.enum(['saved', 'unchanged', 'replaced']),
});
export type EpochLogUploadView = z.infer<typeof EpochLogUploadViewSchema>;

/** The body of every 4xx/5xx answer of the API. */
export const ProblemSchema = z.object({ error: z.string() });
export type Problem = z.infer<typeof ProblemSchema>;

/** GET /api/agents. */
export const AgentListSchema = z.object({
  agents: z.array(AgentViewSchema),
  /** Pass as `before` (with the same sort) for the next page; null at the end. */
  next: z.string().nullable(),
});
export type AgentList = z.infer<typeof AgentListSchema>;
/**
 * The agent's latest ADVERTISE: its capabilities decoded when the payload carries the `JSON` or
 * `CBOR` format hint (docs/protocol.md §8), else `format` null and why it stays opaque.
 */
export const AdvertisedViewSchema = z.object({
  envelopeId: hex32,
  timestampMs: z.number(),
  format: z.enum(['JSON', 'CBOR']).nullable(),
  capabilities: z.unknown().meta({
    description: 'the decoded JSON object or CBOR map/array (CBOR byte strings as 0x hex text); null when opaque',
  }),
  opaque: z.string().nullable().meta({ description: 'why the payload is opaque; null when decoded' }),
});
export type AdvertisedView = z.infer<typeof AdvertisedViewSchema>;
/** GET /api/agents/{id}: the agent, its latest envelopes and conversations, its advertised capabilities. */
export const AgentDetailSchema = z.object({
  agent: AgentViewSchema,
  envelopes: z.array(EnvelopeViewSchema),
  conversations: z.array(ConversationSummaryViewSchema),
  advertised: AdvertisedViewSchema.nullable(),
});
export type AgentDetail = z.infer<typeof AgentDetailSchema>;
/** GET /api/conversations. */
export const ConversationListSchema = z.object({
  conversations: z.array(ConversationSummaryViewSchema),
  /** Pass as `before` for the next (older) page; null at the end. */
  next: z.string().nullable(),
});
export type ConversationList = z.infer<typeof ConversationListSchema>;

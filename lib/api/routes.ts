/**
 * Every HTTP route of the API with the schemas it validates its input with and answers with, all
 * from lib/wire. The OpenAPI document (./openapi.ts) is generated from this table, the reference
 * page at /docs/api renders that document, and app/api's route walker test checks each route
 * file has a row here and that real answers match the row's schemas.
 */
import { z } from 'zod';
import {
  AgentBatchesQuerySchema,
  AgentBatchPageSchema,
  AgentDetailSchema,
  AgentIdPathSchema,
  AgentListSchema,
  AgentsQuerySchema,
  BatchesQuerySchema,
  BatchListSchema,
  BatchLogPathSchema,
  BatchLogViewSchema,
  ChallengeableQuerySchema,
  ChallengeCandidateListSchema,
  ChallengeListSchema,
  ChallengesQuerySchema,
  ConversationIdPathSchema,
  ConversationListSchema,
  ConversationsQuerySchema,
  ConversationViewSchema,
  DatasetFilePathSchema,
  DatasetReleaseListSchema,
  EconomyViewSchema,
  EnvelopeIdPathSchema,
  EnvelopePageSchema,
  EnvelopeRawViewSchema,
  EnvelopesQuerySchema,
  EpochLogUploadViewSchema,
  EXPORT_CONTENT_TYPES,
  ExportProgressQuerySchema,
  ExportProgressSchema,
  ExportQuerySchema,
  ExportTablePathSchema,
  FaucetResultSchema,
  GraphViewSchema,
  HealthReportSchema,
  InclusionViewSchema,
  NegotiationListSchema,
  NegotiationsQuerySchema,
  NegotiationViewSchema,
  NoQuerySchema,
  OverviewSnapshotSchema,
  ProblemSchema,
  RegistrationFileSchema,
  ReputationJsonSchema,
  ReputationPathSchema,
  SearchQuerySchema,
  SearchResultSchema,
  StatsViewSchema,
  UploadResponseSchema,
} from '../wire';
import {
  AlertListSchema,
  AlertsQuerySchema,
  ReadBodySchema,
  ReadResultSchema,
  RemovedSchema,
  RuleBodySchema,
  RuleResultSchema,
  UnreadQuerySchema,
  UnreadSchema,
  WalletBodySchema,
  WalletBoundSchema,
  WatchItemBodySchema,
  WatchItemQuerySchema,
  WatchItemResultSchema,
  WatchlistCreatedSchema,
  WatchlistPathSchema,
  WatchlistRulePathSchema,
  WatchlistViewSchema,
  WatchlistWebhookPathSchema,
  WebhookBodySchema,
  WebhookViewSchema,
} from '../wire/alerts';
import { CollusionQuerySchema, CollusionViewSchema } from '../wire/collusion';
import {
  DisputeDetailSchema,
  DisputeIdPathSchema,
  DisputeListSchema,
  DisputeOpinionRequestSchema,
  DisputeOpinionResultSchema,
  DisputesQuerySchema,
} from '../wire/disputes';
import { MeshHealthQuerySchema, MeshHealthViewSchema } from '../wire/mesh-health';
import {
  ReconciliationDetailSchema,
  ReconciliationPathSchema,
  ReconciliationQuerySchema,
  ReconciliationViewSchema,
} from '../wire/reconciliation';
import { ReplayPageSchema, ReplayQuerySchema } from '../wire/replay';
import { StatsSeriesQuerySchema, StatsSeriesSchema } from '../wire/stats';

export type Method = 'get' | 'post' | 'put' | 'delete';

export interface ApiRoute {
  method: Method;
  /** OpenAPI path template: `/api/agents/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: 'mesh' | 'chain' | 'search' | 'ingest' | 'datasets' | 'meta' | 'mcp' | 'alerts';
  query?: z.ZodObject;
  params?: z.ZodObject;
  /** A binary request body, by media type. */
  body?: {
    mediaType: string;
    description: string /** The JSON body's schema (else `ok`'s, as the older JSON routes document it). */;
    schema?: z.ZodType;
  };
  /** A JSON request body and its schema. */
  jsonBody?: z.ZodType;
  /** Request headers the route reads. */
  headers?: z.ZodObject;
  /** Status → JSON schema of the answer (every status also may answer a Problem). */
  ok: z.ZodType;
  okStatus?: number;
  /** Extra documented statuses besides 200, 400, 429, 500, 503. */
  more?: Record<number, string>;
  /** The success answer is not JSON of `ok` but bytes of these media types (a download). */
  mediaType?: string | readonly string[];
}

/** The watchlist token every watchlist and alert call but the list's creation carries. */
const WatchlistToken = z.object({
  'x-watchlist-token': z.string().meta({
    description:
      'the token POST /api/watchlists (or POST /api/watchlists/by-wallet) returned; only its SHA-256 is stored',
  }),
});
const TOKEN_403 = { 403: 'no token, or not a token of this watchlist' };

/** JSON-RPC message of the MCP Streamable HTTP transport (the MCP specification's, not ours). */
const JsonRpc = z.object({ jsonrpc: z.literal('2.0') }).catchall(z.unknown());

export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: 'get',
    path: '/api/health',
    tag: 'meta',
    summary: 'Database, mesh, counts and chain health',
    ok: HealthReportSchema,
    more: { 503: 'not ok (same body)' },
  },
  {
    method: 'get',
    path: '/api/overview',
    tag: 'mesh',
    summary: "The overview page's snapshot",
    ok: OverviewSnapshotSchema.nullable(),
  },
  {
    method: 'get',
    path: '/api/stats',
    tag: 'mesh',
    summary: 'Envelopes per msg_type, drops per reason',
    ok: StatsViewSchema,
  },
  {
    method: 'get',
    path: '/api/stats/series',
    tag: 'mesh',
    summary: 'The economy over time: one metric per interval over 1h, 24h, 7d or all',
    description:
      'Read from rollups the ingest statement and the chain indexer keep (never a scan of the envelopes). ' +
      'Values are decimal strings (exact counts and token amounts, rates to four decimals); null ' +
      'is an unknown rate. Metrics and how each is counted: docs/analytics.md "The economy over time".',
    query: StatsSeriesQuerySchema,
    ok: StatsSeriesSchema,
  },
  {
    method: 'get',
    path: '/api/stats/series/csv',
    tag: 'mesh',
    summary: 'The same series as a CSV download',
    description:
      'Columns interval_start_utc, interval_seconds, then one per series (a per-service series is ' +
      '"metric: name [service <hash>, token <mint hex or unspecified>]"); an empty cell is an unknown rate.',
    query: StatsSeriesQuerySchema,
    ok: z.unknown(),
    mediaType: 'text/csv',
  },
  {
    method: 'get',
    path: '/api/mesh/health',
    tag: 'mesh',
    summary: 'Mesh health over time: per topic and interval, as measured by each observer',
    description:
      'Envelopes accepted, first-seen latency p50/p90/p99 (arrival minus the envelope timestamp, ms), ' +
      'GossipSub received/duplicate/invalid counts, mesh and topic peers, GRAFT/PRUNE churn and peer ' +
      'scores; topic * adds connections, rate-limited peers and drops per reason. Minutes are kept 2 days, ' +
      'hours 35 days. Prometheus metrics of the same node: GET /metrics (docs/app.md "Mesh health").',
    query: MeshHealthQuerySchema,
    ok: MeshHealthViewSchema,
  },
  {
    method: 'get',
    path: '/api/graph',
    tag: 'mesh',
    summary: 'Agents and the agent pairs that exchanged envelopes',
    ok: GraphViewSchema,
  },
  {
    method: 'get',
    path: '/api/envelopes',
    tag: 'mesh',
    summary: 'Stored envelopes, newest first, cursor-paged',
    query: EnvelopesQuerySchema,
    ok: EnvelopePageSchema,
  },
  {
    method: 'get',
    path: '/api/replay',
    tag: 'mesh',
    summary: 'A past window replayed: stored envelopes in (timestamp, id) order as live `message` events, keyset-paged',
    description:
      'The window is `from`..`to` (unix ms, both inclusive, on the envelope timestamp; ' +
      'default the last five minutes). Envelopes come oldest first by envelope timestamp, ties ' +
      'by id, each as the `message` event the live stream carries (`at`: when the observer ' +
      'received it). Pass `next` back as `after` with the same `from` and `to`; null when ' +
      'the window is done. The overview replays a window with it (docs/app.md "Replay").',
    query: ReplayQuerySchema,
    ok: ReplayPageSchema,
  },
  {
    method: 'get',
    path: '/api/agents',
    tag: 'mesh',
    summary: 'Agents with online state, gossip reputation and stake; filtered, sorted, cursor-paged',
    description:
      "Reliability is the gossip fold of the agent's FEEDBACK (docs/protocol.md §7), " +
      'fixed point 1,000,000 = 1.0; pass `next` back as `before` with the same sort.',
    query: AgentsQuerySchema,
    ok: AgentListSchema,
  },
  {
    method: 'get',
    path: '/api/agents/{id}',
    tag: 'mesh',
    summary: 'One agent: reputation, latest envelopes, conversations',
    params: AgentIdPathSchema,
    ok: AgentDetailSchema,
    more: { 404: 'unknown agent' },
  },
  {
    method: 'get',
    path: '/api/agents/{id}/registration',
    tag: 'chain',
    summary: "A demo agent's SATI registration file (its metadata uri)",
    description:
      'The JSON a demo agent registered as its TokenMetadata uri: name, ' +
      'description and the `zerox1-mesh` service with its libp2p multiaddr (empty ' +
      "until its node is up). Only this observatory's demo agents have one here.",
    params: AgentIdPathSchema,
    ok: RegistrationFileSchema,
    more: { 404: 'not a demo agent of this observatory' },
  },
  {
    method: 'get',
    path: '/api/agents/{id}/economy',
    tag: 'chain',
    summary: "The agent's stake, lease and challenges per epoch, from its indexed chain events",
    description:
      'One point per epoch with a stake, lease or challenge event and one for the current epoch, each ' +
      "the state at the epoch's end; amounts are USDC base units (6 decimals) as decimal strings. " +
      'Stake events are placed by their block time, lease events by the epoch they carry. The last point ' +
      'equals the indexed stake and lease accounts (`accounts`, what getAccountInfo reads for the ' +
      'stake and lease PDAs); `historyNote` says when the indexed events do not lead to them. `known: ' +
      'false` with `reason` when this process runs no chain. docs/app.md "Stake and lease over epochs".',
    params: AgentIdPathSchema,
    query: NoQuerySchema,
    ok: EconomyViewSchema,
  },
  {
    method: 'get',
    path: '/api/agents/{id}/batches',
    tag: 'chain',
    summary:
      "The agent's batches, newest epoch first, a page at a time, each " +
      'with its verdict, authoritative fold, reconciliation and challenges',
    description:
      'Each BehaviorBatch of the agent once: its verdict against the uploaded log, the ' +
      'authoritative reliability and cooperation after folding it (`after`, fixed point 1,000,000 ' +
      '= 1 point; null unless verified and folded), its log against what the observer saw on ' +
      'the mesh as stored at the verdict (`reconciliation`, figures null with `unknownReason` ' +
      'unless verified), and how many challenges it drew. Pass `next` back as `before` for ' +
      'older epochs, or give `epoch` for just the batch of that epoch (the one the agent ' +
      'page pins when a link opens it). The agent page lists these (docs/app.md "Agent page").',
    params: AgentIdPathSchema,
    query: AgentBatchesQuerySchema,
    ok: AgentBatchPageSchema,
  },
  {
    method: 'get',
    path: '/api/conversations',
    tag: 'mesh',
    summary: 'Conversations, filtered, sorted (last activity, first seen, messages) and cursor-paged',
    description:
      'A time window (on last activity) is either a preset `range` or `from`/`to`; pass `next` ' +
      'back as `before` with the same sort for the next page (a cursor of another sort is a 400).',
    query: ConversationsQuerySchema,
    ok: ConversationListSchema,
  },
  {
    method: 'get',
    path: '/api/conversations/{id}',
    tag: 'mesh',
    summary: 'One conversation: messages in protocol order, NEG1 price path, notary bids, feedback',
    params: ConversationIdPathSchema,
    ok: ConversationViewSchema,
    more: { 404: 'unknown conversation' },
  },
  {
    method: 'get',
    path: '/api/batches',
    tag: 'chain',
    summary: 'BehaviorBatches as indexed, newest first by epoch or slot, cursor-paged',
    description:
      'Keyset-paged on (epoch, agent) or (slot, agent, epoch); pass `next` back as `before` with the same sort.',
    query: BatchesQuerySchema,
    ok: BatchListSchema,
  },
  {
    method: 'get',
    path: '/api/challenges',
    tag: 'chain',
    summary: 'Challenges with their transitions, by opened slot or epoch, cursor-paged',
    description:
      'Oldest first unless `order=desc`; keyset-paged on (sort key, ' +
      'address); pass `next` back as `before` with the same sort and order.',
    query: ChallengesQuerySchema,
    ok: ChallengeListSchema,
  },
  {
    method: 'get',
    path: '/api/reputation/{agent}',
    tag: 'chain',
    summary: 'Gossip-derived and batch-derived reputation side by side',
    params: ReputationPathSchema,
    query: NoQuerySchema,
    ok: ReputationJsonSchema,
  },
  {
    method: 'get',
    path: '/api/collusion',
    tag: 'mesh',
    summary:
      'Signals of possible collusion per agent: reciprocal feedback, counterparty ' +
      'concentration, notary reuse, feedback from agents without deals, with stake',
    description:
      'Read over a bounded window of the newest rows of each source (`windows` says how much ' +
      'each covered and whether older rows were left out). A figure that cannot be known ' +
      'is null with its reason; a pair or notary that cannot be told is counted apart ' +
      '(`notaryReuse.unknownNotary`, `unknownPair`). Definitions: docs/app.md "Collusion signals".',
    query: CollusionQuerySchema,
    ok: CollusionViewSchema,
  },
  {
    method: 'get',
    path: '/api/reconciliation',
    tag: 'chain',
    summary: 'Gossip against committed logs: totals, per-topic shares and the newest agent-epochs',
    description:
      'Per agent and epoch with a batch verdict, as stored when the verdict was reached: envelopes ' +
      "the observer saw live (gossip or stream) that belong in the agent's log (docs/protocol.md §5) " +
      'but are missing from it, log entries never seen on the mesh, and per topic the share ' +
      "of envelopes seen that appear in some committed log. Only a verified batch's log is " +
      'committed; other verdicts have null figures and `unknownReason`. docs/app.md "Reconciliation".',
    query: ReconciliationQuerySchema,
    ok: ReconciliationViewSchema,
  },
  {
    method: 'get',
    path: '/api/reconciliation/{agent}/{epoch}',
    tag: 'chain',
    summary: 'One agent-epoch read live: every figure with the envelope ids behind it',
    params: ReconciliationPathSchema,
    query: NoQuerySchema,
    ok: ReconciliationDetailSchema,
  },
  {
    method: 'get',
    path: '/api/disputes',
    tag: 'mesh',
    summary: 'Every DISPUTE envelope, newest first, with its reviewer opinion counts and the open/reviewed totals',
    description:
      'Keyset pages on (envelope timestamp, id): pass `next` as `before` with the same status. A ' +
      'dispute is `reviewed` once a reviewer has recorded an opinion. docs/app.md "Dispute desk".',
    query: DisputesQuerySchema,
    ok: DisputeListSchema,
  },
  {
    method: 'get',
    path: '/api/disputes/{id}',
    tag: 'mesh',
    summary:
      "One DISPUTE with its conversation's evidence in order, notary, " +
      "verdict, receipt, on-chain settlement and the reviewers' signed opinions",
    params: DisputeIdPathSchema,
    query: NoQuerySchema,
    ok: DisputeDetailSchema,
    more: { 404: 'no such DISPUTE envelope' },
  },
  {
    method: 'post',
    path: '/api/disputes/{id}/opinions',
    tag: 'mesh',
    summary: "A reviewer's opinion on a dispute, signed by their wallet",
    description:
      'The message is the canonical text "Zerox1 Observatory dispute review\\ndispute: ' +
      '<id>\\nopinion: upheld|rejected|unclear\\nnote: <one line, ≤ 500 characters>\\nat: <ISO ' +
      'time>", signed (Ed25519, a wallet\'s signMessage) by `reviewer`. Refused when older than ' +
      '10 minutes or about another dispute. One current opinion per reviewer and dispute: ' +
      'a newer message replaces the older one, which is not kept. docs/app.md "Dispute desk".',
    params: DisputeIdPathSchema,
    body: {
      mediaType: 'application/json',
      description:
        '{"reviewer": "<base58 wallet address>", "message": "<the signed text>", "signature": "<128 hex or base58>"}',
      schema: DisputeOpinionRequestSchema,
    },
    ok: DisputeOpinionResultSchema,
    more: {
      403: 'the signature does not verify',
      404: 'no such DISPUTE envelope',
      409: 'the reviewer has a newer opinion on this dispute',
      413: 'over the size cap',
    },
  },
  {
    method: 'get',
    path: '/api/negotiations',
    tag: 'chain',
    summary: 'Latest on-chain (Haggle) negotiations with the conversation each settles',
    query: NegotiationsQuerySchema,
    ok: NegotiationListSchema,
  },
  {
    method: 'get',
    path: '/api/search',
    tag: 'search',
    summary: 'Find agents, conversations, envelopes, batches, challenges and transactions',
    query: SearchQuerySchema,
    ok: SearchResultSchema,
  },
  {
    method: 'post',
    path: '/api/ingest/envelopes',
    tag: 'ingest',
    summary: 'An agent uploads its bilateral envelopes',
    body: {
      mediaType: 'application/cbor',
      description: 'CBOR array of envelope byte strings (≤ 8 MiB, ≤ 10,000 items)',
    },
    ok: UploadResponseSchema,
    more: { 413: 'over the size cap', 503: 'the database is unreachable: nothing stored, upload again (Retry-After)' },
  },
  {
    method: 'post',
    path: '/api/ingest/log',
    tag: 'ingest',
    summary: 'An agent uploads the epoch log its on-chain batch commits to',
    body: {
      mediaType: 'application/cbor',
      description:
        'CBOR [agent_id bstr(32), epoch uint, [envelope bstr, ...], (batch bstr,) signer bstr(32), ' +
        'signature bstr(64)]: Ed25519 by a key registered for the agent over keccak256("zerox1/epoch-log/v1" ' +
        '‖ agent_id ‖ epoch u64 BE ‖ log root); unsigned forms count only with the on-chain root',
    },
    ok: EpochLogUploadViewSchema,
    more: {
      403: 'missing or wrong signature: nothing stored',
      409: 'a different log is kept (its batch is verified, or the upload is unsigned)',
      413: 'over the size cap',
      503: 'the database is unreachable: upload again (Retry-After)',
    },
  },
  {
    method: 'get',
    path: '/api/conversations/{id}/negotiation',
    tag: 'mesh',
    summary:
      'The flight recorder: NEG1 offers, analytics (concession fits, ' +
      'ZOPA, Nash, Rubinstein, escrow decay) and the task timeline',
    params: ConversationIdPathSchema,
    query: NoQuerySchema,
    ok: NegotiationViewSchema,
    more: { 404: 'unknown conversation' },
  },
  {
    method: 'get',
    path: '/api/conversations/{id}/receipt',
    tag: 'mesh',
    summary: 'The Handshake receipt of a finished conversation (canonical CBOR download)',
    params: ConversationIdPathSchema,
    query: NoQuerySchema,
    ok: z.unknown(),
    mediaType: 'application/cbor',
    more: { 404: 'unknown conversation', 409: 'not finished: names the missing ACCEPT, VERDICT or FEEDBACK' },
  },
  {
    method: 'get',
    path: '/api/envelopes/{id}/raw',
    tag: 'mesh',
    summary: "An envelope's bytes as stored, for the browser to verify itself",
    params: EnvelopeIdPathSchema,
    query: NoQuerySchema,
    ok: EnvelopeRawViewSchema,
    more: { 404: 'unknown envelope' },
  },
  {
    method: 'get',
    path: '/api/envelopes/{id}/inclusion',
    tag: 'chain',
    summary: 'Per uploaded epoch log holding the envelope: its log entry, index and merkle proof',
    params: EnvelopeIdPathSchema,
    query: NoQuerySchema,
    ok: InclusionViewSchema,
  },
  {
    method: 'get',
    path: '/api/batches/{agent}/{epoch}/log',
    tag: 'chain',
    summary: 'The epoch log an agent uploaded for a batch, envelope bytes in log order',
    params: BatchLogPathSchema,
    query: NoQuerySchema,
    ok: BatchLogViewSchema,
    more: { 404: 'no uploaded log' },
  },
  {
    method: 'get',
    path: '/api/batches/challengeable',
    tag: 'chain',
    summary: 'Entries of the uploaded log the batch contradicts, with pre-filled challenge evidence',
    query: ChallengeableQuerySchema,
    ok: ChallengeCandidateListSchema,
  },
  {
    method: 'post',
    path: '/api/chain/faucet',
    tag: 'chain',
    summary: 'Embedded chain only: 2 SOL and 100 demo USDC to a wallet',
    body: { mediaType: 'application/json', description: '{"address": "<base58 wallet address>"}' },
    ok: FaucetResultSchema,
    more: {
      409: 'no faucet here (a real cluster, or FAUCET=off)',
      413: 'over the size cap',
      429: 'over the per-client or per-wallet budget (Retry-After)',
      503: 'the faucet cannot pay',
    },
  },
  {
    method: 'post',
    path: '/api/chain/rpc',
    tag: 'chain',
    summary: "The embedded chain's Solana JSON-RPC, same origin for the browser's wallet",
    body: { mediaType: 'application/json', description: 'a Solana JSON-RPC request' },
    ok: JsonRpc,
    more: {
      404: 'no embedded chain (use SOLANA_RPC_URL)',
      413: 'over the size cap, or a batch over RPC_MAX_BATCH calls',
      415: 'not application/json',
      429: 'over a per-client budget of calls, or the proxy is busy (Retry-After)',
    },
  },
  {
    method: 'get',
    path: '/api/export/{table}',
    tag: 'datasets',
    summary: 'A dataset table streamed as a CSV, JSONL or Parquet download',
    description:
      'X-Total-Rows, X-Matching-Rows and X-Schema-Version go out before the first ' +
      'row; columns per table in docs/datasets.md. Rate-limited by the export budget.',
    params: ExportTablePathSchema,
    query: ExportQuerySchema,
    ok: z.unknown(),
    mediaType: Object.values(EXPORT_CONTENT_TYPES),
  },
  {
    method: 'get',
    path: '/api/export/progress',
    tag: 'datasets',
    summary: 'Rows written so far by the export started with `job`',
    query: ExportProgressQuerySchema,
    ok: ExportProgressSchema,
    more: { 404: 'no export with that job' },
  },
  {
    method: 'get',
    path: '/api/datasets',
    tag: 'datasets',
    summary: 'The epoch releases in the release folder, newest first, with row counts, files and sha256',
    query: NoQuerySchema,
    ok: DatasetReleaseListSchema,
  },
  {
    method: 'get',
    path: '/api/datasets/{file}',
    tag: 'datasets',
    summary: 'One file of a release: a table as Parquet or the epoch manifest',
    params: DatasetFilePathSchema,
    query: NoQuerySchema,
    ok: z.unknown(),
    mediaType: ['application/vnd.apache.parquet', 'application/json'],
    more: { 404: 'no such released file' },
  },
  {
    method: 'post',
    path: '/api/watchlists',
    tag: 'alerts',
    summary: 'A new watchlist for this browser: its id and its token (shown once)',
    description:
      'No account: the token is the key. Keep it; every other watchlist and alert call sends it in the ' +
      'x-watchlist-token header. Alert kinds, rules, webhooks and caps: docs/app.md "Alerts and watchlists".',
    ok: WatchlistCreatedSchema,
    okStatus: 201,
  },
  {
    method: 'get',
    path: '/api/watchlists/{id}',
    tag: 'alerts',
    summary: 'A watchlist: wallet, watched items, rules, webhooks with their delivery status, caps',
    params: WatchlistPathSchema,
    query: NoQuerySchema,
    headers: WatchlistToken,
    ok: WatchlistViewSchema,
    more: { ...TOKEN_403, 404: 'no such watchlist' },
  },
  {
    method: 'put',
    path: '/api/watchlists/{id}/items',
    tag: 'alerts',
    summary: 'Watch an agent (hex or base58) or a conversation (32 hex)',
    params: WatchlistPathSchema,
    headers: WatchlistToken,
    jsonBody: WatchItemBodySchema,
    ok: WatchItemResultSchema,
    more: { ...TOKEN_403, 409: 'over the cap of watched items (ALERT_MAX_AGENTS)' },
  },
  {
    method: 'delete',
    path: '/api/watchlists/{id}/items',
    tag: 'alerts',
    summary: 'Stop watching an agent or conversation',
    params: WatchlistPathSchema,
    query: WatchItemQuerySchema,
    headers: WatchlistToken,
    ok: WatchItemResultSchema,
    more: TOKEN_403,
  },
  {
    method: 'put',
    path: '/api/watchlists/{id}/rules/{kind}',
    tag: 'alerts',
    summary: 'Turn an alert rule on or off, with its parameters',
    params: WatchlistRulePathSchema,
    headers: WatchlistToken,
    jsonBody: RuleBodySchema,
    ok: RuleResultSchema,
    more: { ...TOKEN_403, 409: 'over the cap of enabled rules (ALERT_MAX_RULES)' },
  },
  {
    method: 'post',
    path: '/api/watchlists/{id}/webhooks',
    tag: 'alerts',
    summary: "Add a webhook (slack, discord or json) for the list's alerts",
    description:
      'http or https only; loopback, private, shared, link-local, multicast and reserved addresses (also ' +
      'written inside IPv6), and names resolving to them, are refused (checked again at every send, which ' +
      'connects to the checked address only). Every delivery carries X-Zerox1-Delivery, X-Zerox1-Timestamp and, ' +
      'with a secret, X-Zerox1-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<delivery>.<raw body>">.',
    params: WatchlistPathSchema,
    headers: WatchlistToken,
    jsonBody: WebhookBodySchema,
    ok: WebhookViewSchema,
    okStatus: 201,
    more: { ...TOKEN_403, 409: 'over the cap of webhooks' },
  },
  {
    method: 'delete',
    path: '/api/watchlists/{id}/webhooks/{webhookId}',
    tag: 'alerts',
    summary: 'Delete a webhook and its undelivered deliveries',
    params: WatchlistWebhookPathSchema,
    headers: WatchlistToken,
    ok: RemovedSchema,
    more: { ...TOKEN_403, 404: 'not a webhook of this list' },
  },
  {
    method: 'post',
    path: '/api/watchlists/{id}/wallet',
    tag: 'alerts',
    summary: 'Bind a wallet (a signed message) and watch the agents it owns',
    description:
      'The wallet signs "Zerox1 Observatory watchlist <id> owned by <address> at <ISO ' +
      'time>" (Solana signMessage, ed25519) within 10 minutes of now; signature in ' +
      'base58, base64 or hex. A wallet follows one list: binding it elsewhere moves it.',
    params: WatchlistPathSchema,
    headers: WatchlistToken,
    jsonBody: WalletBodySchema,
    ok: WalletBoundSchema,
    more: { ...TOKEN_403, 409: 'this signature was used already' },
  },
  {
    method: 'post',
    path: '/api/watchlists/by-wallet',
    tag: 'alerts',
    summary:
      'The list bound to a wallet, with a new token for this browser ' +
      '(signed message as for binding, id or *; in the body, never the URL)',
    jsonBody: WalletBodySchema,
    ok: WatchlistCreatedSchema,
    more: {
      403: 'the signature does not verify',
      404: 'no list is bound to the wallet',
      409: 'this signature was used already',
      413: 'body over 16 KiB',
    },
  },
  {
    method: 'get',
    path: '/api/alerts',
    tag: 'alerts',
    summary: "A watchlist's alerts, newest first, with its unread count",
    query: AlertsQuerySchema,
    headers: WatchlistToken,
    ok: AlertListSchema,
    more: TOKEN_403,
  },
  {
    method: 'get',
    path: '/api/alerts/unread',
    tag: 'alerts',
    summary: "The count of a watchlist's unread alerts",
    query: UnreadQuerySchema,
    headers: WatchlistToken,
    ok: UnreadSchema,
    more: TOKEN_403,
  },
  {
    method: 'post',
    path: '/api/alerts/read',
    tag: 'alerts',
    summary: 'Mark alerts read: some by id, or all',
    headers: WatchlistToken,
    jsonBody: ReadBodySchema,
    ok: ReadResultSchema,
    more: TOKEN_403,
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'meta',
    summary: 'This document (OpenAPI 3.1)',
    ok: z.object({ openapi: z.string() }).catchall(z.unknown()),
  },
  {
    method: 'post',
    path: '/api/mcp',
    tag: 'mcp',
    summary: 'Model Context Protocol, Streamable HTTP transport (stateless)',
    description:
      'JSON-RPC 2.0 per the MCP specification: initialize, ' +
      'tools/list, tools/call. Read-only tools; see docs/app.md "MCP".',
    body: { mediaType: 'application/json', description: 'a JSON-RPC request or notification' },
    ok: JsonRpc,
    more: { 202: 'a notification was accepted', 406: 'Accept must list application/json and text/event-stream' },
  },
  {
    method: 'get',
    path: '/api/mcp',
    tag: 'mcp',
    summary: 'MCP server-to-client stream: not offered by this stateless server',
    ok: ProblemSchema,
    okStatus: 405,
  },
  {
    method: 'delete',
    path: '/api/mcp',
    tag: 'mcp',
    summary: 'MCP session end: no sessions in this stateless server',
    ok: ProblemSchema,
    okStatus: 405,
  },
];

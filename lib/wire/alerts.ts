/**
 * The watchlist and alert API (docs/app.md "Alerts and watchlists"): query, path and body
 * schemas the routes validate with and the answers they give. Every call on a watchlist but its
 * creation carries the list's token in the `x-watchlist-token` header.
 */
import { z } from 'zod';
import { qp } from './params';

const watchlistId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22}$/, 'must be 22 base64url characters (the id POST /api/watchlists returned)');
const agentOrHex = z.string().trim().min(1).max(100);

/**
 * The text a wallet signs to tie a watchlist to it (`*` for any list: taking over the one it
 * follows from another browser). Built here for the page and parsed here by the server.
 */
export function watchlistWalletMessage(id: string, address: string, at: Date): string {
  return `Zerox1 Observatory watchlist ${id} owned by ${address} at ${at.toISOString()}`;
}
/** {@link watchlistWalletMessage}'s text: list id, address, ISO time. */
export const WATCHLIST_WALLET_MESSAGE_RE =
  /^Zerox1 Observatory watchlist (\S+) owned by (\S+) at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)$/;

export const AlertKindSchema = z.enum([
  'offline',
  'lease_due',
  'lease_grace',
  'deactivated',
  'batch_missing',
  'batch_mismatch',
  'challenged',
  'challenge_resolved',
  'slashed',
  'reputation_drop',
  'drops_rate',
  'dispute',
]);
export const WatchItemKindSchema = z.enum(['agent', 'conversation']);
export const WebhookFormatSchema = z.enum(['slack', 'discord', 'json']);

export const WatchlistCreatedSchema = z.object({ id: z.string(), token: z.string() });
export const WatchlistPathSchema = z.object({ id: watchlistId });
export const WatchlistRulePathSchema = z.object({ id: watchlistId, kind: AlertKindSchema });
export const WatchlistWebhookPathSchema = z.object({
  id: watchlistId,
  webhookId: z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be 22 base64url characters'),
});

export const WebhookViewSchema = z.object({
  id: z.string(),
  url: z.string(),
  format: WebhookFormatSchema,
  hasSecret: z.boolean(),
  status: z.enum(['ok', 'failing', 'new']),
  lastError: z.string().nullable(),
  /** Unix ms of the last delivery a 2xx answered. */
  lastDeliveredAt: z.number().nullable(),
});

export const WatchlistViewSchema = z.object({
  id: z.string(),
  wallet: z.string().nullable(),
  items: z.array(z.object({ kind: WatchItemKindSchema, target: z.string() })),
  rules: z.array(z.object({ kind: AlertKindSchema, params: z.record(z.string(), z.unknown()), enabled: z.boolean() })),
  webhooks: z.array(WebhookViewSchema),
  caps: z.object({ agents: z.number().int(), rules: z.number().int(), deliveriesPerHour: z.number().int() }),
});

export const WatchItemBodySchema = z.strictObject({ kind: WatchItemKindSchema, target: agentOrHex });
export const WatchItemQuerySchema = z.object({ kind: WatchItemKindSchema, target: agentOrHex });
export const WatchItemResultSchema = z.object({ added: z.boolean().optional(), removed: z.boolean().optional() });
export const RuleBodySchema = z.strictObject({
  enabled: z.boolean(),
  params: z.record(z.string(), z.unknown()).optional(),
});
export const RuleResultSchema = z.object({
  kind: AlertKindSchema,
  enabled: z.boolean(),
  params: z.record(z.string(), z.unknown()),
});
export const WebhookBodySchema = z.strictObject({
  url: z.string(),
  format: WebhookFormatSchema,
  secret: z.string().optional(),
});
export const RemovedSchema = z.object({ removed: z.boolean() });
/**
 * A wallet-signed request's body (binding, and finding the list by wallet): signatures travel in bodies, never URLs.
 */
export const WalletBodySchema = z.strictObject({
  address: z.string().min(1).meta({ description: 'the wallet, base58' }),
  message: z.string().min(1).meta({
    description: 'Zerox1 Observatory watchlist <id, or * to find the list by wallet> owned by <address> at <ISO time>',
  }),
  signature: z
    .string()
    .min(1)
    .meta({
      description:
        'the ed25519 signature of the message: 128 lowercase hex characters, ' +
        'base58, or base64 with padding; each signature is accepted once',
    }),
});
export const WalletBoundSchema = z.object({
  wallet: z.string(),
  agentsOwned: z.number().int(),
  agentsAdded: z.number().int(),
});

export const AlertsQuerySchema = z.object({
  watchlist: watchlistId,
  state: z.enum(['open', 'cleared', 'all']).default('all'),
  kind: AlertKindSchema.optional(),
  agent: agentOrHex.optional().meta({ description: 'agent id: 64 hex characters or a base58 address' }),
  limit: qp.int(1, 500).default(100),
  before: z
    .string()
    .regex(/^\d{1,19}$/, 'must be an alert id (decimal)')
    .optional()
    .meta({ description: 'page on: alerts with a smaller id than this' }),
});
export const UnreadQuerySchema = z.object({ watchlist: watchlistId });
export const AlertViewSchema = z.object({
  id: z.string(),
  kind: AlertKindSchema,
  agent: z.string(),
  agentName: z.string().optional(),
  subject: z.string(),
  state: z.enum(['open', 'cleared']),
  why: z.string(),
  openedAt: z.number(),
  clearedAt: z.number().nullable(),
  clearedWhy: z.string().nullable(),
  read: z.boolean(),
  throttled: z.boolean(),
});
export const AlertListSchema = z.object({ alerts: z.array(AlertViewSchema), unread: z.number().int() });
export const UnreadSchema = z.object({ unread: z.number().int() });
export const ReadBodySchema = z.strictObject({
  watchlist: watchlistId,
  ids: z
    .array(z.string().regex(/^\d{1,19}$/, 'each id must be an alert id (decimal)'))
    .max(1_000)
    .optional(),
  all: z.literal(true).optional(),
});
export const ReadResultSchema = z.object({ marked: z.number().int(), unread: z.number().int() });

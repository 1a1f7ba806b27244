/** The alerts tables' rows as the rest of the app sees them, and how a database row becomes one. */
export interface WatchlistRow {
  id: string;
  wallet: string | null;
  allAgents: boolean;
  createdAt: Date;
}
export interface WatchItemRow {
  watchlistId: string;
  kind: 'agent' | 'conversation';
  target: Uint8Array;
  addedAt: Date;
}
export interface WatchRuleRow {
  watchlistId: string;
  kind: string;
  enabled: boolean;
  params: Record<string, unknown>;
}
export interface WebhookRow {
  id: string;
  watchlistId: string;
  url: string;
  format: string;
  secret: string | null;
  env: boolean;
  status: string;
  lastError: string | null;
  lastDeliveredAt: Date | null;
}
export interface AlertRow {
  id: bigint;
  watchlistId: string;
  agent: Uint8Array;
  agentName: string | null;
  kind: string;
  subject: string;
  why: string;
  openedAt: Date;
  clearedAt: Date | null;
  clearedWhy: string | null;
  read: boolean;
  throttled: boolean;
}
export interface NewAlert {
  watchlistId: string;
  agent: Uint8Array;
  kind: string;
  subject: string;
  dedupeKey: string;
  why: string;
  throttled: boolean;
  at: Date;
}
export interface ClearAlert {
  id: bigint;
  why: string;
  at: Date;
  keepKey: boolean;
}
export interface DeliveryEvent {
  alertId: bigint;
  watchlistId: string;
  event: 'open' | 'cleared' | 'throttled';
}
export interface ClaimedDelivery {
  id: string;
  alertId: bigint;
  webhookId: string;
  event: string;
  attempts: number;
  url: string;
  format: string;
  secret: string | null;
  kind: string;
  agent: Uint8Array;
  agentName: string | null;
  subject: string;
  why: string;
  openedAt: Date;
  clearedAt: Date | null;
  clearedWhy: string | null;
}

export const toBig = (v: unknown): bigint => BigInt(v as string);
export const date = (v: unknown): Date => (v instanceof Date ? v : new Date(v as string));
export const dateOrNull = (v: unknown): Date | null => (v == null ? null : date(v));
export const bytes = (v: unknown): Uint8Array => new Uint8Array(v as Uint8Array);

export function itemRow(x: Record<string, unknown>): WatchItemRow {
  return {
    watchlistId: x.watchlist_id as string,
    kind: x.kind as 'agent' | 'conversation',
    target: bytes(x.target),
    addedAt: date(x.added_at),
  };
}
export function ruleRow(x: Record<string, unknown>): WatchRuleRow {
  const p = typeof x.params === 'string' ? JSON.parse(x.params) : x.params;
  return {
    watchlistId: x.watchlist_id as string,
    kind: x.kind as string,
    enabled: x.enabled as boolean,
    params: (p ?? {}) as Record<string, unknown>,
  };
}
export function webhookRow(x: Record<string, unknown>): WebhookRow {
  return {
    id: x.id as string,
    watchlistId: x.watchlist_id as string,
    url: x.url as string,
    format: x.format as string,
    secret: (x.secret as string) ?? null,
    env: x.env as boolean,
    status: x.status as string,
    lastError: (x.last_error as string) ?? null,
    lastDeliveredAt: dateOrNull(x.last_delivered_at),
  };
}

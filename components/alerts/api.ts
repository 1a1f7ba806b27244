/**
 * The browser's side of the watchlist and alert API: one function per call, each returning either
 * the parsed answer or a sentence a person can read (the server's own `error` text when it gave
 * one). Every call on a list carries its secret in the `x-watchlist-token` header; the token never
 * goes into a URL, where it would end up in logs and history. Browser-safe, no React.
 */

export const TOKEN_HEADER = 'x-watchlist-token';

/** What this browser keeps to act on its watchlist (components/alerts/store.ts). */
export interface WatchlistCreds {
  id: string;
  token: string;
}

export type ItemKind = 'agent' | 'conversation';
export interface WatchItem {
  kind: ItemKind;
  target: string;
}

export type AlertState = 'open' | 'cleared';
export interface AlertView {
  id: string;
  kind: string;
  agent: string | null;
  agentName?: string | null;
  subject: string | null;
  state: AlertState;
  why: string;
  openedAt: number;
  clearedAt: number | null;
  clearedWhy: string | null;
  read: boolean;
  /** Opened above the rule's hourly limit: listed here but not sent to webhooks. */
  throttled?: boolean;
}

export interface RuleView {
  kind: string;
  enabled: boolean;
  params: Record<string, number>;
}

export type WebhookFormat = 'slack' | 'discord' | 'json';
export interface WebhookView {
  id: string;
  url: string;
  format: WebhookFormat;
  status: 'ok' | 'failing' | 'new';
  lastError: string | null;
  lastAt: number | null;
}

export interface WatchlistView {
  id: string;
  items: WatchItem[];
  rules: RuleView[];
  webhooks: WebhookView[];
  wallets: string[];
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: string; status: number };

type Fetch = typeof fetch;

/** A sentence for a refused call: the server's `error` (or `message`) when it sent one. */
export function errorSentence(status: number, body: unknown, what: string): string {
  const b = body as { error?: unknown; message?: unknown } | null;
  const said = typeof b?.error === 'string' ? b.error : typeof b?.message === 'string' ? b.message : null;
  if (said) return said;
  if (status === 401 || status === 403)
    return (
      `The server refused to ${what}: this browser's watchlist ` +
      `key is not accepted (the list may have been deleted).`
    );
  if (status === 404) return `The server could not ${what}: it does not know this watchlist or item.`;
  if (status === 429)
    return `The server refused to ${what}: too many requests from this address, try again in a moment.`;
  if (status === 0) return `Could not ${what}: the observatory did not answer (offline or restarting).`;
  return `The server could not ${what} (HTTP ${status}).`;
}

async function call<T>(
  f: Fetch,
  url: string,
  init: RequestInit,
  what: string,
  parse: (b: unknown) => T | null,
): Promise<Result<T>> {
  let res: Response;
  try {
    res = await f(url, init);
  } catch {
    return { ok: false, status: 0, error: errorSentence(0, null, what) };
  }
  const text = await res.text().catch(() => '');
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: a proxy's error page */
  }
  if (!res.ok) return { ok: false, status: res.status, error: errorSentence(res.status, body, what) };
  const v = parse(body);
  if (v === null)
    return {
      ok: false,
      status: res.status,
      error:
        `The server's answer to "${what}" is not what this page ` +
        `expects; reload the page (the server may be newer).`,
    };
  return { ok: true, value: v };
}

const json = (creds: WatchlistCreds | null, method: string, body?: unknown): RequestInit => ({
  method,
  headers: {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(creds ? { [TOKEN_HEADER]: creds.token } : {}),
  },
  body: body === undefined ? undefined : JSON.stringify(body),
  cache: 'no-store',
});

const isObj = (b: unknown): b is Record<string, unknown> => typeof b === 'object' && b !== null && !Array.isArray(b);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** Times come as unix ms or as ISO text, depending on the route: both become ms. */
export function msOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v) {
    const n = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function parseCreds(b: unknown): WatchlistCreds | null {
  if (!isObj(b)) return null;
  const id = str(b.id) ?? (typeof b.id === 'number' ? String(b.id) : null);
  const token = str(b.token);
  return id && token ? { id, token } : null;
}

export function parseAlert(a: unknown): AlertView | null {
  if (!isObj(a)) return null;
  const id = str(a.id) ?? (typeof a.id === 'number' ? String(a.id) : null);
  const kind = str(a.kind);
  const openedAt = msOf(a.openedAt);
  if (!id || !kind || openedAt === null) return null;
  return {
    id,
    kind,
    agent: str(a.agent),
    agentName: str(a.agentName),
    subject: str(a.subject),
    state: a.state === 'cleared' ? 'cleared' : 'open',
    why: str(a.why) ?? '',
    openedAt,
    clearedAt: msOf(a.clearedAt),
    clearedWhy: str(a.clearedWhy),
    read: a.read === true,
    throttled: a.throttled === true,
  };
}

export function parseAlerts(b: unknown): { alerts: AlertView[]; unread: number } | null {
  if (!isObj(b) || !Array.isArray(b.alerts)) return null;
  const alerts = b.alerts.map(parseAlert).filter((a): a is AlertView => a !== null);
  return { alerts, unread: typeof b.unread === 'number' ? b.unread : alerts.filter((a) => !a.read).length };
}

function parseRule(r: unknown): RuleView | null {
  if (!isObj(r) || !str(r.kind)) return null;
  const params: Record<string, number> = {};
  if (isObj(r.params))
    for (const [k, v] of Object.entries(r.params)) if (typeof v === 'number' && Number.isFinite(v)) params[k] = v;
  return { kind: r.kind as string, enabled: r.enabled !== false, params };
}

function parseWebhook(w: unknown): WebhookView | null {
  if (!isObj(w)) return null;
  const id = str(w.id) ?? (typeof w.id === 'number' ? String(w.id) : null);
  const url = str(w.url);
  if (!id || !url) return null;
  const format = w.format === 'slack' || w.format === 'discord' ? w.format : 'json';
  const lastError = str(w.lastError);
  const status =
    w.status === 'ok' || w.status === 'failing' || w.status === 'new' ? w.status : lastError ? 'failing' : 'new';
  return { id, url, format, status, lastError, lastAt: msOf(w.lastAt ?? w.lastDeliveredAt ?? w.lastAttemptAt) };
}

function parseItem(i: unknown): WatchItem | null {
  if (!isObj(i)) return null;
  const target = str(i.target);
  if (!target || (i.kind !== 'agent' && i.kind !== 'conversation')) return null;
  return { kind: i.kind, target };
}

const list = <T>(v: unknown, f: (x: unknown) => T | null): T[] =>
  Array.isArray(v) ? v.map(f).filter((x): x is T => x !== null) : [];

export function parseWatchlist(b: unknown): WatchlistView | null {
  if (!isObj(b)) return null;
  const w = isObj(b.watchlist) ? b.watchlist : b;
  const id = str(w.id) ?? (typeof w.id === 'number' ? String(w.id) : null);
  if (!id) return null;
  const wallets = Array.isArray(w.wallets)
    ? w.wallets.map((x) => (isObj(x) ? str(x.address) : str(x))).filter((x): x is string => !!x)
    : str(w.wallet)
      ? [w.wallet as string]
      : [];
  return {
    id,
    items: list(w.items ?? b.items, parseItem),
    rules: list(w.rules ?? b.rules, parseRule),
    webhooks: list(w.webhooks ?? b.webhooks, parseWebhook),
    wallets,
  };
}

const enc = encodeURIComponent;
const ok = () => true;

/** The client of one observatory (same origin by default); `f` is the fetch to use. */
export function alertsApi(f: Fetch = (...a) => fetch(...a)) {
  return {
    create: () => call(f, '/api/watchlists', json(null, 'POST', {}), 'create a watchlist', parseCreds),
    get: (c: WatchlistCreds) =>
      call(f, `/api/watchlists/${enc(c.id)}`, json(c, 'GET'), 'read your watchlist', parseWatchlist),
    watch: (c: WatchlistCreds, item: WatchItem) =>
      call(f, `/api/watchlists/${enc(c.id)}/items`, json(c, 'PUT', item), `watch this ${item.kind}`, ok),
    unwatch: (c: WatchlistCreds, item: WatchItem) =>
      call(
        f,
        `/api/watchlists/${enc(c.id)}/items?kind=${enc(item.kind)}&target=${enc(item.target)}`,
        json(c, 'DELETE'),
        `stop watching this ${item.kind}`,
        ok,
      ),
    setRule: (c: WatchlistCreds, rule: RuleView) =>
      call(
        f,
        `/api/watchlists/${enc(c.id)}/rules/${enc(rule.kind)}`,
        json(c, 'PUT', { enabled: rule.enabled, params: rule.params }),
        `save the ${rule.kind} rule`,
        ok,
      ),
    // A refusal for the address names the setting that lifts it.
    addWebhook: (c: WatchlistCreds, hook: { url: string; format: WebhookFormat; secret?: string }) =>
      call(
        f,
        `/api/watchlists/${enc(c.id)}/webhooks`,
        json(c, 'POST', hook),
        'add this webhook',
        (b) => parseWebhook(isObj(b) && isObj(b.webhook) ? b.webhook : b) ?? true,
      ).then((r) => (r.ok ? r : { ...r, error: withPrivateHint(r.error) })),
    deleteWebhook: (c: WatchlistCreds, hookId: string) =>
      call(f, `/api/watchlists/${enc(c.id)}/webhooks/${enc(hookId)}`, json(c, 'DELETE'), 'delete this webhook', ok),
    linkWallet: (c: WatchlistCreds, proof: WalletProof) =>
      call(f, `/api/watchlists/${enc(c.id)}/wallet`, json(c, 'POST', proof), 'follow your wallet', (b) => ({
        agentsOwned: isObj(b) && typeof b.agentsOwned === 'number' ? b.agentsOwned : null,
        agentsAdded: isObj(b) && typeof b.agentsAdded === 'number' ? b.agentsAdded : null,
      })),
    byWallet: (proof: WalletProof) =>
      // In the body: a signature in a URL would sit in logs and histories for anyone to replay.
      call(f, '/api/watchlists/by-wallet', json(null, 'POST', proof), 'find the watchlist of this wallet', parseCreds),
    unread: (c: WatchlistCreds) =>
      call(f, `/api/alerts/unread?watchlist=${enc(c.id)}`, json(c, 'GET'), 'count unread alerts', (b) =>
        isObj(b) && typeof b.unread === 'number' ? b.unread : typeof b === 'number' ? b : null,
      ),
    alerts: (c: WatchlistCreds, q: AlertQuery) =>
      call(f, `/api/alerts?${alertQueryString(c.id, q)}`, json(c, 'GET'), 'read your alerts', parseAlerts),
    markRead: (c: WatchlistCreds, ids: string[] | 'all') =>
      call(
        f,
        '/api/alerts/read',
        json(c, 'POST', ids === 'all' ? { watchlist: c.id, all: true } : { watchlist: c.id, ids }),
        'mark alerts read',
        ok,
      ),
  };
}
export type AlertsApi = ReturnType<typeof alertsApi>;

export interface WalletProof {
  address: string;
  message: string;
  signature: string;
}

export interface AlertQuery {
  state?: 'open' | 'cleared' | 'all';
  kind?: string;
  agent?: string;
  limit?: number;
  before?: string;
}

export function alertQueryString(watchlist: string, q: AlertQuery): string {
  const p = new URLSearchParams({ watchlist });
  if (q.state) p.set('state', q.state);
  if (q.kind) p.set('kind', q.kind);
  if (q.agent) p.set('agent', q.agent);
  if (q.limit) p.set('limit', String(q.limit));
  if (q.before) p.set('before', q.before);
  return p.toString();
}

/** What the API answers for a loopback receiver (lib/alerts/url-guard.ts), quoted in the form. */
export const PRIVATE_REFUSAL_EXAMPLE = 'url: localhost is this machine';
const PRIVATE_HINT =
  ' This server refuses receivers on this machine or a private network; ' +
  'its operator can allow them with ALERT_WEBHOOK_ALLOW_PRIVATE=1.';

/** The API's refusal, with the setting that lifts it when the address was the reason. */
export function withPrivateHint(error: string): string {
  if (!/this machine|non-public|public addresses only/.test(error)) return error;
  return `${error.replace(/[\s.;:]*$/, '.')}${PRIVATE_HINT}`;
}

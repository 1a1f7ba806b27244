/**
 * The watchlist and alert operations behind app/api/watchlists and app/api/alerts. A watchlist
 * belongs to whoever holds one of its tokens: the id is public-ish (it appears in links), the
 * token is a random 256-bit secret of which only the SHA-256 is stored. Every refusal is an
 * {@link AlertsError} with the HTTP status and a sentence naming the problem.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import bs58 from 'bs58';
import { ed25519Verify } from '../protocol/crypto';
import { BaseError } from '../protocol/errors';
import { toHex } from '../protocol/hex';
import { decodeSignatureText, SIGNATURE_TEXT_FORMS } from '../protocol/signature-text';
import type { AlertsStore, UsedSignatures } from '../store';
import { WATCHLIST_WALLET_MESSAGE_RE, watchlistWalletMessage } from '../wire/alerts';
import { ALERT_KINDS, type AlertKind, DEFAULT_ENABLED, isAlertKind, parseRuleParams, ruleParams } from './kinds';
import { WEBHOOK_FORMATS, type WebhookFormat } from './payloads';
import { checkWebhookUrl, type Resolver } from './url-guard';

export class AlertsError extends BaseError {
  override name = 'AlertsError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface AlertCaps {
  /** Watched agents (and, separately, conversations) per watchlist. */
  agents: number;
  /** Enabled rules per watchlist. */
  rules: number;
  /** Webhook deliveries per watchlist per hour. */
  deliveriesPerHour: number;
  /** Webhooks per watchlist. */
  webhooks: number;
}

export const DEFAULT_CAPS: AlertCaps = { agents: 200, rules: 20, deliveriesPerHour: 60, webhooks: 5 };

/** How long a signed wallet message stays valid, either side of now. */
export const WALLET_MESSAGE_MS = 10 * 60_000;
/** A used signature is remembered this long past its message's time (the window, plus a margin for clocks). */
export const USED_SIGNATURE_KEEP_MS = WALLET_MESSAGE_MS + 10 * 60_000;

export interface AlertServiceOptions {
  store: AlertsStore;
  /** Signatures already accepted (the database's, so they stay used across restarts). */
  signatures: UsedSignatures;
  caps: AlertCaps;
  allowPrivateWebhooks: boolean;
  /** The agents a wallet owns on chain (identity NFTs it holds); absent without a chain. */
  ownedAgents?: (wallet: Uint8Array) => Promise<Uint8Array[]>;
  /** Called after a change the evaluator must see. */
  changed?: () => void;
  now?: () => number;
  resolve?: Resolver;
}

const ID_RE = /^[A-Za-z0-9_-]{22}$/;
const newId = () => randomBytes(16).toString('base64url');
const sha256 = (s: string) => createHash('sha256').update(s).digest();

export { watchlistWalletMessage as walletMessage };

function decodeAddress(s: unknown): Uint8Array | null {
  if (typeof s !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(s)) return null;
  try {
    const b = bs58.decode(s);
    return b.length === 32 ? b : null;
  } catch {
    return null;
  }
}

export type AlertService = ReturnType<typeof createAlertService>;

export function createAlertService(o: AlertServiceOptions) {
  const now = o.now ?? Date.now;
  const store = o.store;
  const changed = () => o.changed?.();

  function checkId(id: string): void {
    if (!ID_RE.test(id))
      throw new AlertsError(400, 'watchlist id: must be 22 base64url characters (as POST /api/watchlists returned it)');
  }

  /** Refuses a missing or wrong token with 403 (and an unknown list the same way: no probing). */
  async function authorize(id: string, token: string | null): Promise<void> {
    checkId(id);
    if (!token) throw new AlertsError(403, 'this watchlist needs its token: send it in the x-watchlist-token header');
    if (token.length > 200 || !(await store.tokenValid(id, sha256(token))))
      throw new AlertsError(403, 'the x-watchlist-token header is not a token of this watchlist');
  }

  /** Checks a wallet's signed message; returns the wallet's address bytes, the signature's and the message's time. */
  function verifyWallet(
    p: { address: unknown; message: unknown; signature: unknown },
    listId: string | null,
  ): { wallet: Uint8Array; address: string; listIdInMessage: string; sig: Uint8Array; at: number } {
    const wallet = decodeAddress(p.address);
    if (!wallet) throw new AlertsError(400, 'address: must be a base58 wallet address (32 bytes)');
    const address = p.address as string;
    if (typeof p.message !== 'string' || p.message.length > 300)
      throw new AlertsError(400, 'message: must be the signed text, at most 300 characters');
    const m = WATCHLIST_WALLET_MESSAGE_RE.exec(p.message);
    if (!m)
      throw new AlertsError(
        400,
        `message: must read exactly "${watchlistWalletMessage(listId ?? '<id>', address, new Date(0)).replace(
          new Date(0).toISOString(),
          '<ISO time>',
        )}"`,
      );
    if (m[2] !== address) throw new AlertsError(400, `message: names wallet ${m[2]}, not ${address}`);
    if (listId !== null && m[1] !== listId)
      throw new AlertsError(400, `message: names watchlist ${m[1]}, not ${listId}`);
    const at = Date.parse(m[3]);
    if (!Number.isFinite(at) || Math.abs(now() - at) > WALLET_MESSAGE_MS)
      throw new AlertsError(
        400,
        `message: its time ${m[3]} is more than 10 minutes from ` +
          `now (${new Date(now()).toISOString()}); sign a fresh one`,
      );
    const sig = typeof p.signature === 'string' ? decodeSignatureText(p.signature) : null;
    if (!sig) throw new AlertsError(400, `signature: must be the 64-byte ed25519 signature as ${SIGNATURE_TEXT_FORMS}`);
    if (!ed25519Verify(sig, new TextEncoder().encode(p.message), wallet))
      throw new AlertsError(403, `signature: does not verify for wallet ${address} over that message`);
    return { wallet, address, listIdInMessage: m[1], sig, at };
  }

  /**
   * A signed message buys one action: its signature's bytes are recorded in the database (first
   * use wins, also against a concurrent one) and refused after, in any spelling, across restarts.
   */
  async function useSignature(sig: Uint8Array, purpose: string, at: number): Promise<void> {
    if (!(await o.signatures.claim(sig, purpose, new Date(at + USED_SIGNATURE_KEEP_MS)))) {
      throw new AlertsError(409, 'signature: this signed message was used already; sign a fresh one');
    }
  }

  async function view(id: string) {
    const w = await store.getWatchlist(id);
    if (!w) throw new AlertsError(404, `watchlist ${id} does not exist`);
    const stored = new Map(w.rules.map((r) => [r.kind, r]));
    return {
      id: w.list.id,
      wallet: w.list.wallet,
      items: w.items.map((i) => ({ kind: i.kind, target: toHex(i.target) })),
      rules: ALERT_KINDS.map((kind) => {
        const r = stored.get(kind);
        return { kind, params: ruleParams(kind, r?.params), enabled: r?.enabled ?? false };
      }),
      webhooks: w.webhooks.map((h) => ({
        id: h.id,
        url: h.url,
        format: h.format as WebhookFormat,
        hasSecret: h.secret !== null,
        status: h.status as 'ok' | 'failing' | 'new',
        lastError: h.lastError,
        lastDeliveredAt: h.lastDeliveredAt ? h.lastDeliveredAt.getTime() : null,
      })),
      caps: { agents: o.caps.agents, rules: o.caps.rules, deliveriesPerHour: o.caps.deliveriesPerHour },
    };
  }

  return {
    authorize,
    async create(): Promise<{ id: string; token: string }> {
      const id = newId();
      const token = randomBytes(32).toString('base64url');
      // The defaults, in their order, up to the cap of enabled rules: a new list is within every cap.
      const on = DEFAULT_ENABLED.slice(0, o.caps.rules);
      await store.createWatchlist(
        id,
        sha256(token),
        ALERT_KINDS.map((kind) => ({ kind, enabled: on.includes(kind), params: ruleParams(kind, {}) })),
      );
      changed();
      return { id, token };
    },
    async get(id: string, token: string | null) {
      await authorize(id, token);
      return view(id);
    },
    async putItem(id: string, token: string | null, kind: unknown, target: Uint8Array): Promise<{ added: boolean }> {
      await authorize(id, token);
      const r = await store.putItem(id, kind as string, target, o.caps.agents);
      if (r === 'cap')
        throw new AlertsError(
          409,
          `this watchlist already watches ${o.caps.agents} ${kind === 'agent' ? 'agents' : 'conversations'}` +
            `, the most one list may (ALERT_MAX_AGENTS); remove one first`,
        );
      if (r === 'added') changed();
      return { added: r === 'added' };
    },
    async deleteItem(
      id: string,
      token: string | null,
      kind: string,
      target: Uint8Array,
    ): Promise<{ removed: boolean }> {
      await authorize(id, token);
      const removed = await store.deleteItem(id, kind, target);
      if (removed) changed();
      return { removed };
    },
    async putRule(id: string, token: string | null, kind: string, body: unknown) {
      await authorize(id, token);
      if (!isAlertKind(kind))
        throw new AlertsError(400, `rule kind "${kind.slice(0, 40)}": must be one of ${ALERT_KINDS.join(', ')}`);
      const b = (body ?? {}) as { enabled?: unknown; params?: unknown };
      if (typeof b !== 'object' || Array.isArray(b))
        throw new AlertsError(400, 'body: must be a JSON object {enabled, params}');
      const extra = Object.keys(b).filter((k) => k !== 'enabled' && k !== 'params');
      if (extra.length)
        throw new AlertsError(400, `body: unknown field ${extra.join(', ')} (allowed: enabled, params)`);
      if (typeof b.enabled !== 'boolean') throw new AlertsError(400, 'enabled: must be true or false');
      if (b.params !== undefined && (typeof b.params !== 'object' || b.params === null || Array.isArray(b.params)))
        throw new AlertsError(400, 'params: must be a JSON object');
      const p = parseRuleParams(kind as AlertKind, b.params);
      if (!p.ok) throw new AlertsError(400, p.error);
      const r = await store.putRule(id, kind, b.enabled, p.params, o.caps.rules);
      if (r === 'cap')
        throw new AlertsError(
          409,
          `this watchlist already has ${o.caps.rules} rules on, the ` +
            `most one list may (ALERT_MAX_RULES); turn one off first`,
        );
      changed();
      return { kind, enabled: b.enabled, params: p.params };
    },
    async addWebhook(id: string, token: string | null, body: unknown) {
      await authorize(id, token);
      const b = (body ?? {}) as { url?: unknown; format?: unknown; secret?: unknown };
      if (typeof b !== 'object' || Array.isArray(b))
        throw new AlertsError(400, 'body: must be a JSON object {url, format, secret?}');
      const extra = Object.keys(b).filter((k) => !['url', 'format', 'secret'].includes(k));
      if (extra.length)
        throw new AlertsError(400, `body: unknown field ${extra.join(', ')} (allowed: url, format, secret)`);
      if (!WEBHOOK_FORMATS.includes(b.format as WebhookFormat))
        throw new AlertsError(400, `format: must be one of ${WEBHOOK_FORMATS.join(', ')}`);
      if (
        b.secret !== undefined &&
        b.secret !== null &&
        (typeof b.secret !== 'string' || b.secret.length < 16 || b.secret.length > 256)
      )
        throw new AlertsError(400, 'secret: must be a string of 16 to 256 characters');
      const u = await checkWebhookUrl(b.url, { allowPrivate: o.allowPrivateWebhooks, resolve: o.resolve });
      if (!u.ok) throw new AlertsError(400, u.error);
      const webhookId = newId();
      const r = await store.addWebhook(
        {
          id: webhookId,
          watchlistId: id,
          url: u.url.toString(),
          format: b.format as string,
          secret: (b.secret as string | undefined) ?? null,
        },
        o.caps.webhooks,
      );
      if (r === 'cap')
        throw new AlertsError(
          409,
          `this watchlist already has ${o.caps.webhooks} webhooks, the most one list may; delete one first`,
        );
      return {
        id: webhookId,
        url: u.url.toString(),
        format: b.format as WebhookFormat,
        hasSecret: typeof b.secret === 'string',
        status: 'new' as const,
        lastError: null,
        lastDeliveredAt: null,
      };
    },
    async deleteWebhook(id: string, token: string | null, webhookId: string): Promise<{ removed: boolean }> {
      await authorize(id, token);
      if (!ID_RE.test(webhookId)) throw new AlertsError(400, 'webhook id: must be 22 base64url characters');
      const removed = await store.deleteWebhook(id, webhookId);
      if (!removed) throw new AlertsError(404, `webhook ${webhookId} is not one of this watchlist's`);
      return { removed };
    },
    /** Binds the signing wallet and watches the agents it owns (up to the cap). */
    async bindWallet(id: string, token: string | null, body: unknown) {
      await authorize(id, token);
      const b = (body ?? {}) as Record<string, unknown>;
      const { wallet, address, sig, at } = verifyWallet(
        { address: b.address, message: b.message, signature: b.signature },
        id,
      );
      await useSignature(sig, 'watchlist-bind', at);
      await store.bindWallet(id, address);
      const owned = o.ownedAgents ? await o.ownedAgents(wallet).catch(() => [] as Uint8Array[]) : [];
      const added = await store.addAgents(id, owned, o.caps.agents);
      changed();
      return { wallet: address, agentsOwned: owned.length, agentsAdded: added };
    },
    /** The list bound to a wallet, with a new token for this browser. */
    async byWallet(p: { address: unknown; message: unknown; signature: unknown }) {
      const { address, listIdInMessage, sig, at } = verifyWallet(p, null);
      const id = await store.watchlistByWallet(address);
      if (!id) throw new AlertsError(404, `no watchlist is bound to wallet ${address}`);
      if (listIdInMessage !== '*' && listIdInMessage !== id)
        throw new AlertsError(400, `message: names watchlist ${listIdInMessage}; use the bound list's id or *`);
      await useSignature(sig, 'watchlist-by-wallet', at);
      const token = randomBytes(32).toString('base64url');
      await store.addToken(id, sha256(token));
      return { id, token };
    },
    async listAlerts(
      id: string,
      token: string | null,
      p: { state: 'open' | 'cleared' | 'all'; kind?: string; agent?: Uint8Array; limit: number; before?: bigint },
    ) {
      await authorize(id, token);
      const [rows, unread] = await Promise.all([store.listAlerts({ watchlistId: id, ...p }), store.unreadCount(id)]);
      return {
        alerts: rows.map((r) => ({
          id: r.id.toString(),
          kind: r.kind,
          agent: toHex(r.agent),
          ...(r.agentName ? { agentName: r.agentName } : {}),
          subject: r.subject,
          state: r.clearedAt ? ('cleared' as const) : ('open' as const),
          why: r.why,
          openedAt: r.openedAt.getTime(),
          clearedAt: r.clearedAt?.getTime() ?? null,
          clearedWhy: r.clearedWhy,
          read: r.read,
          throttled: r.throttled,
        })),
        unread,
      };
    },
    async unread(id: string, token: string | null) {
      await authorize(id, token);
      return { unread: await store.unreadCount(id) };
    },
    async markRead(id: string, token: string | null, ids: readonly bigint[] | null) {
      await authorize(id, token);
      const marked = await store.markRead(id, ids);
      return { marked, unread: await store.unreadCount(id) };
    },
  };
}

/** Constant-time string equality (exported for receivers' examples and tests). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a),
    y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

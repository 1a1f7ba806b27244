/**
 * This browser's watchlist: its id and token, and a copy of what it watches, in localStorage, so
 * every watch button on a page knows its state without asking the server, and a page that
 * watches nothing makes no alert requests at all. One small external store (useSyncExternalStore)
 * shared by the buttons, the bell and /alerts; a change in another tab arrives through the
 * `storage` event.
 */
import bs58 from 'bs58';
import type { ItemKind, WatchItem, WatchlistCreds } from './api';

export const STORAGE_KEY = 'zx1.watchlist';

export interface LocalWatchlist extends WatchlistCreds {
  /** `kind:key` of every watched item (itemKey), as last known. */
  items: string[];
}

/** An agent id as lowercase hex, from hex (`0x` optional) or base58; null when it is neither. */
export function agentHexOf(id: string): string | null {
  const t = id.trim();
  if (/^(0x)?[0-9a-f]{64}$/i.test(t)) return t.replace(/^0x/i, '').toLowerCase();
  try {
    const b = bs58.decode(t);
    if (b.length === 32) return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  } catch {
    /* not base58 */
  }
  return null;
}

/**
 * One spelling per watched thing: agents by lowercase hex whatever form was given (pages link
 * base58, the API may answer hex), conversations by lowercase hex.
 */
export function itemKey(kind: ItemKind, target: string): string {
  if (kind === 'agent') {
    const hex = agentHexOf(target);
    if (hex) return `agent:${hex}`;
  }
  return `${kind}:${target.trim().replace(/^0x/i, '').toLowerCase()}`;
}

export function parseLocal(raw: string | null): LocalWatchlist | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<LocalWatchlist>;
    if (typeof v.id !== 'string' || typeof v.token !== 'string' || !v.id || !v.token) return null;
    return {
      id: v.id,
      token: v.token,
      items: Array.isArray(v.items) ? v.items.filter((x): x is string => typeof x === 'string') : [],
    };
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
let cached: { raw: string | null; value: LocalWatchlist | null } = { raw: null, value: null };
/** Where the list lives when the browser refuses storage (private mode): this page only. */
let memory: string | null = null;

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return memory;
  }
}

/** The stored watchlist (the same object while the stored text is unchanged). */
export function getLocal(): LocalWatchlist | null {
  if (typeof window === 'undefined') return null;
  const raw = readRaw();
  if (raw !== cached.raw) cached = { raw, value: parseLocal(raw) };
  return cached.value;
}

export function setLocal(v: LocalWatchlist | null): void {
  memory = v ? JSON.stringify(v) : null;
  try {
    if (v) window.localStorage.setItem(STORAGE_KEY, memory!);
    else window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    /* storage refused: readRaw falls back to `memory` */
  }
  for (const l of listeners) l();
}

export function subscribeLocal(fn: () => void): () => void {
  listeners.add(fn);
  const onStorage = (e: StorageEvent) => {
    if (e.key === STORAGE_KEY || e.key === null) fn();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(fn);
    window.removeEventListener('storage', onStorage);
  };
}

/** The same list with `item` added or removed. */
export function withItem(w: LocalWatchlist, item: WatchItem, on: boolean): LocalWatchlist {
  const k = itemKey(item.kind, item.target);
  const rest = w.items.filter((x) => x !== k);
  return { ...w, items: on ? [...rest, k] : rest };
}

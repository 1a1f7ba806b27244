'use client';
/**
 * React access to this browser's watchlist (store.ts): the stored list (null on the server, while
 * hydrating, and when this browser has none), and the actions that change it. The list is
 * created on the first watch, not before: a visitor who never watches anything costs the server
 * nothing.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { alertsApi, type Result, type WatchItem, type WatchlistCreds } from './api';
import { getLocal, itemKey, type LocalWatchlist, setLocal, subscribeLocal, withItem } from './store';

const api = alertsApi();

export function useWatchlist(): LocalWatchlist | null {
  return useSyncExternalStore(subscribeLocal, getLocal, () => null);
}

/** False on the server and during hydration, so stored state renders only after mount. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
const noop = () => () => {};

let creating: Promise<Result<WatchlistCreds>> | null = null;

/** The stored list, creating one on the server first when there is none (once, however many buttons ask). */
export async function ensureWatchlist(): Promise<Result<LocalWatchlist>> {
  const have = getLocal();
  if (have) return { ok: true, value: have };
  creating ??= api.create().finally(() => {
    creating = null;
  });
  const r = await creating;
  if (!r.ok) return r;
  const fresh = getLocal() ?? { ...r.value, items: [] };
  if (!getLocal()) setLocal(fresh);
  return { ok: true, value: fresh };
}

/** Watch or stop watching one item; the stored copy follows what the server accepted. */
export async function setWatched(item: WatchItem, on: boolean): Promise<Result<true>> {
  const w = on ? await ensureWatchlist() : ({ ok: true, value: getLocal() } as const);
  if (!w.ok) return w;
  if (!w.value) return { ok: true, value: true };
  const r = on ? await api.watch(w.value, item) : await api.unwatch(w.value, item);
  // A 404 on removal: the server no longer has it either way; the local copy catches up.
  if (!r.ok && !(r.status === 404 && !on)) return r;
  const now = getLocal();
  if (now && now.id === w.value.id) setLocal(withItem(now, item, on));
  return { ok: true, value: true };
}

/** Whether this browser watches `item`, and a toggle for it. */
export function useWatched(item: WatchItem): { watched: boolean; toggle: () => Promise<Result<true>> } {
  const w = useWatchlist();
  const key = itemKey(item.kind, item.target);
  const watched = !!w?.items.includes(key);
  const { kind, target } = item;
  const toggle = useCallback(() => setWatched({ kind, target }, !watched), [kind, target, watched]);
  return { watched, toggle };
}

/** Replace the stored items with the server's list (after reading the watchlist). */
export function syncItems(id: string, items: WatchItem[]): void {
  const now = getLocal();
  if (!now || now.id !== id) return;
  const keys = items.map((i) => itemKey(i.kind, i.target));
  if (keys.length === now.items.length && keys.every((k) => now.items.includes(k))) return;
  setLocal({ ...now, items: keys });
}

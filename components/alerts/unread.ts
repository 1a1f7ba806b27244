/**
 * The one unread count of this browser's watchlist on a page: the bell and the alerts list both
 * show this value, and whichever of them reads the server last (the bell's GET /api/alerts/unread,
 * the list's GET /api/alerts, both the same store count) sets it. Two separate counts read a few
 * seconds apart disagreed whenever an alert opened in between. Browser-safe.
 */
import { useSyncExternalStore } from 'react';

let current: number | null = null;
const listeners = new Set<() => void>();

/** Records the count the server just answered; every reader re-renders with it. */
export function publishUnread(n: number | null): void {
  if (n === current) return;
  current = n;
  for (const f of listeners) f();
}

export function unreadNow(): number | null {
  return current;
}

function subscribe(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** The shared unread count (null before anything was read). */
export function useUnread(): number | null {
  return useSyncExternalStore(subscribe, unreadNow, () => null);
}

/**
 * Which alerts become browser notifications. The bell polls; when it sees unread alerts this
 * browser has not announced yet, each gets a notification, up to a few, and the rest one summary,
 * so a burst (an agent going offline with its lease and batch alerts behind it) is not a wall of
 * popups. The first look after enabling only records what is already there: enabling must not
 * replay the backlog. Pure, so the rule is tested without a browser.
 */
import type { AlertView } from './api';

export const MAX_SINGLE = 3;
/** Ids remembered as announced; older ones are forgotten (they are long read or cleared). */
export const REMEMBER = 500;
export const NOTIFIED_KEY = 'zx1.alerts.notified';

export interface NotificationPlan {
  single: AlertView[];
  /** How many more new alerts the one summary notification stands for (0: none). */
  summary: number;
  /** The announced ids to keep for next time. */
  notified: string[];
}

/**
 * `known` null: nothing recorded yet (first look): everything unread now counts as announced.
 * `alerts` as the API lists them, newest first.
 */
export function planNotifications(
  alerts: readonly AlertView[],
  known: readonly string[] | null,
  max = MAX_SINGLE,
): NotificationPlan {
  const unread = alerts.filter((a) => !a.read);
  if (known === null) return { single: [], summary: 0, notified: unread.map((a) => a.id).slice(0, REMEMBER) };
  const seen = new Set(known);
  const fresh = unread.filter((a) => !seen.has(a.id));
  // Oldest first, so the popups read in the order things happened.
  const ordered = [...fresh].sort((a, b) => a.openedAt - b.openedAt);
  const single = ordered.length <= max ? ordered : ordered.slice(0, max - 1);
  const summary = ordered.length - single.length;
  const notified = [...fresh.map((a) => a.id), ...known].slice(0, REMEMBER);
  return { single, summary, notified };
}

/** The title and body of one alert's notification. */
export function notificationText(a: AlertView, kindLabel: (k: string) => string): { title: string; body: string } {
  const who = a.agentName ?? a.subject ?? null;
  return { title: `${kindLabel(a.kind)}${who ? `: ${who}` : ''}`, body: a.why || 'Open Alerts for the details.' };
}

export function readNotified(): string[] | null {
  try {
    const raw = window.localStorage.getItem(NOTIFIED_KEY);
    if (raw === null) return null;
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null;
  } catch {
    return null;
  }
}

export function writeNotified(ids: string[]): void {
  try {
    window.localStorage.setItem(NOTIFIED_KEY, JSON.stringify(ids));
  } catch {
    /* not kept: at worst a repeat popup */
  }
}

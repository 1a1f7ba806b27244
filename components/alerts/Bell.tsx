'use client';
/**
 * The header's bell: links to /alerts and shows how many alerts of this browser's watchlist are
 * unread, polled every 10 s (every 30 s while the tab is hidden) and at once after /alerts marks
 * some read. Without a watchlist it asks nothing: a visitor who watches nothing sends no alert
 * requests. When browser notifications are on, new unread alerts also become notifications
 * (notify.ts decides how many).
 */
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { alertsApi } from './api';
import { notificationsOn, showNotification } from './browser-notifications';
import { kindLabel } from './kinds';
import { planNotifications, readNotified, writeNotified } from './notify';
import { publishUnread, useUnread } from './unread';
import { useHydrated, useWatchlist } from './useWatchlist';

const api = alertsApi();
const VISIBLE_MS = 10_000;
const HIDDEN_MS = 30_000;
/**
 * While unread alerts exist but their count stays the same, the list is still read this often (a read one replaced by a
 * new one keeps the count).
 */
const LIST_EVERY = 6;
export const ALERTS_CHANGED = 'zx1-alerts-changed';

/** Tell the bell to count again now (after marking alerts read, adopting a list…). */
export function announceAlertsChanged(): void {
  window.dispatchEvent(new Event(ALERTS_CHANGED));
}

export function Bell() {
  const w = useWatchlist();
  const hydrated = useHydrated();
  const unread = useUnread();
  const setUnread = publishUnread;
  const [problem, setProblem] = useState<string | null>(null);
  const last = useRef<{ count: number | null; polls: number }>({ count: null, polls: 0 });
  const id = w?.id ?? null;
  const token = w?.token ?? null;

  useEffect(() => {
    if (!id || !token) {
      setUnread(null);
      setProblem(null);
      return;
    }
    const creds = { id, token };
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    last.current = { count: null, polls: 0 };
    const notify = async (count: number) => {
      if (!notificationsOn()) return;
      const l = last.current;
      if (count === 0 || (count === l.count && l.polls % LIST_EVERY !== 0)) return;
      const r = await api.alerts(creds, { state: 'all', limit: 50 });
      if (!r.ok || !live) return;
      const plan = planNotifications(r.value.alerts, readNotified());
      writeNotified(plan.notified);
      for (const a of plan.single) {
        const who = a.agentName ?? a.subject;
        showNotification(
          `${kindLabel(a.kind)}${who ? `: ${who}` : ''}`,
          a.why || 'Open Alerts for the details.',
          `zx1-alert-${a.id}`,
        );
      }
      if (plan.summary > 0)
        showNotification(
          `${plan.summary} more alert${plan.summary === 1 ? '' : 's'}`,
          'Open Alerts to see them all.',
          'zx1-alert-summary',
        );
    };
    const poll = async () => {
      const r = await api.unread(creds);
      if (!live) return;
      if (r.ok) {
        setUnread(r.value);
        setProblem(null);
        await notify(r.value).catch(() => {});
        last.current = { count: r.value, polls: last.current.polls + 1 };
      } else {
        setProblem(r.error);
      }
      if (!live) return;
      // An early poll (ALERTS_CHANGED) may overlap a scheduled one: keep a single timer.
      if (timer) clearTimeout(timer);
      timer = setTimeout(poll, document.hidden ? HIDDEN_MS : VISIBLE_MS);
    };
    const now = () => {
      if (timer) clearTimeout(timer);
      void poll();
    };
    void poll();
    window.addEventListener(ALERTS_CHANGED, now);
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      window.removeEventListener(ALERTS_CHANGED, now);
    };
  }, [id, token]);

  const count = hydrated && w ? unread : null;
  const label = count ? `Alerts: ${count} unread` : problem ? `Alerts (${problem})` : 'Alerts';
  return (
    <Link
      href="/alerts"
      className={`bell ${count ? 'has-unread' : ''}`}
      aria-label={label}
      title={problem ?? (w ? label : 'Alerts: watch an agent or conversation to get them')}
      data-testid="alerts-bell"
      data-unread={count ?? 0}
    >
      <svg viewBox="0 0 24 24" aria-hidden className="bell-icon">
        <path
          d={
            'M12 3a6 6 0 0 0-6 6v3.6L4.3 16a1 1 0 0 0 .9 1.5h13.6a1 1 0 0 ' +
            '0 .9-1.5L18 12.6V9a6 6 0 0 0-6-6zm-2.2 16a2.3 2.3 0 0 0 4.4 0z'
          }
        />
      </svg>
      {count ? (
        <span className="bell-count" aria-hidden>
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
      {problem ? (
        <span className="bell-problem" aria-hidden>
          !
        </span>
      ) : null}
    </Link>
  );
}

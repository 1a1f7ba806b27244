'use client';
/**
 * Browser notifications for alerts: whether the browser has them, whether this person turned them
 * on here, and the permission request, made only from a click (browsers ignore or punish a
 * request nobody asked for). Turning them off is kept in this browser; the permission itself can
 * only be withdrawn in the browser's site settings.
 */
import { useCallback, useSyncExternalStore } from 'react';

const ON_KEY = 'zx1.alerts.notify';
const EVENT = 'zx1-notify-change';

export type NotifyState = 'unsupported' | 'default' | 'denied' | 'off' | 'on';

function read(): NotifyState {
  if (typeof window === 'undefined' || typeof Notification === 'undefined') return 'unsupported';
  const p = Notification.permission;
  if (p === 'denied') return 'denied';
  if (p === 'default') return 'default';
  let off = false;
  try {
    off = window.localStorage.getItem(ON_KEY) === 'off';
  } catch {
    /* default: on once granted */
  }
  return off ? 'off' : 'on';
}

function subscribe(fn: () => void): () => void {
  window.addEventListener(EVENT, fn);
  window.addEventListener('storage', fn);
  // Permission changed in the site settings while the page is open: noticed on return.
  document.addEventListener('visibilitychange', fn);
  return () => {
    window.removeEventListener(EVENT, fn);
    window.removeEventListener('storage', fn);
    document.removeEventListener('visibilitychange', fn);
  };
}

/** 'unsupported' on the server and while hydrating. */
export function useNotifyState(): { state: NotifyState; enable: () => Promise<void>; disable: () => void } {
  const state = useSyncExternalStore(subscribe, read, () => 'unsupported' as const);
  const enable = useCallback(async () => {
    if (typeof Notification === 'undefined') return;
    try {
      window.localStorage.removeItem(ON_KEY);
    } catch {
      /* on is the default */
    }
    if (Notification.permission === 'default') await Notification.requestPermission();
    window.dispatchEvent(new Event(EVENT));
  }, []);
  const disable = useCallback(() => {
    try {
      window.localStorage.setItem(ON_KEY, 'off');
    } catch {
      /* lasts for this page */
    }
    window.dispatchEvent(new Event(EVENT));
  }, []);
  return { state, enable, disable };
}

export function notificationsOn(): boolean {
  return read() === 'on';
}

/** One notification that opens /alerts when clicked; `tag` keeps two tabs from showing it twice. */
export function showNotification(title: string, body: string, tag: string): void {
  try {
    const n = new Notification(title, { body, tag, icon: '/favicon.svg' });
    n.onclick = () => {
      window.focus();
      if (window.location.pathname !== '/alerts') window.location.assign('/alerts');
      n.close();
    };
  } catch {
    /* some mobile browsers allow notifications only from a service worker: nothing to show */
  }
}

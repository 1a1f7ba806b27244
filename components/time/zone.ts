/**
 * Which zone the pages' times are shown in: the viewer's own (default) or UTC, chosen with the
 * header's toggle and kept per browser (localStorage `zone`). One small store with subscribers, so
 * every time on the page switches at once without a reload.
 */
import { useSyncExternalStore } from 'react';

export const ZONE_KEY = 'zone';
export type ZoneChoice = 'local' | 'utc';

let choice: ZoneChoice | null = null;
const listeners = new Set<() => void>();

function read(): ZoneChoice {
  if (choice) return choice;
  try {
    choice = localStorage.getItem(ZONE_KEY) === 'utc' ? 'utc' : 'local';
  } catch {
    choice = 'local'; // storage refused: the viewer's zone
  }
  return choice;
}

export function setZoneChoice(c: ZoneChoice): void {
  choice = c;
  try {
    if (c === 'utc') localStorage.setItem(ZONE_KEY, 'utc');
    else localStorage.removeItem(ZONE_KEY);
  } catch {
    /* not kept, still applied */
  }
  for (const l of listeners) l();
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The viewer's choice in the browser; null while rendering on the server or hydrating. */
export function useZoneChoice(): ZoneChoice | null {
  return useSyncExternalStore(subscribe, read, () => null);
}

/** The zone to show outside React's render (formatting helpers): the choice, or the viewer's own on the server. */
export function shownZone(): string | undefined {
  return typeof window === 'undefined' ? undefined : zoneOption(read());
}

/** The `timeZone` option for Intl: undefined is the viewer's own zone. */
export const zoneOption = (c: ZoneChoice | null): string | undefined => (c === 'utc' ? 'UTC' : undefined);

/**
 * A replay position as a link: `?replay=FROM..TO&at=T&speed=10`. FROM, TO and T are UTC instants
 * (`2026-11-27T05:30:00Z`, what the link shows) or unix ms; parsing accepts both. Pure.
 */
import { REPLAY_SPEEDS, type ReplaySpeed } from './player';

export interface ReplayLink {
  fromMs: number;
  toMs: number;
  atMs: number;
  speed: ReplaySpeed;
}

/**
 * Longest window a link may name (30 days): wider ones are typos, and the seek to `at` pages through everything before
 * it.
 */
export const MAX_REPLAY_WINDOW_MS = 30 * 86_400_000;

function instant(s: string): number | null {
  const t = s.trim();
  if (/^\d{1,15}$/.test(t)) return Number(t);
  // Only the UTC form with Z or an explicit offset: a bare date-time would be read in the viewer's zone.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/.test(t)) return null;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? ms : null;
}

/** `2026-11-27T05:30:00Z` (milliseconds only when there are some). */
export function instantText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
}

/** The replay a query names, or an error saying which part is wrong; null when there is none. */
export function parseReplayLink(q: {
  replay?: string;
  at?: string;
  speed?: string;
}): ReplayLink | { error: string } | null {
  if (!q.replay) return null;
  const [a, b, ...rest] = q.replay.split('..');
  const fromMs = a === undefined ? null : instant(a);
  const toMs = b === undefined ? null : instant(b);
  if (rest.length || fromMs === null || toMs === null)
    return { error: 'replay: expected FROM..TO, each a UTC time like 2026-11-27T05:30:00Z or unix ms' };
  if (fromMs > toMs) return { error: 'replay: FROM is after TO' };
  if (toMs - fromMs > MAX_REPLAY_WINDOW_MS) return { error: 'replay: the window is longer than 30 days' };
  let atMs = fromMs;
  if (q.at) {
    const at = instant(q.at);
    if (at === null) return { error: 'at: expected a UTC time or unix ms' };
    atMs = Math.min(toMs, Math.max(fromMs, at));
  }
  const sp = Number(q.speed ?? 1);
  const speed = (REPLAY_SPEEDS as readonly number[]).includes(sp) ? (sp as ReplaySpeed) : 1;
  return { fromMs, toMs, atMs, speed };
}

/** The query string of a replay position (other parameters of `base` kept). */
export function replaySearch(l: ReplayLink, base = ''): string {
  const p = new URLSearchParams(base);
  p.set('replay', `${instantText(l.fromMs)}..${instantText(l.toMs)}`);
  p.set('at', instantText(Math.floor(l.atMs)));
  p.set('speed', String(l.speed));
  return p.toString().replace(/%3A/g, ':');
}

/** The same query without a replay (back to live). */
export function liveSearch(base: string): string {
  const p = new URLSearchParams(base);
  for (const k of ['replay', 'at', 'speed']) p.delete(k);
  return p.toString();
}

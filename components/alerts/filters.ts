/**
 * The /alerts filters as the URL's query string: read by the page on the server, written by the
 * browser as the filters change, so a filtered view can be bookmarked and shared. Pure.
 */

export interface AlertFilters {
  state: 'open' | 'cleared' | 'all';
  kind: string;
  agent: string;
}

/** The filters from the page's query string; anything unknown falls back to the default. */
export function filtersOf(q: Record<string, string | undefined>): AlertFilters {
  const state = q.state === 'open' || q.state === 'cleared' || q.state === 'all' ? q.state : 'all';
  return { state, kind: q.kind ?? '', agent: q.agent ?? '' };
}

/** The query string of a filtered view: only what differs from the defaults. */
export function filtersQuery(f: AlertFilters): string {
  const p = new URLSearchParams();
  if (f.state !== 'all') p.set('state', f.state);
  if (f.kind) p.set('kind', f.kind);
  if (f.agent.trim()) p.set('agent', f.agent.trim());
  const s = p.toString();
  return s ? `?${s}` : '';
}

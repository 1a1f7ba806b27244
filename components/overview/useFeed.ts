'use client';
/**
 * The overview's live feed: every arrival goes to a buffer; while paused the table stays as it was
 * and the arrivals that match the filter are counted; the filter is kept in the URL so a filtered
 * feed is a link to share (read back by app/page.tsx). The arrival rate is measured over
 * {@link RATE_WINDOW_MS} and marked partial for a window after the page missed events.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EnvelopeView } from '../../lib/wire';
import { base58 } from '../format';
import { agentDisplayName } from '../names/label';

const FRESH_MS = 2_500;
/** Envelopes kept for the feed (the filter and pause work on these). */
const BUFFER = 1_000;
export const FEED_ROWS = 30;
/** The arrival rate is counted over this window. */
export const RATE_WINDOW_MS = 10_000;

export interface FeedFilter {
  type: string;
  agent: string;
}

function matcher(f: FeedFilter, names: Readonly<Record<string, string>>): (e: EnvelopeView) => boolean {
  const type = f.type.trim().toUpperCase();
  const q = f.agent.trim();
  const ql = q.toLowerCase();
  const b58 = new Map<string, string>();
  const agentOk = (id: string) => {
    if (!q) return true;
    if (id.startsWith(ql.replace(/^0x/, ''))) return true;
    let b = b58.get(id);
    if (b === undefined) b58.set(id, (b = base58(id)));
    return b.startsWith(q) || agentDisplayName(id, names[id]).toLowerCase().includes(ql);
  };
  return (e) => (!type || e.type === type) && (agentOk(e.sender) || agentOk(e.recipient));
}

export interface Feed {
  filter: FeedFilter;
  setFilter(f: FeedFilter): void;
  /** The envelopes the table shows (the replay's when one runs). */
  shown: EnvelopeView[];
  paused: boolean;
  togglePause(): void;
  /** Arrivals matching the filter since the feed was paused. */
  newCount: number;
  /** Envelopes per second over the window, null until the first measurement. */
  rate: number | null;
  /** The page missed events inside the window: the rate is a lower bound. */
  partial: boolean;
  /** Ids that arrived in the last {@link FRESH_MS}. */
  fresh: ReadonlySet<string>;
  /** A stored envelope arrived. */
  arrived(env: EnvelopeView): void;
  /** The page missed events (fell behind or reconnected). */
  missed(): void;
}

export function useFeed(
  initial: EnvelopeView[],
  initialFilter: FeedFilter,
  names: Readonly<Record<string, string>>,
  replayed: EnvelopeView[] | null,
): Feed {
  const [buffer, setBuffer] = useState<EnvelopeView[]>(() => initial);
  const [filter, setFilterState] = useState<FeedFilter>(initialFilter);
  const [paused, setPaused] = useState<EnvelopeView[] | null>(null);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const { rate, partial, count: countArrival, missed } = useArrivalRate();
  const match = useMemo(() => matcher(filter, names), [filter, names]);
  const shown = useMemo(
    () => (replayed ? replayed.filter(match) : (paused ?? buffer.filter(match))).slice(0, FEED_ROWS),
    [replayed, paused, buffer, match],
  );
  const newCount = useMemo(() => {
    if (!paused) return 0;
    const seen = new Set(paused.map((e) => e.id));
    const top = paused[0]?.id;
    let n = 0;
    for (const e of buffer) {
      if (e.id === top) break;
      if (!seen.has(e.id) && match(e)) n++;
    }
    return n;
  }, [paused, buffer, match]);
  const setFilter = useCallback(
    (f: FeedFilter) => {
      setFilterState(f);
      setPaused((p) => (p ? buffer.filter(matcher(f, names)).slice(0, FEED_ROWS) : p));
      const u = new URL(window.location.href);
      for (const k of ['type', 'agent'] as const) {
        if (f[k]) u.searchParams.set(k, f[k]);
        else u.searchParams.delete(k);
      }
      window.history.replaceState(null, '', u);
    },
    [buffer, names],
  );
  const arrived = useCallback(
    (env: EnvelopeView) => {
      const id = env.id;
      countArrival();
      setBuffer((b) => (b.some((e) => e.id === id) ? b : [env, ...b].slice(0, BUFFER)));
      setFresh((f) => new Set(f).add(id));
      setTimeout(
        () =>
          setFresh((f) => {
            const n = new Set(f);
            n.delete(id);
            return n;
          }),
        FRESH_MS,
      );
    },
    [countArrival],
  );
  return {
    filter,
    setFilter,
    shown,
    paused: paused !== null,
    togglePause: () => setPaused((p) => (p ? null : buffer.filter(match).slice(0, FEED_ROWS))),
    newCount,
    rate,
    partial,
    fresh,
    arrived,
    missed,
  };
}

/**
 * Arrivals per second over {@link RATE_WINDOW_MS}, measured each second; `partial` while the window
 * holds a moment the page missed events (the server dropped some because the page fell behind, or
 * the stream reconnected), when arrivals undercount the mesh.
 */
function useArrivalRate() {
  const [rate, setRate] = useState<number | null>(null);
  const [partial, setPartial] = useState(false);
  const arrivals = useRef<number[]>([]);
  const missedAt = useRef(0);
  useEffect(() => {
    const t = setInterval(() => {
      const now = Date.now();
      const a = arrivals.current;
      while (a.length && a[0] < now - RATE_WINDOW_MS) a.shift();
      setRate(a.length / (RATE_WINDOW_MS / 1000));
      setPartial(now - missedAt.current < RATE_WINDOW_MS);
    }, 1000);
    return () => clearInterval(t);
  }, []);
  const count = useCallback(() => {
    arrivals.current.push(Date.now());
  }, []);
  const missed = useCallback(() => {
    missedAt.current = Date.now();
  }, []);
  return { rate, partial, count, missed };
}

'use client';
/**
 * Runs a replay on the overview: a ReplayPlayer fetching `/api/replay` pages, ticked on a timer;
 * each tick's envelopes are applied to a replay state of their own (the live state keeps
 * following the stream underneath, so "back to live" is immediate). The position is kept in the
 * URL (replace, not push: a replay does not fill the history), so the link resumes there.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { OverviewSnapshot } from '../../lib/wire';
import { ReplayPageSchema } from '../../lib/wire/replay';
import type { OverviewState } from '../live-state';
import { applyReplayBatch, emptyReplayState } from './apply';
import {
  REPLAY_MAX_PAGES,
  REPLAY_PAGE_SIZE,
  type ReplayFetch,
  ReplayPlayer,
  type ReplaySpeed,
  type ReplayStatus,
} from './player';
import { liveSearch, type ReplayLink, replaySearch } from './url';

/** Ticks per second: state updates (graph, feed, counts) at 10 Hz, whatever the speed. */
const TICK_MS = 100;
/** How often the URL follows the position while playing. */
const URL_MS = 1000;

export interface ReplayView {
  link: ReplayLink;
  state: OverviewState;
  status: ReplayStatus;
  position: number;
  emitted: number;
  error: string | null;
}

export interface ReplayControls {
  start(l: ReplayLink, paused?: boolean): void;
  stop(): void;
  toggle(): void;
  stepEnvelope(): void;
  stepSecond(): void;
  setSpeed(s: ReplaySpeed): void;
}

function fetcher(fromMs: number, toMs: number): ReplayFetch {
  return async (after, limit) => {
    const q = new URLSearchParams({ from: String(fromMs), to: String(toMs), limit: String(limit) });
    if (after) q.set('after', after);
    const res = await fetch(`/api/replay?${q}`, { cache: 'no-store' });
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok) throw new Error(`${res.status}: ${(body as { error?: string } | null)?.error ?? res.statusText}`);
    const page = ReplayPageSchema.parse(body);
    return { events: page.events, next: page.next };
  };
}

export function useReplay(
  live: Pick<OverviewSnapshot, 'mesh' | 'database'>,
  initial: ReplayLink | null,
): [ReplayView | null, ReplayControls] {
  const player = useRef<ReplayPlayer | null>(null);
  const [view, setView] = useState<ReplayView | null>(null);
  const liveRef = useRef(live);
  liveRef.current = live;
  const lastUrl = useRef(0);

  const writeUrl = useCallback((p: ReplayPlayer | null) => {
    const u = new URL(window.location.href);
    const search = p
      ? replaySearch({ fromMs: p.fromMs, toMs: p.toMs, atMs: p.position, speed: p.speed }, u.search)
      : liveSearch(u.search);
    u.search = search;
    window.history.replaceState(null, '', u);
  }, []);

  const start = useCallback(
    (l: ReplayLink, paused = false) => {
      const p = new ReplayPlayer({
        fromMs: l.fromMs,
        toMs: l.toMs,
        atMs: l.atMs,
        speed: l.speed,
        fetchPage: fetcher(l.fromMs, l.toMs),
        pageSize: REPLAY_PAGE_SIZE,
        maxPages: REPLAY_MAX_PAGES,
        now: performance.now(),
      });
      if (paused) p.pause();
      player.current = p;
      setView({
        link: l,
        state: emptyReplayState(liveRef.current),
        status: p.status,
        position: p.position,
        emitted: 0,
        error: null,
      });
      writeUrl(p);
    },
    [writeUrl],
  );

  const stop = useCallback(() => {
    player.current = null;
    setView(null);
    writeUrl(null);
  }, [writeUrl]);

  // Ticks: hand the due envelopes to the replay state in one update. One timer per replay, not
  // per state change: it reads the player from its ref.
  const active = view !== null;
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => {
      const p = player.current;
      if (!p) return;
      const events = p.tick(performance.now());
      setView((v) =>
        v && player.current === p
          ? {
              ...v,
              state: events.length ? applyReplayBatch(v.state, events) : v.state,
              status: p.status,
              position: p.position,
              emitted: p.emitted,
              error: p.error,
              link: { ...v.link, atMs: p.position, speed: p.speed },
            }
          : v,
      );
      const now = Date.now();
      if (now - lastUrl.current > URL_MS || p.paused) {
        lastUrl.current = now;
        writeUrl(p);
      }
    }, TICK_MS);
    return () => clearInterval(t);
  }, [active, writeUrl]);

  // A link with a replay: resume there, paused (the viewer presses play).
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !initial) return;
    opened.current = true;
    start(initial, true);
  }, [initial, start]);

  const controls: ReplayControls = {
    start,
    stop,
    toggle: () => {
      const p = player.current;
      if (!p) return;
      if (p.paused) p.play(performance.now());
      else p.pause();
      setView((v) => (v ? { ...v, status: p.status } : v));
    },
    stepEnvelope: () => player.current?.stepEnvelope(),
    stepSecond: () => player.current?.stepSecond(),
    setSpeed: (s) => {
      player.current?.setSpeed(s);
      setView((v) => (v ? { ...v, link: { ...v.link, speed: s } } : v));
    },
  };
  return [view, controls];
}

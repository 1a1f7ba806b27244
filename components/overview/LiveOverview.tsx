'use client';
/**
 * The overview page body: starts from a server-rendered snapshot and follows `/api/stream`;
 * reloads the snapshot from `/api/overview` after a reconnect, a `lagged` notice, and every
 * {@link REFRESH_MS} (online windows and totals the events alone cannot settle). A replay link
 * shows a past window from the stored envelopes while the live state keeps following the stream.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LiveEvent, OverviewSnapshot } from '../../lib/wire';
import { applyEvent, envelopeFromEvent, initialState, type OverviewState, resync } from '../live-state';
import { ReplayBar } from '../replay/ReplayBar';
import { parseReplayLink } from '../replay/url';
import { useReplay } from '../replay/useReplay';
import { useSite } from '../site';
import { useLiveStream } from '../useLiveStream';
import { FeedCard } from './FeedCard';
import { MeshCards } from './MeshCards';
import { OverviewHeader } from './OverviewHeader';
import { SideCards } from './SideCards';
import { ChainSection, type OverviewTotals, Totals } from './Totals';
import { type FeedFilter, useFeed } from './useFeed';

export type { FeedFilter } from './useFeed';

const REFRESH_MS = 15_000;

/** `strip`: the economy at a glance (server-rendered, components/stats/StatsStrip), under the totals. */
/** `replay`: the `?replay=FROM..TO&at=T&speed=S` of a shared link (components/replay/url.ts). */
export function LiveOverview({
  snapshot,
  filter: initialFilter = { type: '', agent: '' },
  strip,
  replay,
}: {
  snapshot: OverviewSnapshot;
  filter?: FeedFilter;
  strip?: React.ReactNode;
  replay?: { replay?: string; at?: string; speed?: string };
}) {
  const [liveState, setState] = useState<OverviewState>(() => initialState(snapshot));
  const link = useMemo(() => parseReplayLink(replay ?? {}), [replay]);
  const [replaying, replayControls] = useReplay(snapshot, link && !('error' in link) ? link : null);
  const state = replaying ? replaying.state : liveState;
  const { names } = useSite();
  const feed = useFeed(snapshot.envelopes, initialFilter, names, replaying ? replaying.state.envelopes : null);
  const { arrived, missed } = feed;
  const reload = useSnapshotReload(setState);

  const onEvent = useCallback(
    (event: LiveEvent) => {
      setState((s) => applyEvent(s, event));
      if (event.type === 'message') arrived(envelopeFromEvent(event));
    },
    [arrived],
  );
  const onResync = useCallback(() => {
    missed();
    void reload();
  }, [missed, reload]);
  const { status, invalidFrames } = useLiveStream({ onEvent, onResync });

  const totals = useMemo((): OverviewTotals => {
    const envelopes = Object.values(state.stats.byType).reduce((a, b) => a + b, 0);
    const drops = Object.values(state.stats.drops).reduce((a, b) => a + b, 0);
    const online = state.agents.filter((a) => a.online);
    return { envelopes, drops, online };
  }, [state.stats, state.agents]);
  const isReplay = replaying !== null;

  return (
    <>
      <OverviewHeader mesh={state.mesh} replaying={isReplay} status={status} invalidFrames={invalidFrames} />
      {link && 'error' in link ? (
        <p className="small warn-text" role="alert">
          This link's replay could not be read ({link.error}); showing the live mesh.
        </p>
      ) : null}
      <ReplayBar view={replaying} controls={replayControls} />
      <Totals state={state} totals={totals} replaying={isReplay} />
      {replaying ? null : strip}
      {state.chain && !replaying ? <ChainSection c={state.chain} /> : null}
      <MeshCards state={state} replaying={isReplay} />
      <div className="grid-feed">
        <FeedCard feed={feed} replaying={isReplay} />
        <SideCards state={state} totals={totals} replaying={isReplay} />
      </div>
    </>
  );
}

/** Reloads the snapshot (one request at a time) and every {@link REFRESH_MS}; returns the reload. */
function useSnapshotReload(setState: (f: (s: OverviewState) => OverviewState) => void): () => Promise<void> {
  const loading = useRef(false);
  const reload = useCallback(async () => {
    if (loading.current) return;
    loading.current = true;
    try {
      const res = await fetch('/api/overview', { cache: 'no-store' });
      if (res.ok) {
        const snap = (await res.json()) as OverviewSnapshot;
        setState((s) => resync(s, snap));
      }
    } catch {
      // offline: the next reconnect or interval retries
    } finally {
      loading.current = false;
    }
  }, [setState]);
  useEffect(() => {
    const t = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(t);
  }, [reload]);
  return reload;
}

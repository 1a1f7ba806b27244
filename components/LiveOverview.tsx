'use client';
/**
 * The overview page body: starts from a server-rendered snapshot and follows `/api/stream`;
 * reloads the snapshot from `/api/overview` after a reconnect, a `lagged` notice, and every
 * {@link REFRESH_MS} (online windows and totals the events alone cannot settle).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Link from 'next/link';
import { CountTable } from './CountTable';
import { EnvelopeFeed } from './EnvelopeFeed';
import { ForceGraph } from './graph/ForceGraph';
import { applyEvent, initialState, resync, type OverviewState } from './live-state';
import { useLiveStream } from './useLiveStream';
import { clockTime, count, shortHex } from './format';
import { MSG_TYPE_NAMES, type LiveEvent, type OverviewSnapshot } from '../lib/wire';

const REFRESH_MS = 15_000;
const FRESH_MS = 2_500;

export function LiveOverview({ snapshot }: { snapshot: OverviewSnapshot }) {
  const [state, setState] = useState<OverviewState>(() => initialState(snapshot));
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
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
  }, []);

  const onEvent = useCallback((event: LiveEvent) => {
    setState((s) => applyEvent(s, event));
    if (event.type === 'message') {
      const id = event.data.id;
      setFresh((f) => new Set(f).add(id));
      setTimeout(() => setFresh((f) => {
        const n = new Set(f);
        n.delete(id);
        return n;
      }), FRESH_MS);
    }
  }, []);

  const { status, invalidFrames } = useLiveStream({ onEvent, onResync: reload });

  useEffect(() => {
    const t = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(t);
  }, [reload]);

  const totals = useMemo(() => {
    const envelopes = Object.values(state.stats.byType).reduce((a, b) => a + b, 0);
    const drops = Object.values(state.stats.drops).reduce((a, b) => a + b, 0);
    const online = state.agents.filter((a) => a.online);
    return { envelopes, drops, online };
  }, [state.stats, state.agents]);

  return (
    <>
      <header className="page-head">
        <div>
          <h1>Mesh overview</h1>
          <p className="muted">
            Every envelope the observer validated, live.{' '}
            {state.mesh ? (
              <span title={state.mesh.peerId}>
                Observer <span className="mono">{shortHex(state.mesh.peerId, 8, 6)}</span>, {count(state.mesh.peers)} peers.
              </span>
            ) : null}
          </p>
        </div>
        <span className={`status status-${status}`} data-testid="stream-status" data-status={status} data-invalid-frames={invalidFrames}>
          <span className="dot" aria-hidden /> {status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
        </span>
      </header>

      <section className="stat-row" aria-label="Totals">
        <Stat label="Envelopes stored" value={count(totals.envelopes)} testId="total-envelopes" />
        <Stat label="Live since page load" value={count(state.liveCount)} testId="live-count" />
        <Stat label="Agents online" value={`${count(totals.online.length)} / ${count(state.agents.length)}`} testId="agents-online" />
        <Stat label="Conversation links" value={count(state.graph.links.length)} />
        <Stat label="Drops" value={count(totals.drops)} tone={totals.drops > 0 ? 'warn' : undefined} testId="total-drops" />
      </section>

      {state.chain ? <ChainSection c={state.chain} /> : null}

      <div className="grid-main">
        <section className="card graph-card">
          <h2>Agents and conversations</h2>
          {state.graph.nodes.length === 0 ? <p className="muted empty">No agents seen yet.</p> : null}
          <ForceGraph graph={state.graph} pulses={state.pulses} />
          <p className="muted small">Circles are agents (hollow: offline); a line joins two agents in conversation, thicker with more messages and flashing on each one. Scroll or pinch to zoom, drag the background to pan, drag an agent to move it, click it to open.</p>
        </section>
        <div className="stack">
          <section className="card">
            <h2>Envelopes per type</h2>
            <CountTable counts={state.stats.byType} keys={MSG_TYPE_NAMES} label="Envelopes per type" testId="counts-by-type" />
          </section>
          <section className="card">
            <h2>Drops per reason</h2>
            <CountTable counts={state.stats.drops} label="Drops per reason" testId="drops-by-reason" tone="warn" empty="No drops." />
          </section>
        </div>
      </div>

      <div className="grid-feed">
        <section className="card">
          <h2>
            Live feed <span className="muted small">latest {state.envelopes.length}</span>
          </h2>
          <EnvelopeFeed envelopes={state.envelopes} fresh={fresh} empty="Waiting for envelopes…" />
        </section>
        <div className="stack">
          <section className="card">
            <h2>Agents online</h2>
            {totals.online.length === 0 ? (
              <p className="muted empty">None.</p>
            ) : (
              <ul className="agent-list" data-testid="online-agents">
                {totals.online.map((a) => (
                  <li key={a.id}>
                    <span className="dot on" aria-hidden />
                    <Link href={`/agents/${a.id}`} className="mono" title={a.id}>
                      {a.name ?? shortHex(a.id)}
                    </Link>
                    <span className="muted small">{clockTime(a.lastSeenMs)}</span>
                  </li>
                ))}
              </ul>
            )}
            <p className="small">
              <Link href="/agents">All agents →</Link>
            </p>
          </section>
          <section className="card">
            <h2>Events</h2>
            {state.activity.length === 0 ? (
              <p className="muted empty">No notary, verdict, reputation or dispute events since this page opened.</p>
            ) : (
              <ul className="activity">
                {state.activity.map((a) => (
                  <li key={a.key}>
                    <span className="mono small muted">{clockTime(a.at)}</span> <span className="ev">{a.type.replace(/_/g, ' ')}</span>{' '}
                    {a.agent ? <Link href={`/agents/${a.agent}`} className="mono">{shortHex(a.agent)}</Link> : null}{' '}
                    {a.conversationId ? <Link href={`/conversations/${a.conversationId}`} className="mono small">conv {shortHex(a.conversationId, 8, 0)}</Link> : null}{' '}
                    <span className="muted small">{a.summary}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>
    </>
  );
}

/** The chain section: batches, challenges, stakes and leases, live from the indexer's events. */
function ChainSection({ c }: { c: NonNullable<OverviewSnapshot['chain']> }) {
  return (
    <section className="card" style={{ marginBottom: 16 }} data-testid="chain-section">
      <h2>Chain</h2>
      <div className="stat-row" aria-label="Chain totals">
        <Stat label="Batches submitted" value={count(c.batches)} testId="chain-batches" />
        <Stat label="Batches verified" value={count(c.verifiedBatches)} testId="chain-verified" />
        <Stat label="Challenges (resolved)" value={`${count(c.challenges)} (${count(c.resolvedChallenges)})`} testId="chain-challenges" />
        <Stat label="Stakes locked" value={count(c.lockedStakes)} />
        <Stat label="Leases active" value={count(c.activeLeases)} />
      </div>
      <p className="small muted" data-testid="chain-last-challenge">
        {c.lastChallenge ? (
          <>
            Last challenge: <span className="mono">{shortHex(c.lastChallenge.address, 6, 4)}</span> against{' '}
            {/^[0-9a-f]{64}$/.test(c.lastChallenge.agent) ? <Link href={`/agents/${c.lastChallenge.agent}`} className="mono">{shortHex(c.lastChallenge.agent)}</Link> : <span className="mono">{shortHex(c.lastChallenge.agent)}</span>}{' '}
            epoch {c.lastChallenge.epoch}: <strong>{c.lastChallenge.status}</strong>
          </>
        ) : 'No challenge yet.'}
      </p>
    </section>
  );
}

function Stat({ label, value, tone, testId }: { label: string; value: string; tone?: 'warn'; testId?: string }) {
  return (
    <div className={`stat ${tone ?? ''}`}>
      <div className="stat-value mono" data-testid={testId}>
        {value}
      </div>
      <div className="stat-label">{label}</div>
    </div>
  );
}

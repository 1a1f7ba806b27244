'use client';
/**
 * The overview page body: starts from a server-rendered snapshot and follows `/api/stream`;
 * reloads the snapshot from `/api/overview` after a reconnect, a `lagged` notice, and every
 * {@link REFRESH_MS} (online windows and totals the events alone cannot settle).
 */
import Link from 'next/link';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type EnvelopeView, type LiveEvent, MSG_TYPE_NAMES, type OverviewSnapshot } from '../lib/wire';
import { CountTable } from './CountTable';
import { EnvelopeFeed } from './EnvelopeFeed';
import { base58, count, shortHex } from './format';
import { dropReasonText } from './glossary';
import { ForceGraph } from './graph/ForceGraph';
import { applyEvent, envelopeFromEvent, initialState, type OverviewState, resync } from './live-state';
import { AgentName } from './names/AgentName';
import { agentDisplayName } from './names/label';
import { ReplayBar } from './replay/ReplayBar';
import { parseReplayLink } from './replay/url';
import { useReplay } from './replay/useReplay';
import { AccountLink, useSite } from './site';
import { Time } from './time/Time';
import { useLiveStream } from './useLiveStream';

const REFRESH_MS = 15_000;
const FRESH_MS = 2_500;
/** Envelopes kept for the feed's filters (the newest; the table shows FEED_ROWS of the matching ones). */
const BUFFER = 1_000;
const FEED_ROWS = 30;
/** The rate is the arrivals of this window, per second. */
const RATE_WINDOW_MS = 10_000;

export interface FeedFilter {
  type: string;
  agent: string;
}

/** An envelope matches when its type is the one asked and the agent (a prefix of the base58 or hex id, or part of the name) is its sender or recipient. */
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
  // A replay shows its own state (from stored envelopes) while the live one keeps following the stream.
  const link = useMemo(() => parseReplayLink(replay ?? {}), [replay]);
  const [replaying, replayControls] = useReplay(snapshot, link && !('error' in link) ? link : null);
  const state = replaying ? replaying.state : liveState;
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const loading = useRef(false);
  const { names } = useSite();
  // The feed: every arrival goes to the buffer; while paused the table stays as it was and the
  // arrivals that match the filter are counted; the graph and counters follow the stream regardless.
  const [buffer, setBuffer] = useState<EnvelopeView[]>(() => snapshot.envelopes);
  const [filter, setFilter] = useState<FeedFilter>(initialFilter);
  const [paused, setPaused] = useState<EnvelopeView[] | null>(null);
  const [rate, setRate] = useState<number | null>(null);
  const arrivals = useRef<number[]>([]);
  // When this page last missed events (the server dropped some because the page fell behind, or
  // the stream reconnected): for a window after it, arrivals undercount the mesh.
  const missedAt = useRef(0);
  const [partial, setPartial] = useState(false);
  const match = useMemo(() => matcher(filter, names), [filter, names]);
  const shown = useMemo(
    () => (replaying ? replaying.state.envelopes.filter(match) : (paused ?? buffer.filter(match))).slice(0, FEED_ROWS),
    [replaying, paused, buffer, match],
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
  const setFilterUrl = useCallback(
    (f: FeedFilter) => {
      setFilter(f);
      setPaused((p) => (p ? buffer.filter(matcher(f, names)).slice(0, FEED_ROWS) : p));
      // Kept in the URL so a filtered feed is a link to share (read back by app/page.tsx).
      const u = new URL(window.location.href);
      for (const k of ['type', 'agent'] as const) {
        if (f[k]) u.searchParams.set(k, f[k]);
        else u.searchParams.delete(k);
      }
      window.history.replaceState(null, '', u);
    },
    [buffer, names],
  );
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
      arrivals.current.push(Date.now());
      const env = envelopeFromEvent(event);
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
    }
  }, []);

  const onResync = useCallback(() => {
    missedAt.current = Date.now();
    void reload();
  }, [reload]);
  const { status, invalidFrames } = useLiveStream({ onEvent, onResync });

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
            {replaying
              ? 'A past window replayed from the stored envelopes.'
              : 'Every envelope the observer validated, live.'}{' '}
            {state.mesh ? (
              <span title={state.mesh.peerId}>
                Observer <span className="mono">{shortHex(state.mesh.peerId, 8, 6)}</span>, {count(state.mesh.peers)}{' '}
                peers.
              </span>
            ) : null}
          </p>
        </div>
        <span
          className={`status status-${replaying ? 'replay' : status}`}
          data-testid="stream-status"
          data-status={status}
          data-invalid-frames={invalidFrames}
          title={
            replaying
              ? 'this page shows a replay of a past window; the live stream keeps running underneath, and Back to live returns to it'
              : undefined
          }
        >
          <span className="dot" aria-hidden />{' '}
          {replaying
            ? 'Replay'
            : status === 'live'
              ? 'Live'
              : status === 'connecting'
                ? 'Connecting…'
                : 'Reconnecting…'}
        </span>
      </header>
      {link && 'error' in link ? (
        <p className="small warn-text" role="alert">
          This link's replay could not be read ({link.error}); showing the live mesh.
        </p>
      ) : null}
      <ReplayBar view={replaying} controls={replayControls} />

      <section className="stat-row" aria-label="Totals">
        {replaying ? (
          <>
            <Stat label="Envelopes replayed" value={count(state.liveCount)} testId="total-envelopes" />
            <Stat label="Agents seen in the replay" value={count(state.agents.length)} testId="agents-online" />
            <Stat label="Conversation links" value={count(state.graph.links.length)} />
            <Stat label="Drops: not replayed (unknown per envelope time)" value="—" />
          </>
        ) : (
          <>
            <Stat label="Envelopes stored" value={count(totals.envelopes)} testId="total-envelopes" />
            <Stat label="Live since page load" value={count(state.liveCount)} testId="live-count" />
            <Stat
              label="Agents online"
              value={`${count(totals.online.length)} / ${count(state.agents.length)}`}
              testId="agents-online"
            />
            <Stat label="Conversation links" value={count(state.graph.links.length)} />
            <Stat
              label="Drops"
              value={count(totals.drops)}
              tone={totals.drops > 0 ? 'warn' : undefined}
              testId="total-drops"
            />
          </>
        )}
      </section>
      {replaying ? null : strip}

      {state.chain && !replaying ? <ChainSection c={state.chain} /> : null}

      <div className="grid-main">
        <section className="card graph-card">
          <h2>Agents and conversations</h2>
          {state.graph.nodes.length === 0 ? <p className="muted empty">No agents seen yet.</p> : null}
          <ForceGraph graph={state.graph} pulses={state.pulses} />
          <p className="muted small">
            Circles are agents (hollow: offline); a line joins two agents in conversation, thicker with more messages
            and flashing on each one. Scroll or pinch to zoom, drag the background to pan, drag an agent to move it,
            click it to open.
          </p>
        </section>
        <div className="stack">
          <section className="card">
            <h2>Envelopes per type</h2>
            <CountTable
              counts={state.stats.byType}
              keys={MSG_TYPE_NAMES}
              label="Envelopes per type"
              testId="counts-by-type"
            />
          </section>
          <section className="card">
            <h2>Drops per reason</h2>
            {replaying ? (
              <p className="muted empty">Drops are not stored per envelope time, so a replay cannot show them.</p>
            ) : (
              <CountTable
                counts={state.stats.drops}
                label="Drops per reason"
                testId="drops-by-reason"
                tone="warn"
                empty="No drops."
                describe={dropReasonText}
              />
            )}
            <p className="small muted">
              <Link href="/glossary#drops">What each reason means</Link>
            </p>
          </section>
        </div>
      </div>

      <div className="grid-feed">
        <section className="card">
          <h2>
            {replaying ? 'Replayed feed' : 'Live feed'}{' '}
            <span className="muted small">
              latest {shown.length}
              {filter.type || filter.agent ? ' matching' : ''}
            </span>
          </h2>
          <div className="feed-bar" data-testid="feed-bar">
            <button
              type="button"
              hidden={replaying !== null}
              onClick={() => setPaused((p) => (p ? null : buffer.filter(match).slice(0, FEED_ROWS)))}
              data-testid="feed-pause"
              aria-pressed={paused !== null}
            >
              {paused ? 'Resume' : 'Pause'}
            </button>
            {paused ? (
              <span className="new-count" data-testid="feed-new" data-count={newCount}>
                {count(newCount)} new
              </span>
            ) : null}
            <label>
              Type{' '}
              <select
                value={filter.type}
                onChange={(e) => setFilterUrl({ ...filter, type: e.target.value })}
                data-testid="feed-type"
              >
                <option value="">all</option>
                {MSG_TYPE_NAMES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Agent{' '}
              <input
                value={filter.agent}
                onChange={(e) => setFilterUrl({ ...filter, agent: e.target.value })}
                placeholder="name or id prefix"
                size={16}
                data-testid="feed-agent"
                spellCheck={false}
              />
            </label>
            <span
              className="muted"
              data-testid="feed-rate"
              data-partial={partial}
              hidden={replaying !== null}
              title={
                partial
                  ? `this page missed envelopes in the last ${RATE_WINDOW_MS / 1000} s (it fell behind the stream or reconnected), so the mesh sent at least this many per second`
                  : `envelopes that arrived on this page over the last ${RATE_WINDOW_MS / 1000} s, per second`
              }
            >
              {rate === null ? 'measuring rate…' : `${partial ? '≥ ' : ''}${rate.toFixed(1)} envelopes/s`}
            </span>
          </div>
          <EnvelopeFeed
            envelopes={shown}
            fresh={paused || replaying ? undefined : fresh}
            clock={!replaying}
            empty={
              filter.type || filter.agent
                ? 'No envelope matches this filter yet.'
                : replaying
                  ? 'No envelope replayed yet.'
                  : 'Waiting for envelopes…'
            }
          />
        </section>
        <div className="stack">
          <section className="card">
            <h2>{replaying ? 'Agents seen in the replay' : 'Agents online'}</h2>
            {totals.online.length === 0 ? (
              <p className="muted empty">None.</p>
            ) : (
              <ul className="agent-list" data-testid="online-agents">
                {totals.online.map((a) => (
                  <li key={a.id}>
                    <span className="dot on" aria-hidden />
                    <AgentName id={a.id} name={a.name} />
                    <span className="muted small">
                      <Time ms={a.lastSeenMs || null} date={false} />
                    </span>
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
            {replaying ? (
              <p className="muted empty">
                Notary, verdict, reputation and dispute events show live only; the replay shows their envelopes in the
                feed.
              </p>
            ) : state.activity.length === 0 ? (
              <p className="muted empty">No notary, verdict, reputation or dispute events since this page opened.</p>
            ) : (
              <ul className="activity">
                {state.activity.map((a) => (
                  <li key={a.key} data-event={a.type}>
                    <span className="small muted">
                      <Time ms={a.at} date={false} />
                    </span>{' '}
                    {a.agent ? <AgentName id={a.agent} copy={false} /> : null}{' '}
                    <span className="sentence">{a.summary}</span>
                    {a.conversationId ? (
                      <>
                        {' '}
                        ·{' '}
                        <Link href={`/conversations/${a.conversationId}`} className="small">
                          conversation
                        </Link>
                      </>
                    ) : null}
                    <details className="small muted">
                      <summary>fields</summary>
                      <pre className="mono" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
                        {JSON.stringify(a.fields, null, 1)}
                      </pre>
                    </details>
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
        <Stat
          label="Challenges (resolved)"
          value={`${count(c.challenges)} (${count(c.resolvedChallenges)})`}
          testId="chain-challenges"
        />
        <Stat label="Stakes locked" value={count(c.lockedStakes)} />
        <Stat label="Leases active" value={count(c.activeLeases)} />
      </div>
      <p className="small muted" data-testid="chain-last-challenge">
        {c.lastChallenge ? (
          <>
            Last challenge: <AccountLink address={c.lastChallenge.address} /> against{' '}
            {/^[0-9a-f]{64}$/.test(c.lastChallenge.agent) ? (
              <AgentName id={c.lastChallenge.agent} copy={false} />
            ) : (
              <span className="mono">{shortHex(c.lastChallenge.agent)}</span>
            )}{' '}
            over its batch of epoch {c.lastChallenge.epoch}: <strong>{c.lastChallenge.status}</strong> ·{' '}
            <Link href="/challenges">all challenges</Link>
          </>
        ) : (
          'No challenge yet.'
        )}
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

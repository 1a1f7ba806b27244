'use client';
import Link from 'next/link';
import type { OverviewState } from '../live-state';
import { AgentName } from '../names/AgentName';
import { Time } from '../time/Time';
import { TimedText } from '../time/TimedText';
import type { OverviewTotals } from './Totals';

/** Beside the feed: the agents online (or seen in a replay) and the notary, verdict, reputation and dispute events. */
export function SideCards({
  state,
  totals,
  replaying,
}: {
  state: OverviewState;
  totals: OverviewTotals;
  replaying: boolean;
}) {
  return (
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
            Notary, verdict, reputation and dispute events show live only; the replay shows their envelopes in the feed.
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
                <span className="sentence">
                  <TimedText text={a.summary} />
                </span>
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
  );
}

'use client';
/** The overview's feed: the latest envelopes, with pause, a type and agent filter and the arrival rate. */
import { MSG_TYPE_NAMES } from '../../lib/wire';
import { EnvelopeFeed } from '../EnvelopeFeed';
import { count } from '../format';
import { type Feed, RATE_WINDOW_MS } from './useFeed';

export function FeedCard({ feed, replaying }: { feed: Feed; replaying: boolean }) {
  const { filter, shown, paused, newCount, rate, partial, fresh } = feed;
  return (
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
          hidden={replaying}
          onClick={feed.togglePause}
          data-testid="feed-pause"
          aria-pressed={paused}
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
            onChange={(e) => feed.setFilter({ ...filter, type: e.target.value })}
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
            onChange={(e) => feed.setFilter({ ...filter, agent: e.target.value })}
            placeholder="name or id prefix"
            size={16}
            data-testid="feed-agent"
            spellCheck={false}
          />
        </label>
        <Rate rate={rate} partial={partial} hidden={replaying} />
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
  );
}

/** Envelopes per second that reached this page; a lower bound ("≥") after the page missed some. */
function Rate({ rate, partial, hidden }: { rate: number | null; partial: boolean; hidden: boolean }) {
  return (
    <span
      className="muted"
      data-testid="feed-rate"
      data-partial={partial}
      hidden={hidden}
      title={
        partial
          ? `this page missed envelopes in the last ${RATE_WINDOW_MS / 1000} s (it fell ` +
            `behind the stream or reconnected), so the mesh sent at least this many per second`
          : `envelopes that arrived on this page over the last ${RATE_WINDOW_MS / 1000} s, per second`
      }
    >
      {rate === null ? 'measuring rate…' : `${partial ? '≥ ' : ''}${rate.toFixed(1)} envelopes/s`}
    </span>
  );
}

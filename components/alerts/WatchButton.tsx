'use client';
/**
 * "Watch" / "Watching" for one agent or conversation: a toggle (aria-pressed) whose accessible
 * name says what it watches, so a list of rows reads "Watch agent Amber Falcon", not "Watch"
 * twenty times. The first press creates this browser's watchlist. A refusal is shown beside the
 * button as the server's sentence.
 */
import { useState } from 'react';
import { useAgentName } from '../names/AgentName';
import type { ItemKind } from './api';
import { agentHexOf } from './store';
import { useHydrated, useWatched } from './useWatchlist';

/** `name`: how the page names the thing; for an agent without one, its SATI name or derived label. */
export function WatchButton({
  kind,
  target,
  name,
  compact = false,
}: {
  kind: ItemKind;
  target: string;
  name?: string | null;
  compact?: boolean;
}) {
  const agentName = useAgentName(agentHexOf(target) ?? target, name);
  const hydrated = useHydrated();
  const { watched, toggle } = useWatched({ kind, target });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const on = hydrated && watched;
  const press = async () => {
    setBusy(true);
    setError(null);
    const r = await toggle();
    setBusy(false);
    if (!r.ok) setError(r.error);
  };
  const what = `${kind} ${kind === 'agent' ? agentName : (name ?? target)}`;
  return (
    <span className={`watch ${compact ? 'watch-compact' : ''}`}>
      <button
        type="button"
        className={`watch-btn ${on ? 'on' : ''}`}
        aria-pressed={on}
        aria-label={on ? `Watching ${what}: press to stop` : `Watch ${what}`}
        // A compact button sits in every row of a list: its name says what it watches, the full button explains.
        title={
          compact
            ? undefined
            : on
              ? `You get alerts about this ${kind}. Press to stop watching.`
              : `Get alerts about this ${kind} (offline, lease, batches, ` +
                `challenges…) on the Alerts page, by browser notification or webhook.`
        }
        onClick={press}
        disabled={busy}
        data-testid="watch-button"
        data-watch-kind={kind}
        data-watch-target={target}
      >
        {compact ? null : (
          <svg viewBox="0 0 24 24" aria-hidden className="watch-icon">
            <path d="M12 3.5l2.6 5.3 5.9.9-4.25 4.1 1 5.8L12 16.9l-5.25 2.7 1-5.8L3.5 9.7l5.9-.9z" />
          </svg>
        )}
        <span className="watch-text">{busy ? '…' : on ? 'Watching' : 'Watch'}</span>
      </button>
      {error ? (
        <span className="watch-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}

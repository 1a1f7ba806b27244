'use client';
/** The overview's title, the observer it shows, and whether the page is live, reconnecting or replaying. */
import type { OverviewSnapshot } from '../../lib/wire';
import { count, shortHex } from '../format';

export function OverviewHeader({
  mesh,
  replaying,
  status,
  invalidFrames,
}: {
  mesh: OverviewSnapshot['mesh'];
  replaying: boolean;
  status: string;
  invalidFrames: number;
}) {
  return (
    <header className="page-head">
      <div>
        <h1>Mesh overview</h1>
        <p className="muted">
          {replaying
            ? 'A past window replayed from the stored envelopes.'
            : 'Every envelope the observer validated, live.'}{' '}
          {mesh ? (
            <span title={mesh.peerId}>
              Observer <span className="mono">{shortHex(mesh.peerId, 8, 6)}</span>, {count(mesh.peers)} peers.
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
            ? 'this page shows a replay of a past window; the live stream ' +
              'keeps running underneath, and Back to live returns to it'
            : undefined
        }
      >
        <span className="dot" aria-hidden />{' '}
        {replaying ? 'Replay' : status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
      </span>
    </header>
  );
}

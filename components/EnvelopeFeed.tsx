/**
 * The envelope feed table: type, sender, recipient, conversation, time. Rows carry
 * `data-envelope-id` so tests and scripts can follow them.
 */
import Link from 'next/link';
import type { EnvelopeView } from '../lib/wire';
import { isBroadcast, isZeroId, shortHex } from './format';
import { AgentName } from './names/AgentName';
import { Time } from './time/Time';

/** What a feed row shows of an envelope: a page passes these fields only, not the whole view. */
export type FeedEnvelope = Pick<
  EnvelopeView,
  'id' | 'type' | 'sender' | 'recipient' | 'conversationId' | 'timestampMs'
>;

/** An envelope cut to its feed row (a client component's props carry nothing the row does not draw). */
export const feedEnvelope = (e: FeedEnvelope): FeedEnvelope => ({
  id: e.id,
  type: e.type,
  sender: e.sender,
  recipient: e.recipient,
  conversationId: e.conversationId,
  timestampMs: e.timestampMs,
});

export interface EnvelopeFeedProps {
  envelopes: FeedEnvelope[];
  /** Ids to highlight as just arrived. */
  fresh?: ReadonlySet<string>;
  empty?: string;
  /** Clock only (a live feed of the last minutes) instead of date and time. */
  clock?: boolean;
  /** The agent whose page this is (hex): named "this agent" in its rows, not linked to the page it is on. */
  self?: string;
}

export function TypeBadge({ type }: { type: string }) {
  return <span className={`badge t-${type.toLowerCase()}`}>{type}</span>;
}

/**
 * An agent as every page shows it: name and short base58 id (components/names/AgentName.tsx); with `copy`, its copy
 * button.
 */
export function AgentLink({ id, name, copy = false }: { id: string; name?: string | null; copy?: boolean }) {
  return <AgentName id={id} name={name} copy={copy} />;
}

export function EnvelopeFeed({
  envelopes,
  fresh,
  empty = 'No envelopes yet.',
  clock = false,
  self,
}: EnvelopeFeedProps) {
  const party = (id: string) =>
    id === self ? <span className="muted">this agent</span> : <AgentName id={id} copy={false} />;
  if (envelopes.length === 0) return <p className="muted empty">{empty}</p>;
  return (
    <div className="table-wrap">
      <table className="feed" data-testid="envelope-feed">
        <thead>
          <tr>
            <th>Type</th>
            <th>From → to</th>
            <th>Conversation</th>
            <th>Time</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {envelopes.map((e) => (
            <tr key={e.id} data-envelope-id={e.id} className={fresh?.has(e.id) ? 'fresh' : undefined}>
              <td>
                <TypeBadge type={e.type} />
              </td>
              <td className="sentence">
                {party(e.sender)} →{' '}
                {isBroadcast(e.recipient) ? <span className="muted">everyone (broadcast)</span> : party(e.recipient)}
              </td>
              <td>
                {isZeroId(e.conversationId) ? (
                  <span className="muted">—</span>
                ) : (
                  <Link href={`/conversations/${e.conversationId}`} className="mono" title={e.conversationId}>
                    {shortHex(e.conversationId, 10, 0)}
                  </Link>
                )}
              </td>
              <td className="small feed-time">
                <Time ms={e.timestampMs} date={!clock} />
              </td>
              <td>
                <Link
                  href={`/envelopes/${e.id}`}
                  prefetch={false}
                  className="small"
                  title="check this envelope's bytes, signature and batch inclusion in your browser"
                >
                  verify
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

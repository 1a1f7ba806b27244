/**
 * The envelope feed table: type, sender, recipient, conversation, time. Rows carry
 * `data-envelope-id` so tests and scripts can follow them.
 */
import Link from 'next/link';
import { CopyId } from './CopyId';
import type { EnvelopeView } from '../lib/wire';
import { base58, clockTime, isBroadcast, isZeroId, shortHex } from './format';

export interface EnvelopeFeedProps {
  envelopes: EnvelopeView[];
  /** Ids to highlight as just arrived. */
  fresh?: ReadonlySet<string>;
  empty?: string;
}

export function TypeBadge({ type }: { type: string }) {
  return <span className={`badge t-${type.toLowerCase()}`}>{type}</span>;
}

export function AgentLink({ id }: { id: string }) {
  return (
    <span className="agent-id">
      <Link href={`/agents/${id}`} className="mono" title={`${base58(id)}\nhex ${id}`}>
        {shortHex(base58(id), 5, 4)}
      </Link>
      <CopyId hex={id} />
    </span>
  );
}

export function EnvelopeFeed({ envelopes, fresh, empty = 'No envelopes yet.' }: EnvelopeFeedProps) {
  if (envelopes.length === 0) return <p className="muted empty">{empty}</p>;
  return (
    <div className="table-wrap">
      <table className="feed" data-testid="envelope-feed">
        <thead>
          <tr>
            <th>Type</th>
            <th>Sender</th>
            <th>Recipient</th>
            <th>Conversation</th>
            <th className="num">Time</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {envelopes.map((e) => (
            <tr key={e.id} data-envelope-id={e.id} className={fresh?.has(e.id) ? 'fresh' : undefined}>
              <td>
                <TypeBadge type={e.type} />
              </td>
              <td>
                <AgentLink id={e.sender} />
              </td>
              <td>{isBroadcast(e.recipient) ? <span className="muted">broadcast</span> : <AgentLink id={e.recipient} />}</td>
              <td>
                {isZeroId(e.conversationId) ? (
                  <span className="muted">—</span>
                ) : (
                  <Link href={`/conversations/${e.conversationId}`} className="mono" title={e.conversationId}>
                    {shortHex(e.conversationId, 10, 0)}
                  </Link>
                )}
              </td>
              <td className="num mono" title={new Date(e.timestampMs).toISOString()}>
                {clockTime(e.receivedAtMs ?? e.timestampMs)}
              </td>
              <td>
                <Link href={`/envelopes/${e.id}`} prefetch={false} className="small" title="check this envelope's bytes, signature and batch inclusion in your browser">
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

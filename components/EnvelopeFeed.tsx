/**
 * The envelope feed table: type, sender, recipient, conversation, time. Rows carry
 * `data-envelope-id` so tests and scripts can follow them.
 */
import Link from 'next/link';
import type { EnvelopeView } from '../lib/wire';
import { Ident } from './CopyId';
import { isBroadcast, isZeroId, shortHex } from './format';
import { AgentName } from './names/AgentName';
import { type Column, DataTable } from './table/DataTable';
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
  const party = (id: string) => (id === self ? <span className="muted">this agent</span> : <AgentName id={id} />);
  if (envelopes.length === 0) return <p className="muted empty">{empty}</p>;
  const columns: Column<FeedEnvelope>[] = [
    { label: 'Type', priority: true, cell: (e) => <TypeBadge type={e.type} /> },
    {
      label: 'From → to',
      priority: true,
      className: 'sentence',
      cell: (e) => (
        <>
          {party(e.sender)} →{' '}
          {isBroadcast(e.recipient) ? <span className="muted">everyone (broadcast)</span> : party(e.recipient)}
        </>
      ),
    },
    {
      label: 'Conversation',
      priority: true,
      cell: (e) =>
        isZeroId(e.conversationId) ? (
          <span className="muted">—</span>
        ) : (
          <Ident kind="conversation id" value={e.conversationId}>
            <Link href={`/conversations/${e.conversationId}`} className="mono" title={e.conversationId}>
              {shortHex(e.conversationId, 10, 0)}
            </Link>
          </Ident>
        ),
    },
    {
      label: 'Time',
      priority: true,
      className: 'small feed-time',
      cell: (e) => <Time ms={e.timestampMs} date={!clock} />,
    },
    {
      label: 'Check',
      head: <span className="visually-hidden">Check</span>,
      bare: true,
      cell: (e) => (
        <Link
          href={`/envelopes/${e.id}`}
          prefetch={false}
          className="small"
          title="check this envelope's bytes, signature and batch inclusion in your browser"
        >
          verify
        </Link>
      ),
    },
  ];
  return (
    <DataTable
      testId="envelope-feed"
      className="feed"
      rows={envelopes}
      rowKey={(e) => e.id}
      rowProps={(e) => ({ 'data-envelope-id': e.id, className: fresh?.has(e.id) ? 'fresh' : undefined })}
      columns={columns}
      // The details sit with the parties, not in the first cell (a row's first cell is its type).
      detailsIn={1}
    />
  );
}

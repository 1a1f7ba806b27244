/**
 * Table of conversations. With deal summaries (app/_lib/deals.ts): the service, buyer and seller by
 * name, rounds, last price in its token, the outcome with "on chain" and "differs" badges; without
 * (an agent's page), the parties, stage and message count. Times in the viewer's zone.
 */
import Link from 'next/link';
import { OUTCOME_LABELS, STAGE_LABELS } from '../lib/protocol/conversation-state';
import type { ConversationSummaryView } from '../lib/wire';
import type { DealColumns } from '../lib/wire/deals';
import { WatchButton } from './alerts/WatchButton';
import { Ident } from './CopyId';
import { count, formatAmount, shortHex } from './format';
import { type GlossaryKey, glossaryText } from './glossary';
import { AgentName } from './names/AgentName';
import { Term } from './Term';
import { type Column, DataTable } from './table/DataTable';
import { Time } from './time/Time';

/** A term's definition as the tooltip of text that cannot be a link (it sits inside one). */
export type { DealColumns };

const Tip = ({ k, children }: { k: GlossaryKey; children: React.ReactNode }) => (
  <span className="tip" title={glossaryText(k)} data-term={k}>
    {children}
  </span>
);

/** A column header that re-sorts: `href` when it can, the current sort marked. */
export interface SortLinks {
  [column: string]: { href: string; active: boolean };
}

function Head({ label, sort, name }: { label: React.ReactNode; sort?: SortLinks; name: string }) {
  const s = sort?.[name];
  return s ? (
    <Link href={s.href} className={s.active ? 'active' : undefined} aria-sort={s.active ? 'descending' : undefined}>
      {label}
      {s.active ? ' ↓' : ''}
    </Link>
  ) : (
    label
  );
}

/** What a row of the table draws of a conversation. */
export type ConversationRow = Pick<
  ConversationSummaryView,
  'id' | 'participants' | 'messages' | 'stage' | 'outcome' | 'state' | 'lastMs'
>;

export function ConversationList({
  conversations,
  self,
  deals,
  parties,
  sort,
}: {
  conversations: ConversationRow[];
  self?: string;
  deals?: Record<string, DealColumns>;
  /** For the plain table: each conversation's negotiating parties (its "With" lists them, not every participant). */
  parties?: Record<string, Pick<DealColumns, 'parties'>>;
  sort?: SortLinks;
}) {
  if (conversations.length === 0) return <p className="muted empty">No conversations.</p>;
  if (deals)
    return (
      <DataTable
        testId="conversation-list"
        className="deals"
        rows={conversations}
        rowKey={(c) => c.id}
        rowProps={(c) => ({ 'data-conversation': c.id })}
        columns={dealColumns(deals, sort)}
        fold="lg"
      />
    );
  return (
    <DataTable
      testId="conversation-list"
      rows={conversations}
      rowKey={(c) => c.id}
      rowProps={(c) => ({ 'data-conversation': c.id })}
      columns={plainColumns(self, parties)}
    />
  );
}

/** A conversation's id, shortened, with its copy button. */
const ConvId = ({ id }: { id: string }) => (
  <Ident kind="conversation id" value={id}>
    <span className="mono">{shortHex(id, 8, 4)}</span>
  </Ident>
);

/**
 * The deal columns: the deal, its parties, the last price and the outcome at every width; rounds,
 * message count and last activity fold into the row's details when the card is short of room.
 */
function dealColumns(deals: Record<string, DealColumns>, sort: SortLinks | undefined): Column<ConversationRow>[] {
  return [
    {
      label: 'Deal',
      head: <Term k="service">Deal</Term>,
      priority: true,
      cell: (c) => <Deal c={c} d={deals[c.id]} />,
    },
    ...partyColumns(deals),
    {
      // A sort header is a link already: the term's definition is its tooltip rather than a nested link.
      label: 'Rounds',
      head: <Head name="rounds" label={<Tip k="round">Rounds</Tip>} sort={sort} />,
      className: 'num mono',
      headClassName: 'num sortable',
      cell: (c) => {
        const d = deals[c.id];
        return d ? count(d.rounds) : '—';
      },
    },
    {
      label: 'Last price',
      head: <Head name="price" label={<Tip k="lastPrice">Last price</Tip>} sort={sort} />,
      priority: true,
      className: 'num mono',
      headClassName: 'num sortable',
      cell: (c) => {
        const d = deals[c.id];
        return d?.lastPrice ? formatAmount(d.lastPrice, d.token) : '—';
      },
    },
    {
      label: 'Outcome',
      head: <Head name="outcome" label={<Tip k="outcome">Outcome</Tip>} sort={sort} />,
      priority: true,
      headClassName: 'sortable',
      cell: (c) => <Outcome c={c} d={deals[c.id]} />,
    },
    {
      label: 'Msgs',
      head: <Head name="messages" label={MSGS} sort={sort} />,
      className: 'num mono',
      headClassName: 'num sortable',
      cell: (c) => count(c.messages),
    },
    {
      label: 'Last activity',
      head: <Head name="last_seen" label={LAST_ACTIVITY} sort={sort} />,
      className: 'small deal-time',
      headClassName: 'sortable',
      cell: (c) => <Time ms={c.lastMs} />,
    },
  ];
}

/** Buyer and seller, each by name; one "no deal: from …" across both where there was no deal. */
function partyColumns(deals: Record<string, DealColumns>): Column<ConversationRow>[] {
  // Deal steps without an ACCEPT have no buyer or seller: said as such, not "unknown".
  const partiesOnly = (c: ConversationRow) => c.outcome === 'no_deal' && !deals[c.id]?.buyer && !deals[c.id]?.seller;
  const others = (c: ConversationRow) => {
    const d = deals[c.id];
    return c.participants.filter((p) => p !== d?.buyer && p !== d?.seller);
  };
  return [
    {
      label: 'Buyer',
      head: <Term k="roles">Buyer</Term>,
      priority: true,
      span: (c) =>
        partiesOnly(c)
          ? {
              cells: 2,
              className: 'small',
              label: 'Parties',
              node: (
                <>
                  <span className="muted">no deal: from </span>
                  <Parties ids={c.participants} />
                </>
              ),
            }
          : null,
      cell: (c) => {
        const d = deals[c.id];
        return d?.buyer ? (
          <AgentName id={d.buyer} />
        ) : (
          <Parties ids={d ? others(c).slice(0, 1) : c.participants.slice(0, 1)} />
        );
      },
    },
    {
      label: 'Seller',
      head: <Term k="roles">Seller</Term>,
      priority: true,
      cell: (c) => {
        const d = deals[c.id];
        return d?.seller ? (
          <AgentName id={d.seller} />
        ) : (
          <Parties ids={d ? others(c).slice(1, 2) : c.participants.slice(1, 2)} />
        );
      },
    },
  ];
}

const MSGS = (
  <span
    className="tip"
    title="Envelopes stored in this conversation, negotiation and the rest (delivery, notarisation, feedback)."
  >
    Msgs
  </span>
);
const LAST_ACTIVITY = (
  <span className="tip" title="When the latest envelope of the conversation was received; hover a time for UTC.">
    Last activity
  </span>
);

/** The deal's service (or stage) linking to the conversation, its id and the watch button under it. */
function Deal({ c, d }: { c: ConversationRow; d: DealColumns | undefined }) {
  return (
    <>
      <Link href={`/conversations/${c.id}`} title={d?.serviceHash ? `service hash ${d.serviceHash}` : c.id}>
        {d?.service ??
          (d?.serviceHash
            ? `service ${shortHex(d.serviceHash, 6, 0)}`
            : c.outcome === 'no_deal'
              ? STAGE_LABELS[c.stage]
              : 'conversation')}
      </Link>
      <div className="small muted conv-id-line">
        <ConvId id={c.id} />{' '}
        <WatchButton kind="conversation" target={c.id} name={d?.service ?? shortHex(c.id, 8, 4)} compact />
      </div>
    </>
  );
}

function Outcome({ c, d }: { c: ConversationRow; d: DealColumns | undefined }) {
  return (
    <>
      <span data-outcome={c.outcome}>{OUTCOME_LABELS[c.outcome]}</span>
      {d?.onChain ? (
        <>
          {' '}
          <span className="badge onchain" title={`Mirrored on chain. ${glossaryText('haggle')}`}>
            on chain
          </span>
        </>
      ) : null}
      {d && d.differences > 0 ? (
        <>
          {' '}
          <a
            href={`/conversations/${c.id}`}
            className="badge differs"
            title={`${d.differences} difference(s). ${glossaryText('differs')}`}
          >
            differs
          </a>
        </>
      ) : null}
      {STAGE_LABELS[c.stage] !== OUTCOME_LABELS[c.outcome] ? (
        <div className="small muted" data-stage={c.stage}>
          {STAGE_LABELS[c.stage]}
        </div>
      ) : null}
    </>
  );
}

/**
 * An agent's list: the conversation, with whom, its stage and last activity at every width; the message count folds.
 */
function plainColumns(
  self: string | undefined,
  parties: Record<string, Pick<DealColumns, 'parties'>> | undefined,
): Column<ConversationRow>[] {
  return [
    {
      label: 'Conversation',
      head: <Term k="conversation">Conversation</Term>,
      priority: true,
      cell: (c) => (
        <>
          <Ident kind="conversation id" value={c.id}>
            <Link href={`/conversations/${c.id}`} className="mono" title={c.id}>
              {shortHex(c.id, 8, 4)}
            </Link>
          </Ident>{' '}
          <WatchButton kind="conversation" target={c.id} name={shortHex(c.id, 8, 4)} compact />
        </>
      ),
    },
    {
      label: self ? 'With' : 'Parties',
      priority: true,
      cell: (c) => <Parties ids={withWhom(c, self, parties?.[c.id]?.parties)} />,
    },
    {
      label: 'Stage',
      head: <Term k="stage">Stage</Term>,
      priority: true,
      cell: (c) => <span data-stage={c.stage}>{c.state ?? '—'}</span>,
    },
    { label: 'Messages', className: 'num mono', cell: (c) => count(c.messages) },
    { label: 'Last activity', priority: true, className: 'small', cell: (c) => <Time ms={c.lastMs} /> },
  ];
}

/**
 * An agent's conversations cut to their rows, each with only the agents its "With" names (the
 * negotiators when known, never `self`): what the agent page hands the browser, instead of every
 * participant (bidders, listeners) and a second map of the negotiators.
 */
export function agentConversationRows(
  conversations: readonly ConversationSummaryView[],
  self: string,
  parties: Readonly<Record<string, Pick<DealColumns, 'parties'>>>,
): ConversationRow[] {
  return conversations.map((c) => ({
    id: c.id,
    participants: withWhom(c, self, parties[c.id]?.parties),
    messages: c.messages,
    stage: c.stage,
    outcome: c.outcome,
    state: c.state,
    lastMs: c.lastMs,
  }));
}

/** Who a conversation is with: its negotiating parties when known (each once), else every participant; never `self`. */
export function withWhom(
  c: Pick<ConversationSummaryView, 'participants'>,
  self: string | undefined,
  parties: readonly string[] | undefined,
): string[] {
  const ids = parties?.length ? parties : c.participants;
  return [...new Set(ids)].filter((p) => p !== self);
}

function Parties({ ids }: { ids: string[] }) {
  if (ids.length === 0) return <span className="muted">unknown</span>;
  // A wrapping row: a conversation with many participants (bidders, a notary) must not widen its
  // column past the page.
  return (
    <span className="party-list">
      {ids.map((p) => (
        <span key={p}>
          <AgentName id={p} />
        </span>
      ))}
    </span>
  );
}

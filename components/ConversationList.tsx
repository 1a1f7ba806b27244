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
import { count, formatAmount, shortHex } from './format';
import { type GlossaryKey, glossaryText } from './glossary';
import { AgentName } from './names/AgentName';
import { Term } from './Term';
import { Time } from './time/Time';

export type { DealColumns };

/** A term's definition as the tooltip of text that cannot be a link (it sits inside one). */
const Tip = ({ k, children }: { k: GlossaryKey; children: React.ReactNode }) => (
  <span className="tip" title={glossaryText(k)} data-term={k}>
    {children}
  </span>
);

/** A column header that re-sorts: `href` when it can, the current sort marked. */
export interface SortLinks {
  [column: string]: { href: string; active: boolean };
}

function Head({
  label,
  sort,
  name,
  className,
}: {
  label: React.ReactNode;
  sort?: SortLinks;
  name: string;
  className?: string;
}) {
  const s = sort?.[name];
  return (
    <th className={`${className ?? ''} sortable`}>
      {s ? (
        <Link href={s.href} className={s.active ? 'active' : undefined} aria-sort={s.active ? 'descending' : undefined}>
          {label}
          {s.active ? ' ↓' : ''}
        </Link>
      ) : (
        label
      )}
    </th>
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
  if (deals) {
    return (
      <div className="table-wrap">
        <table className="list deals" data-testid="conversation-list">
          <thead>
            <tr>
              <th>
                <Term k="service">Deal</Term>
              </th>
              <th>
                <Term k="roles">Buyer</Term>
              </th>
              <th>
                <Term k="roles">Seller</Term>
              </th>
              {/* A sort header is a link already: the term's definition is its tooltip rather than a nested link. */}
              <Head name="rounds" label={<Tip k="round">Rounds</Tip>} sort={sort} className="num" />
              <Head name="price" label={<Tip k="lastPrice">Last price</Tip>} sort={sort} className="num" />
              <Head name="outcome" label={<Tip k="outcome">Outcome</Tip>} sort={sort} />
              <Head
                name="messages"
                label={
                  <span
                    className="tip"
                    title={
                      'Envelopes stored in this conversation, negotiation ' +
                      'and the rest (delivery, notarisation, feedback).'
                    }
                  >
                    Msgs
                  </span>
                }
                sort={sort}
                className="num"
              />
              <Head
                name="last_seen"
                label={
                  <span
                    className="tip"
                    title="When the latest envelope of the conversation was received; hover a time for UTC."
                  >
                    Last activity
                  </span>
                }
                sort={sort}
              />
            </tr>
          </thead>
          <tbody>
            {conversations.map((c) => {
              const d = deals[c.id];
              const others = c.participants.filter((p) => p !== d?.buyer && p !== d?.seller);
              // Deal steps without an ACCEPT have no buyer or seller: said as such, not "unknown".
              const noDeal = c.outcome === 'no_deal';
              return (
                <tr key={c.id} data-conversation={c.id}>
                  <td>
                    <Link
                      href={`/conversations/${c.id}`}
                      title={d?.serviceHash ? `service hash ${d.serviceHash}` : c.id}
                    >
                      {d?.service ??
                        (d?.serviceHash
                          ? `service ${shortHex(d.serviceHash, 6, 0)}`
                          : noDeal
                            ? STAGE_LABELS[c.stage]
                            : 'conversation')}
                    </Link>
                    <div className="mono small muted conv-id-line">
                      {shortHex(c.id, 8, 4)}{' '}
                      <WatchButton
                        kind="conversation"
                        target={c.id}
                        name={d?.service ?? shortHex(c.id, 8, 4)}
                        compact
                      />
                    </div>
                  </td>
                  {noDeal && !d?.buyer && !d?.seller ? (
                    <td colSpan={2} className="small">
                      <span className="muted">no deal: from </span>
                      <Parties ids={c.participants} />
                    </td>
                  ) : (
                    <>
                      <td>
                        {d?.buyer ? (
                          <AgentName id={d.buyer} copy={false} />
                        ) : (
                          <Parties ids={d ? others.slice(0, 1) : c.participants.slice(0, 1)} />
                        )}
                      </td>
                      <td>
                        {d?.seller ? (
                          <AgentName id={d.seller} copy={false} />
                        ) : (
                          <Parties ids={d ? others.slice(1, 2) : c.participants.slice(1, 2)} />
                        )}
                      </td>
                    </>
                  )}
                  <td className="num mono">{d ? count(d.rounds) : '—'}</td>
                  <td className="num mono">{d?.lastPrice ? formatAmount(d.lastPrice, d.token) : '—'}</td>
                  <td>
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
                  </td>
                  <td className="num mono">{count(c.messages)}</td>
                  <td className="small deal-time">
                    <Time ms={c.lastMs} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    );
  }
  return (
    <div className="table-wrap">
      <table className="list" data-testid="conversation-list">
        <thead>
          <tr>
            <th>
              <Term k="conversation">Conversation</Term>
            </th>
            <th>{self ? 'With' : 'Parties'}</th>
            <th>
              <Term k="stage">Stage</Term>
            </th>
            <th className="num">Messages</th>
            <th>Last activity</th>
          </tr>
        </thead>
        <tbody>
          {conversations.map((c) => (
            <tr key={c.id} data-conversation={c.id}>
              <td>
                <Link href={`/conversations/${c.id}`} className="mono" title={c.id}>
                  {shortHex(c.id, 8, 4)}
                </Link>{' '}
                <WatchButton kind="conversation" target={c.id} name={shortHex(c.id, 8, 4)} compact />
              </td>
              <td>
                <Parties ids={withWhom(c, self, parties?.[c.id]?.parties)} />
              </td>
              <td data-stage={c.stage}>{c.state ?? '—'}</td>
              <td className="num mono">{count(c.messages)}</td>
              <td className="small">
                <Time ms={c.lastMs} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
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
          <AgentName id={p} copy={false} />
        </span>
      ))}
    </span>
  );
}

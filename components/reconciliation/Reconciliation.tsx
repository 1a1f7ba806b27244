/**
 * Gossip ↔ chain reconciliation in the pages: the totals card (/stats, /reconciliation), the
 * agent-epoch table (agent page, /reconciliation) and the envelope lists of one agent-epoch.
 * Every number links to the envelopes behind it; a figure that cannot be compared says
 * "unknown" with the reason (lib/wire/reconciliation.ts).
 */
import Link from 'next/link';
import type { ReactNode } from 'react';
import { msgTypeName } from '../../lib/wire/msg-type';
import type {
  ReconciliationDetailView,
  ReconciliationRowView,
  ReconciliationView,
} from '../../lib/wire/reconciliation';
import { base58, count, shortHex } from '../format';
import { AgentName } from '../names/AgentName';
import { Term } from '../Term';
import { type Column, DataTable, Td } from '../table/DataTable';
import { EpochTime, Time } from '../time/Time';

/** Each topic bucket's short label (it fits a phone's width) and its full name on the mesh. */
export const TOPIC_LABELS = {
  broadcast: 'broadcast',
  notary: 'notary',
  reputation: 'reputation',
  stream: 'direct stream',
} as const;
const TOPIC_NAMES = {
  broadcast: 'gossip topic /0x01/v1/broadcast',
  notary: 'gossip topic /0x01/v1/notary',
  reputation: 'gossip topic /0x01/v1/reputation',
  stream: 'direct stream /0x01/v1/envelope',
} as const;
const TOPICS = Object.keys(TOPIC_LABELS) as (keyof typeof TOPIC_LABELS)[];
/** Narrow tables: headers wrap and cells pad less, so every column fits at 390 px. */
const TH = {
  whiteSpace: 'normal',
  overflowWrap: 'normal',
  wordBreak: 'keep-all',
  padding: '6px 6px',
  verticalAlign: 'bottom',
} as const;
const TD = { padding: '6px 6px' } as const;
const Topic = ({ k }: { k: keyof typeof TOPIC_LABELS }) => (
  <Td label="Topic" className="small" style={TD} title={TOPIC_NAMES[k]}>
    {TOPIC_LABELS[k]}
  </Td>
);

/** "83.3 %" or unknown when nothing was seen. */
export function shareText(s: { seen: number; committed: number; share: number | null }): string {
  return s.share === null ? 'unknown' : `${(s.share * 100).toFixed(1)} %`;
}

export const detailHref = (agentHex: string, epoch: string, anchor?: string) =>
  `/reconciliation/${base58(agentHex)}/${epoch}${anchor ? `#${anchor}` : ''}`;

/** The totals over every agent-epoch with a batch verdict, with the per-topic shares. */
export function ReconciliationTotals({ v, compact = false }: { v: ReconciliationView; compact?: boolean }) {
  const t = v.totals;
  if (t.verified + t.mismatch === 0)
    return <p className="muted empty">No batch verdict yet: nothing committed to compare the mesh with.</p>;
  return (
    <>
      <dl className="kv" data-testid="recon-totals">
        <dt>
          <Term k="committedLog">Committed logs</Term>
        </dt>
        <dd>
          <span className="mono">{count(t.verified)}</span>{' '}
          <span className="muted small">
            (one per agent and <Term k="epoch">epoch</Term>; {count(t.mismatch)} more mismatched, not compared)
          </span>
        </dd>
        <dt>Seen live, belonging in them</dt>
        <dd className="mono">
          <Link href="/reconciliation#rows" prefetch={false}>
            {count(t.seen)}
          </Link>
        </dd>
        <dt>
          <Term k="seenNotLogged">Seen, not logged</Term>
        </dt>
        <dd className="mono">
          <Link href="/reconciliation#rows" prefetch={false}>
            {count(t.seenNotLogged)}
          </Link>
        </dd>
        <dt>
          <Term k="loggedNotSeen">Logged, never seen</Term>
        </dt>
        <dd className="mono">
          <Link href="/reconciliation#rows" prefetch={false}>
            {count(t.loggedNotSeen)}
          </Link>{' '}
          <span className="muted small">of {count(t.logEntries)} entries</span>
        </dd>
      </dl>
      <div className="table-wrap">
        <table className="list" data-testid="recon-topics">
          <thead>
            <tr>
              <th style={TH}>
                <Term k="topic">Topic</Term>
              </th>
              <th className="num" style={TH}>
                Seen
              </th>
              <th className="num" style={TH}>
                In a committed log
              </th>
              <th className="num" style={TH}>
                Share
              </th>
            </tr>
          </thead>
          <tbody>
            {TOPICS.map((k) => (
              <tr key={k}>
                <Topic k={k} />
                <td className="num mono" style={TD}>
                  {count(t.topics[k].seen)}
                </td>
                <td className="num mono" style={TD}>
                  {count(t.topics[k].committed)}
                </td>
                <td className="num mono" style={TD}>
                  {t.topics[k].share === null ? (
                    <span className="muted" title="nothing seen on this topic from a sender whose log is committed">
                      unknown
                    </span>
                  ) : (
                    shareText(t.topics[k])
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {compact ? (
        <p className="small" style={{ marginBottom: 0 }}>
          <Link href="/reconciliation" prefetch={false}>
            Every agent-epoch and its envelopes →
          </Link>
        </p>
      ) : null}
    </>
  );
}

/** Agent-epochs, newest first; each figure links to its envelope list. */
/** Sent envelopes seen, and of those in some committed log, over the topics; null when not compared. */
function sentTotals(r: ReconciliationRowView) {
  return r.topics
    ? TOPICS.reduce((s, k) => ({ seen: s.seen + r.topics![k].seen, committed: s.committed + r.topics![k].committed }), {
        seen: 0,
        committed: 0,
      })
    : null;
}

/** A figure of a compared row, linking to the envelopes behind it. */
const figure = (head: ReactNode, label: string, value: (r: ReconciliationRowView) => string, anchor?: string) =>
  ({
    label,
    head,
    priority: true,
    className: 'num mono',
    cell: (r: ReconciliationRowView) => (
      <Link href={detailHref(r.agent, r.epoch, anchor)} prefetch={false}>
        {value(r)}
      </Link>
    ),
  }) satisfies Column<ReconciliationRowView>;

/** The four figures' one cell for a row not compared, saying why. */
const notCompared = (r: ReconciliationRowView) => ({
  cells: 4,
  className: 'muted small',
  label: 'Compared',
  node: (
    <span title={r.unknownReason ?? undefined}>
      unknown:{' '}
      {r.status === 'mismatch'
        ? 'the batch contradicts its log, so nothing is committed'
        : 'no verdict yet, nothing committed'}
    </span>
  ),
});

/** Every column at every width (the figures are narrow; a phone shows each row as a card). */
function reconColumns(showAgent: boolean): Column<ReconciliationRowView>[] {
  const agent: Column<ReconciliationRowView>[] = showAgent
    ? [{ label: 'Agent', priority: true, cell: (r) => <AgentName id={r.agent} /> }]
    : [];
  return [
    ...agent,
    {
      label: 'Epoch',
      head: <Term k="epoch">Epoch</Term>,
      priority: true,
      className: 'num mono',
      cell: (r) => (
        <Link href={detailHref(r.agent, r.epoch)} prefetch={false}>
          <EpochTime epoch={r.epoch} label={false} />
        </Link>
      ),
    },
    {
      label: 'Batch',
      head: <Term k="batch">Batch</Term>,
      priority: true,
      className: 'small',
      cell: (r) =>
        r.status === 'verified' ? (
          <Term k="committedLog">verified</Term>
        ) : r.status === 'mismatch' ? (
          <span title={r.unknownReason ?? undefined} style={{ color: 'var(--warn)' }}>
            mismatch
          </span>
        ) : (
          <span className="muted" title={r.unknownReason ?? undefined}>
            unverified
          </span>
        ),
    },
    {
      ...figure(
        <span title="Envelopes the observer saw live (gossip or stream) that belong in this log">Seen live</span>,
        'Seen live',
        (r) => count(r.seen ?? 0),
      ),
      span: (r) => (sentTotals(r) === null || r.seen === null ? notCompared(r) : null),
    },
    figure(
      <Term k="seenNotLogged">Seen, not logged</Term>,
      'Seen, not logged',
      (r) => count(r.seenNotLogged ?? 0),
      'seen-not-logged',
    ),
    figure(
      <Term k="loggedNotSeen">Logged, never seen</Term>,
      'Logged, never seen',
      (r) => count(r.loggedNotSeen ?? 0),
      'logged-not-seen',
    ),
    figure(
      <span title="Of the envelopes this agent sent that the observer saw, how many are in some committed log">
        Sent: in a log
      </span>,
      'Sent: in a log',
      (r) => {
        const sent = sentTotals(r);
        return sent ? `${count(sent.committed)}/${count(sent.seen)}` : '';
      },
      'topics',
    ),
  ];
}

export function ReconciliationRows({
  rows,
  showAgent,
  empty,
}: {
  rows: ReconciliationRowView[];
  showAgent: boolean;
  empty: string;
}) {
  if (rows.length === 0) return <p className="muted empty">{empty}</p>;
  return (
    <DataTable
      testId="recon-rows"
      rows={rows}
      rowKey={(r) => `${r.agent}:${r.epoch}`}
      rowProps={(r) => ({ 'data-status': r.status })}
      columns={reconColumns(showAgent)}
      fold="never"
    />
  );
}

type Ref = { id: string; msgType: number | null; via: string | null; topic: string | null };

function Envelopes({
  refs,
  total,
  limit,
  empty,
  testid,
}: {
  refs: Ref[];
  total: number;
  limit: number;
  empty: string;
  testid: string;
}) {
  if (total === 0)
    return (
      <p className="muted empty" data-testid={testid}>
        {empty}
      </p>
    );
  return (
    <>
      <ul data-testid={testid} style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 4 }}>
        {refs.map((r) => (
          <li key={r.id}>
            <Link href={`/envelopes/${r.id}`} prefetch={false} className="mono small" title={`envelope ${r.id}`}>
              {shortHex(r.id, 10, 6)}
            </Link>{' '}
            <span className="small">{r.msgType === null ? 'not stored' : msgTypeName(r.msgType)}</span>{' '}
            <span className="muted small">
              {r.via === 'gossip'
                ? r.topic
                : r.via === 'stream'
                  ? 'direct stream'
                  : r.via === 'upload'
                    ? 'upload only'
                    : ''}
            </span>
          </li>
        ))}
      </ul>
      {total > refs.length ? (
        <p className="muted small">
          and {count(total - refs.length)} more (the first {count(limit)} by id are listed)
        </p>
      ) : null}
    </>
  );
}

/** One agent-epoch: its figures with the envelopes behind each. */
export function ReconciliationDetail({ d, epochHref }: { d: ReconciliationDetailView; epochHref: string }) {
  const l = d.live;
  if (!l) {
    return (
      <section className="card">
        <h2>Not compared</h2>
        <p data-testid="recon-unknown">
          Batch: <b>{d.status ?? 'none indexed'}</b>. Every figure is unknown: {d.unknownReason}.{' '}
          {d.logEntries > 0 ? `The uploaded log has ${count(d.logEntries)} entries.` : 'No log was uploaded.'}
        </p>
      </section>
    );
  }
  return (
    <>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Figures</h2>
        <dl className="kv" data-testid="recon-figures">
          <dt>
            <Term k="committedLog">Committed log</Term>
          </dt>
          <dd className="mono">
            {count(d.logEntries)} entries{' '}
            <Link href={`/batches?agent=${base58(d.agent)}`} prefetch={false} className="small">
              (batch verified)
            </Link>
          </dd>
          <dt>Seen live, belonging in it</dt>
          <dd>
            <span className="mono">{count(l.seen)}</span>{' '}
            <span className="muted small">
              ({count(l.seenLogged)} of them logged;{' '}
              <Link href={epochHref} prefetch={false}>
                every envelope from or to the agent in the epoch
              </Link>
              )
            </span>
          </dd>
          <dt>
            <Term k="seenNotLogged">Seen, not logged</Term>
          </dt>
          <dd className="mono">
            <a href="#seen-not-logged">{count(l.seenNotLogged)}</a>
          </dd>
          <dt>
            <Term k="loggedNotSeen">Logged, never seen</Term>
          </dt>
          <dd className="mono">
            <a href="#logged-not-seen">{count(l.loggedNotSeen)}</a>
          </dd>
        </dl>
        {d.stored && (d.stored.seen !== l.seen || d.stored.loggedNotSeen !== l.loggedNotSeen) ? (
          <p className="muted small">
            Read now; at the verdict (
            <Time ms={d.stored.computedAt ? Date.parse(d.stored.computedAt) : null} />) the stored figures were{' '}
            {count(d.stored.seen ?? 0)} seen and {count(d.stored.loggedNotSeen ?? 0)} logged but never seen: envelopes
            stored since then count here.
          </p>
        ) : null}
      </section>
      <div className="grid-2">
        <section className="card" id="seen-not-logged">
          <h2>
            <Term k="seenNotLogged">Seen, not logged</Term> ({count(l.seenNotLogged)})
          </h2>
          <Envelopes
            refs={l.seenNotLoggedIds}
            total={l.seenNotLogged}
            limit={d.listLimit}
            empty="Every envelope seen live that belongs in this log is in it."
            testid="recon-seen-not-logged"
          />
        </section>
        <section className="card" id="logged-not-seen">
          <h2>
            <Term k="loggedNotSeen">Logged, never seen</Term> ({count(l.loggedNotSeen)})
          </h2>
          <Envelopes
            refs={l.loggedNotSeenIds}
            total={l.loggedNotSeen}
            limit={d.listLimit}
            empty="The observer saw every entry of this log on the mesh."
            testid="recon-logged-not-seen"
          />
        </section>
      </div>
      <section className="card" id="topics">
        <h2>
          Sent by this agent, per <Term k="topic">topic</Term>
        </h2>
        <p className="muted small">
          Envelopes this agent sent in the epoch that the observer saw, and how many of them are in some committed log
          of the epoch (its own, a recipient&apos;s or a FEEDBACK target&apos;s).
        </p>
        <div className="table-wrap dt-wrap">
          <table className="list dt" data-testid="recon-detail-topics">
            <thead>
              <tr>
                <th style={TH} data-col="priority">
                  Topic
                </th>
                <th className="num" style={TH} data-col="priority">
                  Seen
                </th>
                <th className="num" style={TH} data-col="priority">
                  In a committed log
                </th>
                <th className="num" style={TH} data-col="priority">
                  Share
                </th>
                <th style={TH}>In no committed log</th>
              </tr>
            </thead>
            <tbody>
              {TOPICS.map((k) => {
                const t = l.topics[k];
                return (
                  <tr key={k}>
                    <Topic k={k} />
                    <Td label="Seen" className="num mono" style={TD}>
                      {count(t.seen)}
                    </Td>
                    <Td label="In a committed log" className="num mono" style={TD}>
                      {count(t.committed)}
                    </Td>
                    <Td label="Share" className="num mono" style={TD}>
                      {t.share === null ? (
                        <span className="muted" title="nothing sent on this topic was seen">
                          unknown
                        </span>
                      ) : (
                        shareText(t)
                      )}
                    </Td>
                    <Td label="In no committed log" style={{ ...TD, whiteSpace: 'normal' }}>
                      {t.notCommittedIds.length === 0 ? (
                        <span className="muted small">none</span>
                      ) : (
                        t.notCommittedIds.map((r) => (
                          <Link
                            key={r.id}
                            href={`/envelopes/${r.id}`}
                            prefetch={false}
                            className="mono small"
                            style={{ marginRight: 8 }}
                          >
                            {shortHex(r.id, 8, 4)}
                          </Link>
                        ))
                      )}
                    </Td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

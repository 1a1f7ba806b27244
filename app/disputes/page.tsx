/**
 * /disputes: the dispute desk. Every DISPUTE envelope, newest first, with who disputed, the
 * conversation, and where reviewers stand; ?status=open|reviewed narrows it and ?before= pages
 * (the query of GET /api/disputes). Nothing here resolves a dispute: the protocol leaves that to people.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { Ident } from '../../components/CopyId';
import { AgentLink } from '../../components/EnvelopeFeed';
import { count, shortHex } from '../../components/format';
import { Term } from '../../components/Term';
import { type Column, DataTable } from '../../components/table/DataTable';
import { Time } from '../../components/time/Time';
import { type DisputeListView, DisputesQuerySchema } from '../../lib/wire/disputes';
import { loadDisputes } from '../_lib/disputes';
import { HttpError } from '../_lib/http';
import { NotRunning } from '../_lib/not-running';
import { getServices } from '../_lib/services';
import '../../components/disputes/disputes.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Dispute desk' };

/** When, who, the conversation, the status and the way in at every width; the opinions fold into the row's details. */
const DISPUTE_COLUMNS: Column<DisputeListView['disputes'][number]>[] = [
  { label: 'Disputed', priority: true, className: 'small', cell: (d) => <Time ms={d.timestampMs} /> },
  { label: 'By', priority: true, cell: (d) => <AgentLink id={d.disputer} copy /> },
  { label: 'To', cell: (d) => <AgentLink id={d.recipient} copy /> },
  {
    label: 'Conversation',
    priority: true,
    className: 'small',
    cell: (d) => (
      <Ident kind="conversation id" value={d.conversationId}>
        <Link href={`/conversations/${d.conversationId}`} prefetch={false} className="mono">
          {shortHex(d.conversationId, 8, 4)}
        </Link>
      </Ident>
    ),
  },
  {
    label: 'Opinions',
    className: 'small',
    cell: (d) =>
      d.opinions.total === 0 ? (
        <span className="muted">none{d.opinions.uncounted ? ` counted (${d.opinions.uncounted} not)` : ''}</span>
      ) : (
        <span title={`${d.opinions.upheld} upheld, ${d.opinions.rejected} rejected, ${d.opinions.unclear} unclear`}>
          <span className="opinion-upheld">{d.opinions.upheld} upheld</span> ·{' '}
          <span className="opinion-rejected">{d.opinions.rejected} rejected</span> ·{' '}
          <span className="opinion-unclear">{d.opinions.unclear} unclear</span>
        </span>
      ),
  },
  {
    label: 'Status',
    priority: true,
    cell: (d) =>
      d.status === 'open' ? (
        <span className="badge t-dispute">open</span>
      ) : (
        <span className="badge t-accept">reviewed</span>
      ),
  },
  {
    label: 'Open',
    head: <span className="visually-hidden">Open</span>,
    priority: true,
    bare: true,
    cell: (d) => (
      <Link href={`/disputes/${d.id}`} prefetch={false} data-testid="open-dispute">
        open
      </Link>
    ),
  },
];

export default async function DisputesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const sp = await searchParams;
  const raw = Object.fromEntries(
    ['status', 'before'].flatMap((k) => (typeof sp[k] === 'string' ? [[k, sp[k] as string]] : [])),
  );
  const parsed = DisputesQuerySchema.safeParse(raw);
  let list: DisputeListView | null = null;
  let problem: string | null = null;
  if (!parsed.success)
    problem =
      `The filter in the address is not one this page knows (` +
      `${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}).`;
  else {
    try {
      list = await loadDisputes(o, parsed.data);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      problem = e.message;
    }
  }
  const status = parsed.success ? parsed.data.status : undefined;
  const filter = (s: 'open' | 'reviewed' | undefined, label: string, n?: number) => (
    <Link
      href={s ? `/disputes?status=${s}` : '/disputes'}
      aria-current={status === s ? 'page' : undefined}
      data-testid={`disputes-filter-${s ?? 'all'}`}
    >
      {label}
      {n === undefined ? '' : ` (${count(n)})`}
    </Link>
  );
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Dispute desk</h1>
          <p className="muted">
            Every <Term k="dispute">dispute</Term> the observer has seen, newest first. The 0x01 protocol logs disputes
            and leaves them to people: open one to read its conversation&apos;s evidence in order, check each piece in
            your browser, and record a signed <Term k="reviewOpinion">opinion</Term>.
          </p>
        </div>
      </header>
      <section className="card">
        <nav className="dispute-filter" aria-label="dispute status">
          {filter(undefined, 'all', list?.counts.total)}
          {filter('open', 'open', list?.counts.open)}
          {filter('reviewed', 'reviewed', list?.counts.reviewed)}
        </nav>
        {list ? (
          <p className="small muted" data-testid="reviewers-named">
            {list.reviewersNamed > 0
              ? `Reviewed means: at least one opinion from the ${list.reviewersNamed}` +
                ` reviewer${list.reviewersNamed === 1 ? '' : 's'} this deployment names. ` +
                `Anyone can sign an opinion; the others are shown but not counted.`
              : 'This deployment names no reviewers (DISPUTE_REVIEWERS): opinions ' +
                'are kept and shown, but none counts, so every dispute stays open.'}
          </p>
        ) : null}
        {problem ? (
          <p className="notice" role="alert">
            {problem}
          </p>
        ) : null}
        {list && list.disputes.length === 0 ? (
          <p className="muted empty">
            {status
              ? `No ${status} dispute.`
              : 'No dispute yet: a DISPUTE envelope appears here as soon as the observer stores one.'}
          </p>
        ) : null}
        {list && list.disputes.length > 0 ? (
          <DataTable
            testId="disputes-list"
            rows={list.disputes}
            rowKey={(d) => d.id}
            rowProps={(d) => ({ 'data-dispute': d.id, 'data-status': d.status })}
            columns={DISPUTE_COLUMNS}
            fold="lg"
          />
        ) : null}
        {list?.next ? (
          <p className="small">
            <Link
              href={`/disputes?${new URLSearchParams({ ...(status ? { status } : {}), before: list.next })}`}
              data-testid="disputes-older"
            >
              Older disputes →
            </Link>
          </p>
        ) : null}
      </section>
    </>
  );
}

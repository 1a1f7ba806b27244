/**
 * /challenges: every challenge against a batch, newest first, with its agent, the challenged
 * epoch's clock range, the challenger's account and each status change's transaction in Solana
 * Explorer. ?status= narrows it (the statuses of GET /api/challenges).
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { AgentName } from '../../components/names/AgentName';
import { AccountLink, TxLink } from '../../components/site';
import { Term } from '../../components/Term';
import { type Column, DataTable } from '../../components/table/DataTable';
import { EpochTime } from '../../components/time/Time';
import type { ChallengeList } from '../../lib/wire';
import { CHALLENGE_STATUSES } from '../../lib/wire/params';
import { NotRunning } from '../_lib/not-running';
import { getServices } from '../_lib/services';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Challenges' };

const STATUS_WORDS: Record<string, string> = {
  pending: 'pending: inside the challenge window',
  upheld: 'upheld: the batch left the entry out; the agent was slashed',
  rejected: 'rejected: the evidence did not show an omission',
  void: 'void',
  expired: 'expired: nobody resolved it in time',
};

/**
 * The challenge, its agent, the batch and the status at every width; the challenger and the
 * transactions fold into the row's details when the card is short of room.
 */
const challengeColumns = (epochSeconds: number): Column<ChallengeList['challenges'][number]>[] => [
  { label: 'Challenge', priority: true, cell: (c) => <AccountLink address={c.address} copy /> },
  { label: 'Against', priority: true, cell: (c) => <AgentName id={c.agent} /> },
  {
    label: 'Batch epoch',
    priority: true,
    className: 'small',
    cell: (c) => (
      <Link href={`/batches/${c.agentAddress}/${c.epoch}`}>
        <EpochTime epoch={c.epoch} epochSeconds={epochSeconds} label={false} />
      </Link>
    ),
  },
  { label: 'Status', priority: true, cell: (c) => STATUS_WORDS[c.status] ?? c.status },
  { label: 'Challenger', priority: true, cell: (c) => <AccountLink address={c.challenger} copy /> },
  {
    label: 'Transactions',
    className: 'small',
    cell: (c) => (
      <span className="dt-list">
        {c.transitions.map((t, i) => (
          <span key={`${t.signature}:${i}`}>
            {t.status} <TxLink signature={t.signature} head={6} copy />
          </span>
        ))}
      </span>
    ),
  },
];

export default async function ChallengesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const sp = await searchParams;
  const status =
    typeof sp.status === 'string' && (CHALLENGE_STATUSES as readonly string[]).includes(sp.status)
      ? sp.status
      : undefined;
  const list = o.chain
    ? await o.chain
        .challengesPage({
          sort: 'opened_slot',
          order: 'desc',
          limit: 200,
          ...(status ? { status: status as (typeof CHALLENGE_STATUSES)[number] } : {}),
        })
        .catch(() => null)
    : null;
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Challenges</h1>
          <p className="muted">
            Each <Term k="challenge">challenge</Term> claims, with evidence from an uploaded log, that an{' '}
            <span>agent&apos;s</span> <Term k="batch">batch</Term> left an entry out. Newest first.
          </p>
        </div>
      </header>
      <section className="card">
        <p className="small muted" style={{ marginTop: 0 }}>
          Status:{' '}
          <Link href="/challenges" style={{ marginRight: 10 }}>
            any
          </Link>
          {CHALLENGE_STATUSES.map((s) => (
            <Link key={s} href={`/challenges?status=${s}`} style={{ marginRight: 10 }}>
              {s}
            </Link>
          ))}
        </p>
        {!o.chain ? (
          <p className="muted empty">This observatory runs no chain: there are no challenges to list.</p>
        ) : !list ? (
          <p className="notice" role="alert">
            The chain index could not be read.
          </p>
        ) : list.challenges.length === 0 ? (
          <p className="muted empty">No challenge{status ? ` with status ${status}` : ''} yet.</p>
        ) : (
          <DataTable
            testId="challenges-list"
            rows={list.challenges}
            rowKey={(c) => c.address}
            rowProps={(c) => ({ 'data-challenge': c.address })}
            columns={challengeColumns(o.config.epochSeconds)}
            fold="lg"
          />
        )}
      </section>
    </>
  );
}

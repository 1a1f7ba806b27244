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
import { EpochTime } from '../../components/time/Time';
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
            Each <Term k="challenge">challenge</Term> claims, with evidence from an uploaded log, that an agent&apos;s{' '}
            <Term k="batch">batch</Term> left an entry out. Newest first.
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
          <div className="table-wrap">
            <table className="list" data-testid="challenges-list">
              <thead>
                <tr>
                  <th>Challenge</th>
                  <th>Against</th>
                  <th>Batch epoch</th>
                  <th>Status</th>
                  <th>Challenger</th>
                  <th>Transactions</th>
                </tr>
              </thead>
              <tbody>
                {list.challenges.map((c) => (
                  <tr key={c.address} data-challenge={c.address}>
                    <td>
                      <AccountLink address={c.address} />
                    </td>
                    <td>
                      <AgentName id={c.agent} copy={false} />
                    </td>
                    <td className="small">
                      <Link href={`/batches/${c.agentAddress}/${c.epoch}`}>
                        <EpochTime epoch={c.epoch} epochSeconds={o.config.epochSeconds} label={false} />
                      </Link>
                    </td>
                    <td>{STATUS_WORDS[c.status] ?? c.status}</td>
                    <td>
                      <AccountLink address={c.challenger} />
                    </td>
                    <td className="small">
                      {c.transitions.map((t, i) => (
                        <span key={`${t.signature}:${i}`} style={{ marginRight: 8 }}>
                          {t.status} <TxLink signature={t.signature} head={6} />
                        </span>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

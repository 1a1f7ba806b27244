/**
 * /disputes/{id}: one DISPUTE and everything a reviewer needs to judge it: the conversation's
 * envelopes in protocol order (PROPOSE … DELIVER, NOTARIZE_ASSIGN, the VERDICT, both sides'
 * FEEDBACK, the DISPUTE), each checkable here with the envelope page's verifier; the Handshake
 * receipt checked with the receipt verifier; the on-chain Haggle settlement when there is one;
 * and the reviewers' signed opinions, re-checked in the browser, with the form to add one.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DisputeReview } from '../../../components/disputes/DisputeReview';
import { EvidenceRow } from '../../../components/disputes/EvidenceRow';
import { OpinionList } from '../../../components/disputes/OpinionList';
import { AgentLink, TypeBadge } from '../../../components/EnvelopeFeed';
import { count, isBroadcast, shortHex, USDC_TOKEN } from '../../../components/format';
import { OnChainNegotiation } from '../../../components/OnChainNegotiation';
import { Term } from '../../../components/Term';
import { Time } from '../../../components/time/Time';
import { ReceiptVerifier } from '../../../components/verify/ReceiptVerifier';
import { FEEDBACK_OUTCOMES } from '../../../lib/protocol/payloads';
import { loadDispute } from '../../_lib/disputes';
import { NotRunning } from '../../_lib/not-running';
import { getServices } from '../../_lib/services';
// The phone layout of the evidence table (stack-narrow: one labelled line per cell) is the owner page's.
import '../../../components/wallet/wallet.css';
import '../../../components/disputes/disputes.css';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Dispute ${shortHex((await params).id, 8, 0)}` };
}

export default async function DisputePage({ params }: { params: Promise<{ id: string }> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const id = (await params).id.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(id)) notFound();
  const d = await loadDispute(o, id);
  if (!d) notFound();
  const c = d.conversation;
  const rpcUrl = o.chain?.rpcUrl ?? null;
  const sati = o.chain?.sati ?? null;
  const { opinions } = d.dispute;
  return (
    <>
      <div className="crumbs">
        <Link href="/">Overview</Link> / <Link href="/disputes">Dispute desk</Link> / dispute
      </div>
      <header className="page-head">
        <div style={{ minWidth: 0 }}>
          <h1 className="mono" style={{ fontSize: 16, overflowWrap: 'anywhere' }} data-testid="dispute-id">
            {id}
          </h1>
          <p className="muted">
            <Term k="dispute">Dispute</Term> by <AgentLink id={d.dispute.disputer} copy /> to{' '}
            <AgentLink id={d.dispute.recipient} copy /> · <Time ms={d.dispute.timestampMs} /> ·{' '}
            {d.dispute.status === 'open' ? (
              <span className="badge t-dispute">open</span>
            ) : (
              <span className="badge t-accept">reviewed</span>
            )}
          </p>
        </div>
      </header>

      <section className="card" style={{ marginBottom: 16 }}>
        <h2>What happened</h2>
        <dl className="kv dispute-summary" data-testid="dispute-summary">
          <dt>Conversation</dt>
          <dd className="mono small">
            {c ? (
              <Link href={`/conversations/${d.dispute.conversationId}`}>{d.dispute.conversationId}</Link>
            ) : (
              <span className="muted">{d.receipt.missing}</span>
            )}
          </dd>
          <dt>Parties</dt>
          <dd>
            {d.parties.length ? (
              d.parties.map((p, i) => (
                <span key={p}>
                  {i > 0 ? ' and ' : ''}
                  <AgentLink id={p} copy />
                </span>
              ))
            ) : (
              <span className="muted">unknown: no negotiation is stored</span>
            )}
          </dd>
          <dt>
            <Term k="notary">Notary</Term>
          </dt>
          <dd>{d.notary ? <AgentLink id={d.notary} copy /> : <span className="muted">none assigned</span>}</dd>
          <dt>
            <Term k="verdict">Verdict</Term>
          </dt>
          <dd data-testid="dispute-verdict">
            {d.verdict ? (
              <>
                <span className={d.verdict.passed ? 'verify-ok-title' : 'verify-bad-title'}>
                  {d.verdict.passed ? 'passed' : 'failed'}
                </span>{' '}
                (score {d.verdict.score}) ·{' '}
                <Link href={`/envelopes/${d.verdict.envelopeId}`} prefetch={false} className="small">
                  the VERDICT
                </Link>
              </>
            ) : (
              <span className="muted">no decodable VERDICT stored</span>
            )}
          </dd>
          <dt>
            <Term k="receipt">Receipt</Term>
          </dt>
          <dd>
            {d.receipt.url ? (
              <a href={d.receipt.url} download data-testid="dispute-receipt">
                download
              </a>
            ) : (
              <span className="muted">not available: {d.receipt.missing}</span>
            )}
          </dd>
          <dt>On chain</dt>
          <dd>
            {d.onChain.length ? (
              `settled through Haggle (${count(d.onChain.length)} ` +
              `negotiation${d.onChain.length === 1 ? '' : 's'}, below)`
            ) : (
              <span className="muted">not mirrored on chain</span>
            )}
          </dd>
          <dt>
            <Term k="reviewOpinion">Opinions</Term>
          </dt>
          <dd>
            {opinions.total === 0 ? (
              <span className="muted">none counted yet</span>
            ) : (
              `${opinions.upheld} upheld · ${opinions.rejected} rejected · ${opinions.unclear} unclear`
            )}
            {opinions.uncounted > 0 ? (
              <span className="small muted" data-testid="dispute-uncounted">
                {' '}
                · {opinions.uncounted} more not counted (reviewers this deployment does not name)
              </span>
            ) : null}
            {d.reviewersNamed === 0 ? (
              <span className="small muted" data-testid="no-reviewers-named">
                {' '}
                · this deployment names no reviewers (DISPUTE_REVIEWERS), so no opinion counts
              </span>
            ) : null}
          </dd>
        </dl>
      </section>

      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Evidence in order</h2>
        <p className="small muted" style={{ marginTop: 0 }}>
          Each envelope as the observer stored it. &ldquo;check here&rdquo; fetches its bytes and checks id, payload
          hash, the sender&apos;s signature against the key the chain names, and its batch inclusion, in this browser.
        </p>
        {!c ? (
          <p className="muted empty">No conversation is stored for this dispute.</p>
        ) : (
          <div className="table-wrap">
            <table className="list stack-narrow" data-testid="dispute-evidence">
              <thead>
                <tr>
                  <th className="num">#</th>
                  <th>Type</th>
                  <th>From</th>
                  <th>To</th>
                  <th>Time</th>
                  <th>Check</th>
                </tr>
              </thead>
              <tbody>
                {c.envelopes.map((e, i) => (
                  <EvidenceRow
                    key={e.id}
                    id={e.id}
                    type={e.type}
                    highlight={e.id === id}
                    rpcUrl={rpcUrl}
                    sati={sati}
                    columns={6}
                  >
                    <td className="num mono">{i + 1}</td>
                    <td>
                      <TypeBadge type={e.type} />
                    </td>
                    <td data-label="From">
                      <AgentLink id={e.sender} />
                    </td>
                    <td data-label="To">
                      {isBroadcast(e.recipient) ? (
                        <span className="muted">broadcast</span>
                      ) : (
                        <AgentLink id={e.recipient} />
                      )}
                    </td>
                    <td className="small" data-label="Time" style={{ whiteSpace: 'nowrap' }}>
                      <Time ms={e.timestampMs} withMs date={false} relative={false} />
                    </td>
                  </EvidenceRow>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {d.onChain.length > 0 ? <OnChainNegotiation negotiations={d.onChain} /> : null}

      <div className="grid-2" style={{ marginBottom: 16 }}>
        <section className="card">
          <h2>Feedback from both sides</h2>
          {!c || c.feedback.length === 0 ? (
            <p className="muted empty">None.</p>
          ) : (
            <ul className="activity" data-testid="dispute-feedback">
              {c.feedback.map((f) => (
                <li key={f.envelopeId}>
                  <AgentLink id={f.from} /> rated <AgentLink id={f.target} />{' '}
                  <span className="mono">{f.score > 0 ? `+${f.score}` : f.score}</span>{' '}
                  <span className="muted small">
                    {FEEDBACK_OUTCOMES[f.outcome] ?? f.outcome} · as {f.role === 1 ? 'notary' : 'participant'}
                    {f.isDispute ? ' · dispute' : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card">
          <h2>
            <Term k="receipt">Receipt</Term>
          </h2>
          {/* A deal mirrored on chain settled in the Haggle program's USDC (as the conversation page
              prices it): the receipt's price too. */}
          {d.receipt.url ? (
            <ReceiptVerifier
              rpcUrl={rpcUrl}
              sati={sati}
              src={d.receipt.url}
              token={d.onChain.length ? USDC_TOKEN : null}
            />
          ) : (
            <p className="muted empty">No receipt: {d.receipt.missing}.</p>
          )}
        </section>
      </div>

      <section className="card" data-testid="dispute-opinions">
        <h2>Reviewers&apos; opinions</h2>
        <p className="small muted" style={{ marginTop: 0 }}>
          Opinions of people, not a ruling: each is signed by the reviewer&apos;s wallet and checked again in your
          browser. One per reviewer; a newer one replaces theirs.
        </p>
        <OpinionList disputeId={id} opinions={d.opinions} />
        <DisputeReview disputeId={id} />
      </section>
    </>
  );
}

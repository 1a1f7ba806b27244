import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { WatchButton } from '../../../components/alerts/WatchButton';
import { AgentLink, TypeBadge } from '../../../components/EnvelopeFeed';
import { count, formatAmount, isBroadcast, shortHex } from '../../../components/format';
import { NegotiationRecorder } from '../../../components/negotiation/NegotiationRecorder';
import { OnChainNegotiation } from '../../../components/OnChainNegotiation';
import { Td } from '../../../components/table/DataTable';
import { Time } from '../../../components/time/Time';
import { fromHex } from '../../../lib/protocol/hex';
import { FEEDBACK_OUTCOMES } from '../../../lib/protocol/payloads';
import { loadConversation } from '../../_lib/data';
import { loadOnChainNegotiations } from '../../_lib/haggle';
import { agentNameResolver } from '../../_lib/names';
import { loadNegotiation } from '../../_lib/negotiation';
import { NotRunning } from '../../_lib/not-running';
import { getServices } from '../../_lib/services';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Conversation ${shortHex((await params).id, 8, 0)}` };
}

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const id = (await params).id.toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(id)) notFound();
  const [c, nego] = await Promise.all([loadConversation(o, id), loadNegotiation(o, fromHex(id))]);
  if (!c || !nego) notFound();
  const price = new Map(c.pricePath.map((p) => [p.envelopeId, p]));
  const [onChain, nameOf] = await Promise.all([loadOnChainNegotiations(o, id, c.pricePath), agentNameResolver(o)]);
  // The token the NEG1 prices are in, as the view determined it (USDC for a deal mirrored on
  // chain); unknown decimals leave prices in raw units rather than in a guessed scale.
  const token = nego.view.token;
  return (
    <>
      <div className="crumbs">
        <Link href="/">Overview</Link> / conversation
      </div>
      <header className="page-head">
        <div>
          <h1 className="mono" style={{ fontSize: 18 }}>
            {c.id}
          </h1>
          <p className="muted">
            <span>{c.state ?? 'unknown state'}</span> · <span>{count(c.messages)} messages</span> ·{' '}
            <Time ms={c.firstMs} relative={false} /> → <Time ms={c.lastMs} /> · between{' '}
            {/* The negotiating parties only: notaries and notary bidders are named apart. */}
            {(nego.view.parties.length ? nego.view.parties : c.participants).map((p, i) => (
              <span key={p}>
                {i > 0 ? ' and ' : ''}
                <AgentLink id={p} copy />
              </span>
            ))}
            {nego.view.notaries.map((p) => (
              <span key={p}>
                {' '}
                · notary <AgentLink id={p} />
              </span>
            ))}
            {nego.view.bidders.length
              ? ` · ${nego.view.bidders.length} other notary bidder${nego.view.bidders.length === 1 ? '' : 's'}`
              : ''}
          </p>
        </div>
        <WatchButton kind="conversation" target={id} name={shortHex(id, 8, 4)} />
      </header>

      {c.outcome === 'no_deal' ? (
        <p className="card small" style={{ marginBottom: 16 }} data-testid="no-deal">
          No ACCEPT was seen: {c.stage === 'feedback_without_deal' ? 'this FEEDBACK rates' : 'these steps follow'} a
          deal that never happened here, so it is not a deal. Feedback without a deal is what the{' '}
          <Link href="/collusion">collusion signals</Link> flag.
        </p>
      ) : null}

      <NegotiationRecorder v={nego.view} receiptMissing={nego.receipt} nameOf={nameOf} />

      {onChain.length > 0 ? <OnChainNegotiation negotiations={onChain} /> : null}

      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Messages in order</h2>
        <div className="table-wrap dt-wrap">
          <table className="list dt" data-testid="conversation-messages">
            <thead>
              <tr>
                <th className="num">#</th>
                <th data-col="priority">Type</th>
                <th data-col="priority">From</th>
                <th data-col="priority">To</th>
                <th>Negotiation</th>
                <th className="num">Nonce</th>
                <th data-col="priority">Time</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {c.envelopes.map((e, i) => {
                const p = price.get(e.id);
                return (
                  <tr key={e.id} id={`envelope-${e.id}`} data-envelope-id={e.id}>
                    <Td label="#" className="num mono">
                      {i + 1}
                    </Td>
                    <Td label="Type">
                      <TypeBadge type={e.type} />
                    </Td>
                    <Td label="From">
                      <AgentLink id={e.sender} copy />
                    </Td>
                    <Td label="To">
                      {isBroadcast(e.recipient) ? (
                        <span className="muted">broadcast</span>
                      ) : (
                        <AgentLink id={e.recipient} copy />
                      )}
                    </Td>
                    <Td label="Negotiation" className="mono">
                      {p
                        ? p.kind === 'neg1'
                          ? `${formatAmount(p.bidValue, token)} · round ${p.round}`
                          : p.kind === 'negc'
                            ? 'sealed reservation (NEGC)'
                            : p.kind === 'negr'
                              ? `reveal ${formatAmount(p.bidValue, token)} (NEGR)`
                              : 'opaque payload'
                        : ''}
                    </Td>
                    <Td label="Nonce" className="num mono">
                      {e.nonce}
                    </Td>
                    <Td label="Time" className="small">
                      <Time ms={e.timestampMs} withMs date={false} relative={false} />
                    </Td>
                    <Td label="Verify">
                      <Link href={`/envelopes/${e.id}`} prefetch={false} className="small">
                        verify
                      </Link>
                      {e.type === 'DISPUTE' ? (
                        <>
                          {' '}
                          ·{' '}
                          <Link href={`/disputes/${e.id}`} prefetch={false} className="small">
                            dispute desk
                          </Link>
                        </>
                      ) : null}
                    </Td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>

      <div className="grid-2">
        <section className="card">
          <h2>Notary bids</h2>
          {c.notaryBids.length === 0 ? (
            <p className="muted empty">None.</p>
          ) : (
            <ul className="activity">
              {c.notaryBids.map((b) => (
                <li key={b.envelopeId}>
                  <AgentLink id={b.bidder} /> {b.bidType === 1 ? 'offers to notarise' : 'requests a notary'}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card">
          <h2>Feedback</h2>
          {c.feedback.length === 0 ? (
            <p className="muted empty">None.</p>
          ) : (
            <ul className="activity">
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
      </div>
    </>
  );
}

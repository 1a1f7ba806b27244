/**
 * /collusion: agents ranked by each signal of possible collusion (lib/store/collusion/collusion.ts), each
 * with what it shows in a sentence, the stake beside it and the evidence one click away. The
 * query string is GET /api/collusion's (`agent`, `limit`, `window`), checked by the same schema.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import {
  ConcentrationTable,
  DeallessTable,
  NotaryReuseTable,
  ReciprocalTable,
  WindowNote,
} from '../../components/collusion/CollusionTables';
import { AgentName } from '../../components/names/AgentName';
import { Term } from '../../components/Term';
import { agentBytes } from '../../lib/wire/agent-id';
import { CollusionQuerySchema, type CollusionView } from '../../lib/wire/collusion';
import { loadCollusion } from '../_lib/collusion';
import { NotRunning } from '../_lib/not-running';
import { flatParams, type SearchParams } from '../_lib/query-string';
import { getServices } from '../_lib/services';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Collusion signals' };

export default async function CollusionPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const raw = flatParams(await searchParams);
  const parsed = CollusionQuerySchema.strict().safeParse(raw);
  let error: string | null = parsed.success
    ? null
    : parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ');
  let v: CollusionView | null = null;
  if (parsed.success) {
    const agent = parsed.data.agent ? agentBytes(parsed.data.agent) : undefined;
    if (agent === null) error = 'agent: must be 64 hex characters or a base58 agent address';
    else v = await loadCollusion(o, { agent, limit: parsed.data.limit, window: parsed.data.window });
  }
  const chain = Boolean(o.chain);
  return (
    <>
      <header className="page-head">
        <div>
          <h1>
            <Term k="collusion">Collusion signals</Term>
          </h1>
          <p className="muted">
            Agents ranked by patterns that colluding agents leave behind. Each is a lead to look into, not proof: honest
            agents can show any of them, so every row links to the envelopes or conversations it was counted from.
            {v?.agent ? (
              <>
                {' '}
                Showing rows about <AgentName id={v.agent} /> only (<Link href="/collusion">all agents</Link>).
              </>
            ) : null}
          </p>
        </div>
      </header>
      {error ? (
        <p className="notice" role="alert">
          Bad query: {error}
        </p>
      ) : null}
      {v ? (
        <>
          <WindowNote v={v} />
          <section className="card" style={{ marginBottom: 16 }} data-testid="signal-reciprocal">
            <h2>
              <Term k="reciprocalFeedback">Reciprocal feedback</Term>
            </h2>
            <p className="small muted">
              Agents that rated each other; the count in brackets is the counterparts with whom both directions were
              rated outside any deal they took part in, which is how a ring of agents praising each other looks (honest
              deals end with both sides rating each other, inside the deal).
            </p>
            <ReciprocalTable v={v} chain={chain} />
          </section>
          <section className="card" style={{ marginBottom: 16 }} data-testid="signal-concentration">
            <h2>
              <Term k="concentration">Counterparty concentration</Term>
            </h2>
            <p className="small muted">
              Agents whose deals go to few counterparties, ranked by <Term k="hhi">HHI</Term>: two agents trading only
              with each other can manufacture deals and ratings.
            </p>
            <ConcentrationTable v={v} chain={chain} />
          </section>
          <section className="card" style={{ marginBottom: 16 }} data-testid="signal-notary">
            <h2>
              <Term k="notaryReuse">Notary reuse</Term>
            </h2>
            <p className="small muted">
              Pairs of negotiators that had the same <Term k="notary">notary</Term> again and again, ranked by how
              often: a notary in on the deal can pass any delivery.
            </p>
            <NotaryReuseTable v={v} chain={chain} />
          </section>
          <section className="card" style={{ marginBottom: 16 }} data-testid="signal-dealless">
            <h2>
              <Term k="deallessRaters">Feedback from agents without deals</Term>
            </h2>
            <p className="small muted">
              Agents rated by agents that never negotiated a deal the observatory has seen: ratings of work the rater
              was not part of, the mark of throwaway identities.
            </p>
            <DeallessTable v={v} chain={chain} />
          </section>
          <p className="muted small">
            The same figures as JSON:{' '}
            <a href={`/api/collusion${v.agent ? `?agent=${v.agent}` : ''}`}>GET /api/collusion</a>. Stake is the USDC an
            agent has locked that an upheld challenge can slash
            {chain ? '' : ' (this observatory runs no chain, so none is known)'}.
          </p>
        </>
      ) : null}
    </>
  );
}

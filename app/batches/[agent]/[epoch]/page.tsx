import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { NotRunning } from '../../../_lib/not-running';
import { getServices } from '../../../_lib/services';
import { BatchVerifier } from '../../../../components/verify/BatchVerifier';
import { AgentLink } from '../../../../components/EnvelopeFeed';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Verify a batch' };

/** Verify one batch in the browser; the RPC URL is the server's configured chain, never the page URL's. */
export default async function BatchPage({ params }: { params: Promise<{ agent: string; epoch: string }> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const p = await params;
  const agent = p.agent.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(agent) || !/^\d{1,19}$/.test(p.epoch)) notFound();
  return (
    <>
      <div className="crumbs">
        <Link href="/">Overview</Link> / <Link href={`/agents/${agent}`}>agent</Link> / verify batch
      </div>
      <header className="page-head">
        <div>
          <h1>Batch of epoch {p.epoch}</h1>
          <p className="muted">
            Agent <AgentLink id={agent} />. Your browser fetches the epoch log the agent uploaded, checks every signature against the identity
            holders it reads from the chain, recomputes the merkle root and compares it with the root the agent committed on chain.
          </p>
        </div>
      </header>
      <section className="card">
        <BatchVerifier agent={agent} epoch={p.epoch} rpcUrl={o.chain?.rpcUrl ?? null} />
      </section>
    </>
  );
}

import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { AgentLink } from '../../../../components/EnvelopeFeed';
import { base58 } from '../../../../components/format';
import { AccountLink, BlockLink, TxLink } from '../../../../components/site';
import { Term } from '../../../../components/Term';
import { EpochTime, SlotTime } from '../../../../components/time/Time';
import { BatchVerifier } from '../../../../components/verify/BatchVerifier';
import { fromHex } from '../../../../lib/protocol/hex';
import { agentHex } from '../../../../lib/wire/agent-id';
import { NotRunning } from '../../../_lib/not-running';
import { getServices } from '../../../_lib/services';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Verify a batch' };

/** Verify one batch in the browser; the RPC URL is the server's configured chain, never the page URL's. */
export default async function BatchPage({ params }: { params: Promise<{ agent: string; epoch: string }> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const p = await params;
  // The agent as base58 (as pages link it) or 64 hex.
  const agent = agentHex(decodeURIComponent(p.agent));
  if (!agent || !/^\d{1,19}$/.test(p.epoch)) notFound();
  const [batch] = o.chain
    ? await o.chain.listBatches({ agent: fromHex(agent), epoch: BigInt(p.epoch), limit: 1 }).catch(() => [])
    : [];
  return (
    <>
      <div className="crumbs">
        <Link href="/">Overview</Link> / <Link href={`/agents/${base58(agent)}`}>agent</Link> / verify batch
      </div>
      <header className="page-head">
        <div>
          <h1>
            Batch of <Term k="epoch">epoch</Term> {p.epoch}
          </h1>
          <p className="muted">
            Agent <AgentLink id={agent} copy />. Your browser fetches the epoch log the agent uploaded, checks every
            signature against the identity holders it reads from the chain, recomputes the merkle root and compares it
            with the root the agent committed on chain.
          </p>
        </div>
      </header>
      <section className="card" style={{ marginBottom: 16 }} data-testid="batch-facts">
        <h2>On chain</h2>
        {batch ? (
          <dl className="kv">
            <dt>Epoch</dt>
            <dd>
              <EpochTime epoch={p.epoch} epochSeconds={o.config.epochSeconds} />
            </dd>
            <dt>Transaction</dt>
            <dd>
              <TxLink signature={batch.signature} head={16} />
            </dd>
            <dt>
              <Term k="slot">Slot</Term>
            </dt>
            <dd>
              <SlotTime blockMs={batch.blockTime ? Date.parse(batch.blockTime) : null}>
                <BlockLink slot={batch.slot} />
              </SlotTime>
            </dd>
            <dt>
              <Term k="batch">Status</Term>
            </dt>
            <dd>
              {batch.status === 'verified'
                ? 'verified: the uploaded log has the committed root and counts'
                : batch.status === 'mismatch'
                  ? 'mismatch: the uploaded log does not match what the agent committed'
                  : 'unverified: no uploaded log of this epoch is stored ' +
                    '(checked again as soon as the agent uploads one)'}
            </dd>
            <dt>Agent identity</dt>
            <dd>
              <AccountLink address={batch.agentAddress} />
            </dd>
          </dl>
        ) : (
          <p className="muted empty">
            {o.chain ? 'No batch of this agent and epoch is indexed yet.' : 'This observatory runs no chain.'}
          </p>
        )}
      </section>
      <section className="card">
        <BatchVerifier agent={agent} epoch={p.epoch} rpcUrl={o.chain?.rpcUrl ?? null} sati={o.chain?.sati ?? null} />
      </section>
    </>
  );
}

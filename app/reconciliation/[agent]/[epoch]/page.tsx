/**
 * /reconciliation/{agent}/{epoch}: one agent-epoch read live, every figure with the envelope
 * ids behind it, each linking to /envelopes/{id} (app/_lib/reconciliation.ts).
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { base58 } from '../../../../components/format';
import { agentDisplayName } from '../../../../components/names/label';
import { ReconciliationDetail } from '../../../../components/reconciliation/Reconciliation';
import { EpochTime } from '../../../../components/time/Time';
import { fromHex } from '../../../../lib/protocol/hex';
import { agentHex } from '../../../../lib/wire/agent-id';
import { NotRunning } from '../../../_lib/not-running';
import { loadReconciliationDetail } from '../../../_lib/reconciliation';
import { getServices } from '../../../_lib/services';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Reconciliation of an agent-epoch' };

export default async function ReconciliationDetailPage({
  params,
}: {
  params: Promise<{ agent: string; epoch: string }>;
}) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const p = await params;
  const id = agentHex(decodeURIComponent(p.agent));
  if (!id || !/^\d{1,19}$/.test(p.epoch) || BigInt(p.epoch) > (1n << 63n) - 1n) notFound();
  const d = await loadReconciliationDetail(o, fromHex(id), BigInt(p.epoch));
  const name = o.chain?.satiProfile(fromHex(id))?.name ?? null;
  return (
    <>
      <div className="crumbs">
        <Link href="/reconciliation">Gossip against chain</Link> / agent-epoch
      </div>
      <header className="page-head">
        <div>
          <h1 style={{ overflowWrap: 'anywhere' }}>
            {agentDisplayName(id, name)}, epoch {d.epoch}
          </h1>
          <p className="muted">
            <EpochTime epoch={d.epoch} epochSeconds={o.config.epochSeconds} /> ·{' '}
            <Link href={`/agents/${base58(id)}`}>agent page</Link> ·{' '}
            <span className="mono small" style={{ overflowWrap: 'anywhere' }}>
              {base58(id)}
            </span>
          </p>
        </div>
      </header>
      <ReconciliationDetail
        d={d}
        epochHref={
          `/envelopes?agent=${base58(id)}&from=${Number(d.epoch) * o.config.epochSeconds * 1000}` +
          `&to=${(Number(d.epoch) + 1) * o.config.epochSeconds * 1000 - 1}`
        }
      />
    </>
  );
}

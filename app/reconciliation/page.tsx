/**
 * /reconciliation: gossip against the chain. The totals over every agent-epoch with a batch
 * verdict, the per-topic shares, and the newest agent-epochs, each linking to its envelopes
 * (app/_lib/reconciliation.ts; docs/app.md "Reconciliation").
 */
import type { Metadata } from 'next';
import { ReconciliationRows, ReconciliationTotals } from '../../components/reconciliation/Reconciliation';
import { Term } from '../../components/Term';
import { NotRunning } from '../_lib/not-running';
import { loadReconciliation } from '../_lib/reconciliation';
import { getServices } from '../_lib/services';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Gossip against chain' };

export default async function ReconciliationPage() {
  const o = getServices();
  if (!o) return <NotRunning />;
  const v = await loadReconciliation(o, { limit: 100 });
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Gossip against chain</h1>
          <p className="muted">
            What the observer saw on the mesh, compared per agent and epoch with the log the agent{' '}
            <Term k="committedLog">committed</Term> to on chain (<Term k="reconciliation">how</Term>). Computed when
            each batch verdict is reached; a mismatched batch is not compared.
          </p>
        </div>
      </header>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Totals</h2>
        <ReconciliationTotals v={v} />
      </section>
      <section className="card" id="rows">
        <h2>Newest agent-epochs</h2>
        <ReconciliationRows rows={v.rows} showAgent empty="No batch verdict yet." />
        {v.rows.length === 100 ? (
          <p className="muted small">The newest 100; GET /api/reconciliation?agent= lists one agent&apos;s.</p>
        ) : null}
      </section>
    </>
  );
}

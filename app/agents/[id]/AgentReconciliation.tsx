/** The agent page's reconciliation section: its agent-epochs as stored at each batch verdict (app/_lib/reconciliation.ts). */
import { loadReconciliation } from '../../_lib/reconciliation';
import type { Services } from '../../_lib/services';
import { ReconciliationRows } from '../../../components/reconciliation/Reconciliation';
import { fromHex } from '../../../lib/protocol/hex';

export async function AgentReconciliation({ o, id }: { o: Services; id: string }) {
  const v = await loadReconciliation(o, { agent: fromHex(id), limit: 10 }).catch(() => null);
  if (!v) return <p className="notice" role="alert">The reconciliation could not be read.</p>;
  return (
    <>
      <p className="muted small" style={{ marginTop: 0 }}>
        Per epoch with a batch, the envelopes the observer saw on the mesh against the log this agent committed to; each number opens the envelopes behind it. Only a verified batch's log is committed: other rows are unknown (hover for why). The newest 10 epochs.
      </p>
      <ReconciliationRows rows={v.rows} showAgent={false} empty={o.chain ? 'No batch of this agent is indexed yet: nothing committed to compare with.' : 'This observatory runs no chain: no batch, nothing committed to compare with.'} />
    </>
  );
}

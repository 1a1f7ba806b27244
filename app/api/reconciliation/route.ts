/**
 * GET /api/reconciliation?agent=&limit=: gossip against committed logs, the totals over every
 * agent-epoch with a batch verdict and the newest agent-epochs (one agent's with `agent`), as
 * stored when each verdict was reached (lib/store/reconciliation/reconciliation.ts).
 */
import { ReconciliationQuerySchema } from '../../../lib/wire/reconciliation';
import { agentParam, handle, json, parseQuery, runtime } from '../../_lib/http';
import { loadReconciliation } from '../../_lib/reconciliation';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const o = runtime();
    const p = parseQuery(req.url, ReconciliationQuerySchema);
    return json(
      await loadReconciliation(o, { agent: p.agent ? agentParam('agent', p.agent) : undefined, limit: p.limit }),
    );
  });
}

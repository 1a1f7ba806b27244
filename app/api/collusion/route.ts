/**
 * GET /api/collusion?agent=&limit=&window=: signals of possible collusion per agent (reciprocal
 * feedback, counterparty concentration, notary reuse, feedback from agents without deals) with
 * the stake of each agent listed, over a bounded window of the newest rows (lib/store/collusion/collusion.ts).
 */
import { CollusionQuerySchema } from '../../../lib/wire/collusion';
import { loadCollusion } from '../../_lib/collusion';
import { agentParam, handle, json, parseQuery, runtime } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const o = runtime();
    const p = parseQuery(req.url, CollusionQuerySchema);
    return json(
      await loadCollusion(o, {
        agent: p.agent ? agentParam('agent', p.agent) : undefined,
        limit: p.limit,
        window: p.window,
      }),
    );
  });
}

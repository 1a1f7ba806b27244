/**
 * GET /api/batches?agent=&epoch=&status=&sort=&limit=&before= (0x01 spec §9): historical
 * BehaviorBatches per agent and epoch as the chain indexer stored them, newest first by epoch or
 * by submission slot, with their verification against the uploaded log (verified / mismatch /
 * unverified); `next` is the cursor of the following page.
 */
import { BatchesQuerySchema as Query } from '../../../lib/wire/params';
import { agentParam, chainRuntime, handle, json, parseQuery } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const p = parseQuery(req.url, Query);
    const chain = chainRuntime();
    const agent = p.agent === undefined ? undefined : agentParam('agent', p.agent);
    return json(await chain.batchesPage({ ...p, agent }));
  });
}

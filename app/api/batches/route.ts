/**
 * GET /api/batches?agent=&epoch=&status=&limit= (0x01 spec §9): historical
 * BehaviorBatches per agent and epoch as the chain indexer stored them, newest epoch first, with
 * their verification against the uploaded log (verified / mismatch / unverified).
 */
import { BatchesQuerySchema as Query } from '../../../lib/wire/params';
import { agentParam, chainRuntime, handle, json, parseQuery } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const p = parseQuery(req.url, Query);
    const chain = chainRuntime();
    const agent = p.agent === undefined ? undefined : agentParam('agent', p.agent, chain.parseAgent);
    const batches = await chain.listBatches({ agent, epoch: p.epoch === undefined ? undefined : BigInt(p.epoch), status: p.status, limit: p.limit });
    return json({ batches });
  });
}

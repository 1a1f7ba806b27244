/**
 * GET /api/batches?agent=&epoch=&status=&limit= (0x01 spec §9): historical
 * BehaviorBatches per agent and epoch as the chain indexer stored them, newest epoch first, with
 * their verification against the uploaded log (verified / mismatch / unverified).
 */
import { z } from 'zod';
import { agentParam, chainRuntime, handle, json, parseQuery, q } from '../../_lib/http';

export const dynamic = 'force-dynamic';

const Query = z.object({
  agent: z.string().trim().min(1, 'must not be empty').optional(),
  epoch: z.string().trim().regex(/^\d{1,19}$/, 'must be a non-negative integer (u64)').optional(),
  status: z.enum(['unverified', 'verified', 'mismatch']).optional(),
  limit: q.int(1, 5000).optional(),
});

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const p = parseQuery(req.url, Query);
    const chain = chainRuntime();
    const agent = p.agent === undefined ? undefined : agentParam('agent', p.agent, chain.parseAgent);
    const batches = await chain.listBatches({ agent, epoch: p.epoch === undefined ? undefined : BigInt(p.epoch), status: p.status, limit: p.limit });
    return json({ batches });
  });
}

/**
 * GET /api/challenges?agent=&status= (0x01 spec §9): challenges of batches with
 * their transitions (pending → upheld / rejected / void / expired), oldest first.
 */
import { z } from 'zod';
import { agentParam, chainRuntime, handle, json, parseQuery } from '../../_lib/http';

export const dynamic = 'force-dynamic';

const Query = z.object({
  agent: z.string().trim().min(1, 'must not be empty').optional(),
  status: z.enum(['pending', 'upheld', 'rejected', 'void', 'expired']).optional(),
});

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const p = parseQuery(req.url, Query);
    const chain = chainRuntime();
    const agent = p.agent === undefined ? undefined : agentParam('agent', p.agent, chain.parseAgent);
    const challenges = await chain.listChallenges({ agent, status: p.status });
    return json({ challenges });
  });
}

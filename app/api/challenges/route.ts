/**
 * GET /api/challenges?agent=&epoch=&status=&sort=&order=&limit=&before= (0x01 spec §9):
 * challenges of batches with their transitions (pending → upheld / rejected / void / expired),
 * oldest opened first unless `order=desc`; `next` is the cursor of the following page.
 */
import { ChallengesQuerySchema as Query } from '../../../lib/wire/params';
import { agentParam, chainRuntime, handle, json, parseQuery } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const p = parseQuery(req.url, Query);
    const chain = chainRuntime();
    const agent = p.agent === undefined ? undefined : agentParam('agent', p.agent);
    return json(await chain.challengesPage({ ...p, agent }));
  });
}

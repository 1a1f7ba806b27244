/**
 * GET /api/agents?online=&stake=&minReliability=&maxReliability=&sort=&limit=&before=: agents
 * with online state, gossip reputation and stake, filtered and sorted (descending), cursor-paged.
 */
import { AgentsQuerySchema } from '../../../lib/wire/params';
import { handle, json, parseQuery, runtime } from '../../_lib/http';
import { loadAgentsPage } from '../../_lib/lists';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => json(await loadAgentsPage(runtime(), parseQuery(req.url, AgentsQuerySchema))));
}

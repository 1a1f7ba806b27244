/** GET /api/conversations?agent=&limit=: latest conversations, optionally of one agent. */
import { z } from 'zod';
import { handle, json, runtime, parseQuery, q } from '../../_lib/http';
import { loadConversations } from '../../_lib/data';

export const dynamic = 'force-dynamic';

const Query = z.object({
  agent: q.hex(32, 'agent id').optional(),
  limit: q.int(1, 500).default(50),
});

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const query = parseQuery(req.url, Query);
    return json({ conversations: await loadConversations(runtime(), query.agent, query.limit) });
  });
}

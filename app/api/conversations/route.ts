/**
 * GET /api/conversations?agent=&state=&outcome=&range=&from=&to=&limit=&before=: conversations,
 * newest activity first, filtered by participant (hex or base58), stage, outcome and a time window (a preset
 * `range` or `from`/`to` in unix ms); `next` is the cursor of the following page.
 */
import { ConversationsQuerySchema as Query } from '../../../lib/wire/params';
import { agentHexParam, HttpError, handle, json, parseQuery, runtime } from '../../_lib/http';
import { loadConversationsPage } from '../../_lib/lists';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const query = parseQuery(req.url, Query);
    if (query.range && (query.from !== undefined || query.to !== undefined))
      throw new HttpError(400, 'query parameter "range": give either range or from/to, not both');
    const agent = query.agent === undefined ? undefined : agentHexParam('agent', query.agent);
    return json(await loadConversationsPage(runtime(), { ...query, agent }));
  });
}

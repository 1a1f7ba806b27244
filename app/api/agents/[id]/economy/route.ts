/**
 * GET /api/agents/{id}/economy: the agent's stake, lease and challenges per epoch from its indexed
 * chain events, ending on its indexed stake and lease accounts (lib/indexer/economy.ts), the
 * series the agent page charts; `known: false` with the reason when this process runs no chain.
 */

import { NoQuerySchema } from '../../../../../lib/wire/params';
import { loadEconomyHistory } from '../../../../_lib/economy-history';
import { agentHexParam, handle, json, parseQuery, runtime } from '../../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    parseQuery(req.url, NoQuerySchema);
    const id = agentHexParam('id', decodeURIComponent((await ctx.params).id));
    return json(await loadEconomyHistory(runtime(), id));
  });
}

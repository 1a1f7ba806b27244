/**
 * GET /api/reputation/{agent} (0x01 spec §9; docs/protocol.md §7): the agent's
 * reputation as the gossip fold keeps it and as the authoritative fold over its verified
 * batches computes it, side by side, with the batches that went into the latter.
 */

import { NoQuerySchema } from '../../../../lib/wire/params';
import { agentParam, chainRuntime, handle, json, parseQuery } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ agent: string }> }): Promise<Response> {
  return handle(async () => {
    parseQuery(req.url, NoQuerySchema);
    const chain = chainRuntime();
    const agent = agentParam('agent', decodeURIComponent((await ctx.params).agent));
    return json(await chain.reputation(agent));
  });
}

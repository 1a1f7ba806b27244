/**
 * GET /api/agents/{id}/batches?limit=&before=&epoch=: one agent's BehaviorBatches, newest epoch
 * first, a page at a time (the agent page's "Show older batches") or just the batch of one epoch
 * (the one the page pins when a link opens it), each with its verdict, the
 * authoritative fold after it, its log against the mesh as stored at the verdict and its
 * challenge count; `next` is the `before` of the following page. An index read of the page's rows
 * whatever the agent's history (app/_lib/agent-page.ts).
 */
import { AgentBatchesQuerySchema } from '../../../../../lib/wire/params';
import { loadAgentBatches } from '../../../../_lib/agent-page';
import { agentHexParam, chainRuntime, handle, json, parseQuery, runtime } from '../../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const q = parseQuery(req.url, AgentBatchesQuerySchema);
    const id = agentHexParam('id', decodeURIComponent((await ctx.params).id));
    chainRuntime();
    return json(await loadAgentBatches(runtime(), id, q));
  });
}

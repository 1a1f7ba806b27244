/**
 * GET /api/agents/{id}: one agent (64 hex or base58), its reputation, latest envelopes, conversations and advertised
 * capabilities.
 */

import { loadAdvertised } from '../../../_lib/advertise';
import { loadAgent, loadConversations, loadEnvelopes } from '../../../_lib/data';
import { agentHexParam, handle, json, runtime } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const id = agentHexParam('id', decodeURIComponent((await ctx.params).id));
    const o = runtime();
    const agent = await loadAgent(o, id);
    if (!agent) return json({ error: `agent ${id} not found` }, 404);
    const [page, conversations, advertised] = await Promise.all([
      loadEnvelopes(o, { agent: id, limit: 50 }),
      loadConversations(o, id),
      loadAdvertised(o, id),
    ]);
    return json({ agent, envelopes: page.envelopes, conversations, advertised });
  });
}

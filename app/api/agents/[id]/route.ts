/** GET /api/agents/{id}: one agent (64 hex), its reputation, latest envelopes and conversations. */
import { z } from 'zod';
import { AgentIdPathSchema } from '../../../../lib/wire/params';
import { HttpError, handle, json, runtime } from '../../../_lib/http';
import { loadAgent, loadConversations, loadEnvelopes } from '../../../_lib/data';

export const dynamic = 'force-dynamic';

const Id = AgentIdPathSchema.shape.id;

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const parsed = Id.safeParse((await ctx.params).id);
    if (!parsed.success) throw new HttpError(400, `path parameter "id": ${z.prettifyError(parsed.error).replace(/^✖ /, '')}`);
    const o = runtime();
    const agent = await loadAgent(o, parsed.data);
    if (!agent) return json({ error: `agent ${parsed.data} not found` }, 404);
    const [page, conversations] = await Promise.all([loadEnvelopes(o, { agent: parsed.data, limit: 50 }), loadConversations(o, parsed.data)]);
    return json({ agent, envelopes: page.envelopes, conversations });
  });
}

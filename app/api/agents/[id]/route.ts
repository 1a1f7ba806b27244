/** GET /api/agents/{id}: one agent (64 hex or base58), its reputation, latest envelopes and conversations. */
import { z } from 'zod';
import { AgentIdPathSchema } from '../../../../lib/wire/params';
import { HttpError, handle, json, runtime } from '../../../_lib/http';
import { loadAgent, loadConversations, loadEnvelopes } from '../../../_lib/data';

export const dynamic = 'force-dynamic';

const Id = AgentIdPathSchema.shape.id;

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const raw = (await ctx.params).id;
    const o = runtime();
    // Base58 (as wallets show the identity mint) is accepted as well as hex.
    const b58 = /^[0-9a-fA-F]{64}$/.test(raw) ? null : o.chain?.parseAgent(raw);
    const parsed = b58 ? { success: true as const, data: Buffer.from(b58).toString('hex') } : Id.safeParse(raw);
    if (!parsed.success) throw new HttpError(400, `path parameter "id": ${z.prettifyError(parsed.error).replace(/^✖ /, '')} or a base58 agent address`);
    const agent = await loadAgent(o, parsed.data);
    if (!agent) return json({ error: `agent ${parsed.data} not found` }, 404);
    const [page, conversations] = await Promise.all([loadEnvelopes(o, { agent: parsed.data, limit: 50 }), loadConversations(o, parsed.data)]);
    return json({ agent, envelopes: page.envelopes, conversations });
  });
}

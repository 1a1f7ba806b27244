/** GET /api/agents/{id}/registration: a demo agent's SATI registration file (the uri it registered with). */
import { agentHexParam, handle, json, runtime } from '../../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const id = agentHexParam('id', decodeURIComponent((await ctx.params).id));
    const file = runtime().registrationFile?.(id) ?? null;
    if (!file)
      return json({ error: `agent ${id} is not a demo agent of this observatory: no registration file here` }, 404);
    return json(file);
  });
}

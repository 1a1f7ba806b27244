/** PUT /api/watchlists/{id}/items `{kind, target}` watches an agent or conversation; DELETE ?kind=&target= stops. */
import { agentParam, json, parseQuery } from '../../../../_lib/http';
import { WatchItemBodySchema, WatchItemQuerySchema } from '../../../../../lib/wire/alerts';
import { alertService, handleAlerts, jsonBody, targetBytes, tokenOf } from '../../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function PUT(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handleAlerts(async () => {
    const id = decodeURIComponent((await ctx.params).id);
    const svc = alertService();
    await svc.authorize(id, tokenOf(req));
    const b = await jsonBody(req, WatchItemBodySchema);
    return json(await svc.putItem(id, tokenOf(req), b.kind, targetBytes(b.kind, b.target, agentParam)));
  });
}

export async function DELETE(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handleAlerts(async () => {
    const id = decodeURIComponent((await ctx.params).id);
    const svc = alertService();
    await svc.authorize(id, tokenOf(req));
    const q = parseQuery(req.url, WatchItemQuerySchema);
    return json(await svc.deleteItem(id, tokenOf(req), q.kind, targetBytes(q.kind, q.target, agentParam)));
  });
}

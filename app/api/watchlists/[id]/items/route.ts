/** PUT /api/watchlists/{id}/items `{kind, target}` watches an agent or conversation; DELETE ?kind=&target= stops. */

import { WatchItemBodySchema, WatchItemQuerySchema } from '../../../../../lib/wire/alerts';
import { jsonBody } from '../../../../_lib/body';
import { agentParam, json, parseQuery } from '../../../../_lib/http';
import { onWatchlist, targetBytes } from '../../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function PUT(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return onWatchlist(req, ctx, async ({ svc, id, token }) => {
    const b = await jsonBody(req, WatchItemBodySchema);
    return json(await svc.putItem(id, token, b.kind, targetBytes(b.kind, b.target, agentParam)));
  });
}

export async function DELETE(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return onWatchlist(req, ctx, async ({ svc, id, token }) => {
    const q = parseQuery(req.url, WatchItemQuerySchema);
    return json(await svc.deleteItem(id, token, q.kind, targetBytes(q.kind, q.target, agentParam)));
  });
}

/**
 * GET /api/watchlists/{id}: the list's wallet, items, rules, webhooks with their status, and caps (header
 * x-watchlist-token).
 */

import { NoQuerySchema } from '../../../../lib/wire/params';
import { json, parseQuery } from '../../../_lib/http';
import { alertService, handleAlerts, tokenOf } from '../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handleAlerts(async () => {
    parseQuery(req.url, NoQuerySchema);
    return json(await alertService().get(decodeURIComponent((await ctx.params).id), tokenOf(req)));
  });
}

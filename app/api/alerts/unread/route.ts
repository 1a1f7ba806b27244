/** GET /api/alerts/unread?watchlist=: the count of unread alerts (header x-watchlist-token). */

import { UnreadQuerySchema } from '../../../../lib/wire/alerts';
import { json, parseQuery } from '../../../_lib/http';
import { alertService, handleAlerts, tokenOf } from '../../watchlists/_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handleAlerts(async () => {
    const q = parseQuery(req.url, UnreadQuerySchema);
    return json(await alertService().unread(q.watchlist, tokenOf(req)));
  });
}

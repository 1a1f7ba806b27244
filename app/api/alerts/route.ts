/**
 * GET /api/alerts?watchlist=&state=&kind=&agent=&limit=&before=: a watchlist's alerts, newest first, and its unread
 * count (header x-watchlist-token).
 */

import { AlertsQuerySchema } from '../../../lib/wire/alerts';
import { agentParam, json, parseQuery } from '../../_lib/http';
import { alertService, handleAlerts, tokenOf } from '../watchlists/_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handleAlerts(async () => {
    const q = parseQuery(req.url, AlertsQuerySchema);
    return json(
      await alertService().listAlerts(q.watchlist, tokenOf(req), {
        state: q.state,
        kind: q.kind,
        limit: q.limit,
        ...(q.agent ? { agent: agentParam('agent', q.agent) } : {}),
        ...(q.before ? { before: BigInt(q.before) } : {}),
      }),
    );
  });
}

/** POST /api/watchlists: a new watchlist for this browser, `{id, token}` (docs/app.md "Alerts and watchlists"). */
import { json } from '../../_lib/http';
import { alertService, handleAlerts } from './_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function POST(): Promise<Response> {
  return handleAlerts(async () => json(await alertService().create(), 201));
}

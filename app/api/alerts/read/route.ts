/** POST /api/alerts/read `{watchlist, ids?: [...] | all: true}`: marks alerts read (header x-watchlist-token). */

import { ReadBodySchema } from '../../../../lib/wire/alerts';
import { jsonBody } from '../../../_lib/body';
import { HttpError, json } from '../../../_lib/http';
import { alertService, handleAlerts, tokenOf } from '../../watchlists/_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  return handleAlerts(async () => {
    const b = await jsonBody(req, ReadBodySchema);
    if ((b.ids === undefined) === (b.all === undefined))
      throw new HttpError(400, 'body: give either "ids" (alert ids) or "all": true');
    return json(await alertService().markRead(b.watchlist, tokenOf(req), b.all ? null : b.ids!.map((i) => BigInt(i))));
  });
}

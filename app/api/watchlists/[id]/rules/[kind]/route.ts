/** PUT /api/watchlists/{id}/rules/{kind} `{enabled, params}`: turns a rule on or off with its parameters. */

import { RuleBodySchema } from '../../../../../../lib/wire/alerts';
import { jsonBody } from '../../../../../_lib/body';
import { json } from '../../../../../_lib/http';
import { onWatchlist } from '../../../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function PUT(req: Request, ctx: { params: Promise<{ id: string; kind: string }> }): Promise<Response> {
  return onWatchlist(req, ctx, async ({ svc, id, token, params }) =>
    json(await svc.putRule(id, token, decodeURIComponent(params.kind), await jsonBody(req, RuleBodySchema))),
  );
}

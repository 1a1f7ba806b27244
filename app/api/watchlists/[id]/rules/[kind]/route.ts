/** PUT /api/watchlists/{id}/rules/{kind} `{enabled, params}`: turns a rule on or off with its parameters. */
import { json } from '../../../../../_lib/http';
import { RuleBodySchema } from '../../../../../../lib/wire/alerts';
import { alertService, handleAlerts, jsonBody, tokenOf } from '../../../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function PUT(req: Request, ctx: { params: Promise<{ id: string; kind: string }> }): Promise<Response> {
  return handleAlerts(async () => {
    const p = await ctx.params;
    const id = decodeURIComponent(p.id);
    const svc = alertService();
    await svc.authorize(id, tokenOf(req));
    const b = await jsonBody(req, RuleBodySchema);
    return json(await svc.putRule(id, tokenOf(req), decodeURIComponent(p.kind), b));
  });
}

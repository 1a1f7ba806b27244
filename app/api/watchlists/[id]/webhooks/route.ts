/** POST /api/watchlists/{id}/webhooks `{url, format, secret?}`: a webhook for the list's alerts (URL checked, docs/app.md). */
import { json } from '../../../../_lib/http';
import { WebhookBodySchema } from '../../../../../lib/wire/alerts';
import { alertService, handleAlerts, jsonBody, tokenOf } from '../../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function POST(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handleAlerts(async () => {
    const id = decodeURIComponent((await ctx.params).id);
    const svc = alertService();
    await svc.authorize(id, tokenOf(req));
    const b = await jsonBody(req, WebhookBodySchema);
    return json(await svc.addWebhook(id, tokenOf(req), b), 201);
  });
}

/**
 * POST /api/watchlists/{id}/webhooks `{url, format, secret?}`: a webhook for the list's alerts (URL checked,
 * docs/app.md).
 */

import { WebhookBodySchema } from '../../../../../lib/wire/alerts';
import { jsonBody } from '../../../../_lib/body';
import { json } from '../../../../_lib/http';
import { onWatchlist } from '../../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function POST(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return onWatchlist(req, ctx, async ({ svc, id, token }) =>
    json(await svc.addWebhook(id, token, await jsonBody(req, WebhookBodySchema)), 201),
  );
}

/** DELETE /api/watchlists/{id}/webhooks/{webhookId}: removes a webhook and its undelivered deliveries. */
import { json } from '../../../../../_lib/http';
import { alertService, handleAlerts, tokenOf } from '../../../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function DELETE(
  req: Request,
  ctx: { params: Promise<{ id: string; webhookId: string }> },
): Promise<Response> {
  return handleAlerts(async () => {
    const p = await ctx.params;
    return json(
      await alertService().deleteWebhook(decodeURIComponent(p.id), tokenOf(req), decodeURIComponent(p.webhookId)),
    );
  });
}

/**
 * POST /api/watchlists/{id}/wallet `{address, message, signature}`: binds the wallet that signed
 * "Zerox1 Observatory watchlist <id> owned by <address> at <ISO time>" (within 10 minutes) and
 * watches the agents it owns.
 */
import { json } from '../../../../_lib/http';
import { WalletBodySchema } from '../../../../../lib/wire/alerts';
import { alertService, handleAlerts, jsonBody, tokenOf } from '../../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function POST(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handleAlerts(async () => {
    const id = decodeURIComponent((await ctx.params).id);
    const svc = alertService();
    await svc.authorize(id, tokenOf(req));
    const b = await jsonBody(req, WalletBodySchema);
    return json(await svc.bindWallet(id, tokenOf(req), b));
  });
}

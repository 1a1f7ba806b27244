/**
 * POST /api/watchlists/{id}/wallet `{address, message, signature}`: binds the wallet that signed
 * "Zerox1 Observatory watchlist <id> owned by <address> at <ISO time>" (within 10 minutes) and
 * watches the agents it owns.
 */

import { WalletBodySchema } from '../../../../../lib/wire/alerts';
import { jsonBody } from '../../../../_lib/body';
import { json } from '../../../../_lib/http';
import { onWatchlist } from '../../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function POST(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return onWatchlist(req, ctx, async ({ svc, id, token }) =>
    json(await svc.bindWallet(id, token, await jsonBody(req, WalletBodySchema))),
  );
}

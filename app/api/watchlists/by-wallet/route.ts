/**
 * POST /api/watchlists/by-wallet `{address, message, signature}`: the list bound to a wallet and a
 * new token for this browser; the message is "Zerox1 Observatory watchlist * owned by <address> at
 * <ISO time>" (or the list's own id in place of *), signed within 10 minutes. A body, not a query
 * string: a signature in a URL lands in logs and histories, and whoever reads it there could use it.
 */

import { WalletBodySchema } from '../../../../lib/wire/alerts';
import { jsonBody } from '../../../_lib/body';
import { json } from '../../../_lib/http';
import { alertService, handleAlerts } from '../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  return handleAlerts(async () => json(await alertService().byWallet(await jsonBody(req, WalletBodySchema))));
}

/**
 * GET /api/watchlists/by-wallet?address=&message=&signature=: the list bound to a wallet and a new
 * token for this browser; the message is "Zerox1 Observatory watchlist * owned by <address> at <ISO time>"
 * (or the list's own id in place of *), signed within 10 minutes.
 */
import { json, parseQuery } from '../../../_lib/http';
import { ByWalletQuerySchema } from '../../../../lib/wire/alerts';
import { alertService, handleAlerts } from '../_lib/alerts-http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handleAlerts(async () => json(await alertService().byWallet(parseQuery(req.url, ByWalletQuerySchema))));
}

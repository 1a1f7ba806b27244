/**
 * GET /api/disputes?status=&limit=&before=: every DISPUTE envelope newest first (keyset pages on
 * envelope timestamp and id), with each one's reviewer opinion counts and the open/reviewed totals.
 */
import { DisputesQuerySchema } from '../../../lib/wire/disputes';
import { loadDisputes } from '../../_lib/disputes';
import { handle, json, parseQuery, runtime } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => json(await loadDisputes(runtime(), parseQuery(req.url, DisputesQuerySchema))));
}

/** GET /api/stats: envelopes stored per msg_type name, drops per reason. */

import { loadStats } from '../../_lib/data';
import { handle, json, runtime } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return handle(async () => json(await loadStats(runtime())));
}

/** GET /api/stats: envelopes stored per msg_type name, drops per reason. */
import { handle, json, runtime } from '../../_lib/http';
import { loadStats } from '../../_lib/data';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return handle(async () => json(await loadStats(runtime())));
}

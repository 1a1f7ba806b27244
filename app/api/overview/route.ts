/** GET /api/overview: the overview page's snapshot (stats, latest envelopes, agents, graph, mesh). */

import { loadOverview } from '../../_lib/data';
import { handle, json, runtime } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return handle(async () => {
    runtime();
    return json(await loadOverview());
  });
}

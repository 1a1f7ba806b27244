/** GET /api/graph: agents (nodes) and conversation pairs (links with message counts). */

import { loadGraph } from '../../_lib/data';
import { handle, json, runtime } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return handle(async () => json(await loadGraph(runtime())));
}

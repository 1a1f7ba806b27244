/**
 * GET /api/mesh/health: mesh health over time (docs/app.md "Mesh health"): one row per
 * topic and interval of one observer (`observer`, default this process's), the observers on record
 * and the spread of their latency medians; `range` 1h (minutes), 24h or 7d (hours); `topic` one
 * topic, `*` the whole node.
 */

import { MeshHealthQuerySchema } from '../../../../lib/wire/mesh-health';
import { handle, json, parseQuery, runtime } from '../../../_lib/http';
import { loadMeshHealth } from '../../../_lib/mesh-health';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const q = parseQuery(req.url, MeshHealthQuerySchema);
    return json(await loadMeshHealth(runtime(), q.range, Date.now(), { topic: q.topic, observer: q.observer }));
  });
}

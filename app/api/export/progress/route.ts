/** GET /api/export/progress?job= : rows written so far by the export started with that `job` id. */
import { z } from 'zod';
import { HttpError, handle, json, parseQuery } from '../../../_lib/http';
import { getProgress } from '../progress-registry';

export const dynamic = 'force-dynamic';

const Query = z.object({ job: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'must be 8..64 letters, digits or dashes') });

export async function GET(req: Request): Promise<Response> {
  return handle(() => {
    const { job } = parseQuery(req.url, Query);
    const p = getProgress(job);
    if (!p) throw new HttpError(404, `no export with job "${job}"`);
    return json(p);
  });
}

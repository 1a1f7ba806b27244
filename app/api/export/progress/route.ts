/** GET /api/export/progress?job= : rows written so far by the export started with that `job` id. */
import { type ExportProgress, ExportProgressQuerySchema } from '../../../../lib/wire';
import { getProgress } from '../../../_lib/export-progress';
import { HttpError, handle, json, parseQuery } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(() => {
    const { job } = parseQuery(req.url, ExportProgressQuerySchema);
    const p: ExportProgress | undefined = getProgress(job);
    if (!p) throw new HttpError(404, `no export with job "${job}"`);
    return json(p);
  });
}

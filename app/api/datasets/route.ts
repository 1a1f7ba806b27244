/**
 * GET /api/datasets : the dataset releases in `<DATA_DIR>/datasets`, newest epoch first, each
 * with its tables' row counts, file paths and sha256 (docs/datasets.md "Releases").
 */
import { NoQuerySchema, type DatasetReleaseList } from '../../../lib/wire';
import { handle, json, parseQuery } from '../../_lib/http';
import { releases } from '../../_lib/datasets';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(() => {
    parseQuery(req.url, NoQuerySchema);
    const body: DatasetReleaseList = { releases: releases() };
    return json(body);
  });
}

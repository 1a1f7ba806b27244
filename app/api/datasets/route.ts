/**
 * GET /api/datasets : the dataset releases in `<DATA_DIR>/datasets`, newest epoch first, each
 * with its tables' row counts, file paths and sha256: each epoch's latest revision with the older
 * ones it superseded, and the key the manifests are signed with (docs/datasets.md "Releases").
 */
import { type DatasetReleaseList, NoQuerySchema } from '../../../lib/wire';
import { releases, signingKey } from '../../_lib/datasets';
import { handle, json, parseQuery } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(() => {
    parseQuery(req.url, NoQuerySchema);
    const body: DatasetReleaseList = { releases: releases(), signingKey: signingKey() };
    return json(body);
  });
}

/**
 * GET /api/datasets : the dataset releases in `<DATA_DIR>/datasets`, newest epoch first, each
 * with its tables' row counts, file paths and sha256 (docs/datasets.md "Releases").
 */
import { join } from 'node:path';
import { z } from 'zod';
import { handle, json, parseQuery } from '../../_lib/http';
import { listReleases } from '../../../lib/export/release';
import { dataDir } from '../export/source';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(() => {
    parseQuery(req.url, z.object({}));
    return json({ releases: listReleases(join(dataDir(), 'datasets')) });
  });
}

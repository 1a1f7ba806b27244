/**
 * GET /api/stats/series?metric=&range=  One metric of the economy over time (lib/wire/stats.ts
 * STATS_METRICS), every interval of the range ending now, from the rollups ingest keeps.
 */
import { StatsSeriesQuerySchema as Query } from '../../../../lib/wire/stats';
import { handle, json, parseQuery, runtime } from '../../../_lib/http';
import { loadStatsSeries } from '../../../_lib/stats';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const { metric, range } = parseQuery(req.url, Query);
    return json(await loadStatsSeries(runtime(), metric, range));
  });
}

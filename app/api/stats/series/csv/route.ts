/**
 * GET /api/stats/series/csv?metric=&range=  The same series as /api/stats/series as a CSV
 * download: one row per interval (its start in UTC and length), one column per series; an empty
 * cell is an unknown rate.
 */
import { StatsSeriesQuerySchema as Query, statsSeriesCsv } from '../../../../../lib/wire/stats';
import { handle, parseQuery, runtime } from '../../../../_lib/http';
import { loadStatsSeries } from '../../../../_lib/stats';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const { metric, range } = parseQuery(req.url, Query);
    const s = await loadStatsSeries(runtime(), metric, range);
    return new Response(statsSeriesCsv(s), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="zerox1-stats-${metric}-${range}.csv"`,
        'cache-control': 'no-store',
      },
    });
  });
}

/** GET /api/health: database, mesh peers and counts (HealthReport). 503 when not ok. */
import { handle, json, runtime } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return handle(async () => {
    const report = await runtime().observatory.health();
    return json(report, report.ok ? 200 : 503);
  });
}

/** GET /api/health: database, mesh peers, counts and the chain (rpcUrl, slot) (HealthReport). 503 when not ok. */
import { handle, json, runtime } from '../../_lib/http';
import { loadHealth } from '../../_lib/data';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return handle(async () => {
    const report = await loadHealth(runtime());
    return json(report, report.ok ? 200 : 503);
  });
}

/**
 * GET /api/health: database, mesh peers, counts and the chain (rpcUrl, slot) (HealthReport), and
 * the dataset releases (`datasets`: the last release, the last failure, failures and the epochs
 * being retried), the HTTP server's limits with what they refused (`limits`) and the process's
 * memory (`memory`, with the embedded chain thread's heap), and which run-once roles this process
 * leads (`leaders`: the others it stands by for). 503 when not
 * ok; a failing release is reported, not a reason for 503.
 */

import { loadHealth } from '../../_lib/data';
import { handle, json, runtime } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return handle(async () => {
    const o = runtime();
    const report = await loadHealth(o);
    const datasets = o.datasets?.releaseStatus?.();
    const limits = o.limits?.();
    const memory = await o.memory?.();
    const leaders = o.leaders?.();
    return json(
      {
        ...report,
        ...(datasets ? { datasets } : {}),
        ...(limits ? { limits } : {}),
        ...(memory ? { memory } : {}),
        ...(leaders ? { leaders } : {}),
      },
      report.ok ? 200 : 503,
    );
  });
}

/**
 * Mesh health over a range (the /mesh page and GET /api/mesh/health): minute rows for the last
 * hour, hour rows for a day or a week (lib/store/mesh-health.ts keeps two days of minutes and
 * 35 days of hours). An interval appears once it has ended and been written.
 */
import 'server-only';
import type { MeshHealthRes } from '../../lib/store/mesh-health';
import type { MeshHealthView, MeshRange } from '../../lib/wire/mesh-health';
import type { Services } from './services';

export { MESH_RANGES, type MeshRange } from '../../lib/wire/mesh-health';

const SPEC: Record<MeshRange, { res: MeshHealthRes; seconds: number }> = {
  '1h': { res: 60, seconds: 3600 },
  '24h': { res: 3600, seconds: 86_400 },
  '7d': { res: 3600, seconds: 7 * 86_400 },
};


export async function loadMeshHealth(o: Services, range: MeshRange, nowMs: number, topic?: string): Promise<MeshHealthView> {
  const { res, seconds } = SPEC[range];
  const to = Math.floor(nowMs / 1000 / res) * res + res;
  const from = to - seconds;
  const rows = await o.reads.readMeshHealth({ res, from, to, ...(topic !== undefined ? { topic } : {}) });
  const observers = [...new Set(rows.map((r) => r.observer))].sort();
  return { range, res, from, to, observers, self: o.observatory.mesh.peerId, rows };
}

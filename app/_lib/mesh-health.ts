/**
 * Mesh health over a range (the /mesh page and GET /api/mesh/health): minute rows for the last
 * hour, hour rows for a day or a week (lib/store/mesh-health/mesh-health.ts keeps two days of minutes and
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

/** One observer's rows (default this process's) with the observers on record and their latency spread. */
export async function loadMeshHealth(
  o: Services,
  range: MeshRange,
  nowMs: number,
  p: { topic?: string; observer?: string } = {},
): Promise<MeshHealthView> {
  const { res, seconds } = SPEC[range];
  const to = Math.floor(nowMs / 1000 / res) * res + res;
  const from = to - seconds;
  const self = o.observatory.mesh.peerId;
  const observer = p.observer ?? self;
  const [rows, { observers, spread }] = await Promise.all([
    o.reads.readMeshHealth({ res, from, to, observer, ...(p.topic !== undefined ? { topic: p.topic } : {}) }),
    o.reads.meshHealthObservers({ res, from, to }),
  ]);
  return { range, res, from, to, self, observer, observers, rows, spread };
}

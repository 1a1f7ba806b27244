/**
 * lib/store/mesh-health: mesh health per observer, topic and interval (lib/store/mesh-health/README.md).
 * MeshHealthPort: written by the observer per interval, read by the mesh page, pruned by age.
 */
import 'server-only';
import type { PortContext } from '../engine/port';
import {
  type MeshHealthRange,
  type MeshHealthRes,
  type MeshHealthRow,
  meshHealthObservers,
  pruneMeshHealth,
  readMeshHealth,
  writeMeshHealth,
} from './mesh-health';

export {
  MESH_HEALTH_RETENTION,
  type MeshHealthRange,
  type MeshHealthRes,
  type MeshHealthRow,
  type MeshHealthSpread,
  NODE_TOPIC,
} from './mesh-health';

/** Mesh health rows (mesh-health.ts): written by the observer per interval, read by the mesh page. */
export interface MeshHealthPort {
  writeMeshHealth(rows: readonly MeshHealthRow[]): Promise<void>;
  readMeshHealth(p: MeshHealthRange & { topic?: string; observer?: string }): Promise<MeshHealthRow[]>;
  meshHealthObservers(p: MeshHealthRange): ReturnType<typeof meshHealthObservers>;
  pruneMeshHealth(res: MeshHealthRes, before: number): Promise<number>;
}

export function meshHealthPort({ db, live }: PortContext): MeshHealthPort {
  return {
    writeMeshHealth: (rows) => live(() => writeMeshHealth(db, rows)),
    readMeshHealth: (p) => live(() => readMeshHealth(db, p)),
    meshHealthObservers: (p) => live(() => meshHealthObservers(db, p)),
    pruneMeshHealth: (res, before) => live(() => pruneMeshHealth(db, res, before)),
  };
}

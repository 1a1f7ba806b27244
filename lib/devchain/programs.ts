/**
 * Finds the project's compiled programs (programs/README.md: ids in programs/ids.json,
 * binaries in programs/bin/<name>.so). Missing files are skipped: the build may not have run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SATI_MAINNET } from '../chain/sati';
import { isAddress } from './wire';

/** A program to load: its address and the path of its SBF shared object. */
export interface ProgramSpec {
  id: string;
  path: string;
  name?: string;
}

/**
 * Programs listed in `<programsDir>/ids.json` whose `bin/<name>.so` exists, plus the SATI
 * stand-in `bin/sati_registry.so` at `satiProgram` (SATI's id by default; null leaves it out): it
 * answers SATI's instructions so the embedded chain registers agents offline, and is never
 * deployed on a cluster, where the real SATI lives at that id.
 */
export function findProgramBinaries(programsDir: string, opts: { satiProgram?: string | null } = {}): ProgramSpec[] {
  const idsPath = join(programsDir, 'ids.json');
  if (!existsSync(idsPath)) return [];
  let ids: unknown;
  try {
    ids = JSON.parse(readFileSync(idsPath, 'utf8'));
  } catch {
    return [];
  }
  if (!ids || typeof ids !== 'object') return [];
  const out: ProgramSpec[] = [];
  for (const [name, id] of Object.entries(ids as Record<string, unknown>)) {
    if (!isAddress(id)) continue;
    const candidates = [name, name.replace(/_/g, '-'), name.replace(/-/g, '_')].map((n) =>
      join(programsDir, 'bin', `${n}.so`),
    );
    const path = candidates.find((p) => existsSync(p));
    if (path) out.push({ id, path, name });
  }
  const sati = opts.satiProgram === undefined ? SATI_MAINNET.program.toBase58() : opts.satiProgram;
  const satiPath = join(programsDir, 'bin', 'sati_registry.so');
  if (sati !== null && isAddress(sati) && existsSync(satiPath) && !out.some((p) => p.id === sati))
    out.push({ id: sati, path: satiPath, name: 'sati_registry' });
  return out;
}

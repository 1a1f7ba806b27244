/** The releases in a folder as GET /api/datasets lists them: each epoch's latest revision and the older ones. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifestFiles, type ReleaseManifest } from './release-manifest';
import { fileSha256, signatureName } from './signing';

/** One release file set as GET /api/datasets lists it. */
export interface ReleaseRevisionSummary {
  revision: number;
  /** The release id: sha256 of the manifest file. */
  id: string;
  supersedes: string | null;
  createdAt: string;
  asOf: string | null;
  final: boolean;
  moving: { pendingChallenges: number; openNegotiations: number };
  /** Paths relative to the release folder; GET /api/datasets/{path} serves them. */
  manifest: string;
  /** The detached signature (signing.ts), when the release is signed. */
  signature: string | null;
  /**
   * The dataset card's files (card.ts): README.md, datapackage.json, CITATION.cff; null before manifest version 3's
   * card.
   */
  card: { readme: string; datapackage: string; citation: string } | null;
  /** The context file (the epoch's negotiations' envelopes dated outside it): verifying needs it. */
  context: { rows: number; sha256: string; file: string } | null;
  /**
   * Every file of this revision a verifier needs, relative paths: manifest, signature, card,
   * tables and context. Downloading these and running verify-dataset checks the revision alone.
   */
  files: string[];
  tables: Record<string, { rows: number; sha256: string; file: string; setAside?: number }>;
}

/** Summary of an epoch's releases for GET /api/datasets: its latest revision, the older ones kept below it. */
export interface ReleaseSummary extends ReleaseRevisionSummary {
  epoch: number;
  from: string;
  to: string;
  batches: number;
  /** Every older revision of the epoch, newest first (superseded, still served). */
  older: ReleaseRevisionSummary[];
}

function revisionSummary(dir: string, name: string, m: ReleaseManifest): ReleaseRevisionSummary {
  const sig = signatureName(name);
  const signature = existsSync(join(dir, sig)) ? sig : null;
  const card = m.card
    ? { readme: m.card.readme.file, datapackage: m.card.datapackage.file, citation: m.card.citation }
    : null;
  const context = m.context ? { rows: m.context.rows, sha256: m.context.sha256, file: m.context.file } : null;
  return {
    revision: m.revision ?? 0,
    id: fileSha256(join(dir, name)),
    supersedes: m.supersedes ?? null,
    createdAt: m.createdAt,
    asOf: m.asOf ?? null,
    final: m.final ?? true,
    moving: {
      pendingChallenges: m.moving?.pendingChallenges.length ?? 0,
      openNegotiations: m.moving?.openNegotiations.length ?? 0,
    },
    manifest: name,
    signature,
    card,
    context,
    files: [
      name,
      ...(signature ? [signature] : []),
      ...(card ? [card.readme, card.datapackage, card.citation] : []),
      ...Object.values(m.tables).map((t) => t.file),
      ...(context ? [context.file] : []),
    ],
    tables: Object.fromEntries(
      Object.entries(m.tables).map(([k, v]) => [
        k,
        { rows: v.rows, sha256: v.sha256, file: v.file, ...(v.setAside ? { setAside: v.setAside } : {}) },
      ]),
    ),
  };
}

/** Releases in `dir`, newest epoch first: each epoch's latest revision, with the older ones it superseded. */
export function listReleases(dir: string): ReleaseSummary[] {
  const out: ReleaseSummary[] = [];
  for (const [epoch, names] of manifestFiles(dir)) {
    const revs = names.map((n) => ({ n, m: JSON.parse(readFileSync(join(dir, n), 'utf8')) as ReleaseManifest }));
    const last = revs[revs.length - 1];
    out.push({
      ...revisionSummary(dir, last.n, last.m),
      epoch,
      from: last.m.from,
      to: last.m.to,
      batches: last.m.batches.length,
      older: revs
        .slice(0, -1)
        .reverse()
        .map((r) => revisionSummary(dir, r.n, r.m)),
    });
  }
  return out.sort((a, b) => b.epoch - a.epoch);
}

/**
 * A release's manifest and file names (docs/datasets.md "Releases"): the manifest's shape and
 * version, the anchor it is posted with, where each file of a revision goes, and how manifests
 * are found in a release folder.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { KnownMissing, SignerEvidence } from './chain-evidence';
import type { RevisionChanges } from './release-changes';
import type { ReleaseTableName } from './schema';

/**
 * 2: each table carries `setAside`. 3: `asOfUs` (the instant the derived tables describe) and
 * `context` (the out-of-epoch envelopes of the epoch's negotiations), so the derived tables can
 * be re-derived from the release's own envelopes; `revision`, `supersedes` and `moving` (final
 * states: later revisions of an epoch once its moving parts settle). 4: `signers` carries each
 * sender's evidence (chain-evidence.ts: the SATI owner and DelegateV1 attestations with their
 * windows and account bytes), `knownMissing` names the epoch's on-chain accounts the release does
 * not hold, and `supersedes` is a stated id: a revision verifies without the older ones' files.
 * 5: `changes` (what a revision changed and why, release-changes.ts); rows in a declared order
 * (verify-order.ts); each release anchored on chain (release-anchor.ts in lib/chain).
 */
export const MANIFEST_VERSION = 5;

export interface ReleaseManifest {
  manifestVersion: number;
  epoch: number;
  epochSeconds: number;
  /** 0 for an epoch's first release; each revision of the epoch counts up. */
  revision: number;
  /** The release id (manifest sha256) of the revision this one replaces; null for revision 0. */
  supersedes: string | null;
  /** [from, to) of the epoch, ISO-8601 UTC. */
  from: string;
  to: string;
  createdAt: string;
  /**
   * The instant the derived tables describe, unix µs in decimal: a negotiation with a deadline
   * before it is `expired`, after it `open` (negotiation.ts). Re-deriving needs it.
   */
  asOfUs: string;
  /** `asOfUs` as ISO-8601 UTC. */
  asOf: string;
  /**
   * What was still moving at `asOf`: challenges of the epoch not yet resolved (addresses) and
   * negotiations still open (conversation ids, hex). Empty lists: the epoch has settled, and
   * `final` is true (also when the scheduler's settle time passed with parts still moving).
   */
  moving: { pendingChallenges: string[]; openNegotiations: string[] };
  final: boolean;
  /**
   * Envelopes of the epoch's negotiations dated outside the epoch (a negotiation that crosses an
   * epoch boundary), in the envelopes table's columns: with the epoch's own envelopes they are
   * every message the offers and negotiations rows were computed from.
   */
  context: { rows: number; file: string; sha256: string };
  /**
   * The dataset card (card.ts): README.md and the Frictionless datapackage.json, hashed here so
   * the signature covers them; `citation` names the CITATION.cff written after the manifest (it
   * holds the release id, the manifest's own sha256).
   */
  card?: { readme: { file: string; sha256: string }; datapackage: { file: string; sha256: string }; citation: string };
  /**
   * `rows` are the rows in the file; `setAside` the epoch's rows left out because a value does not
   * fit its Parquet column (writers.ts parquetMisfit), `setAsideReasons` the first few reasons.
   */
  tables: Record<
    ReleaseTableName,
    { schemaVersion: number; rows: number; setAside: number; setAsideReasons?: string[]; file: string; sha256: string }
  >;
  batches: { agent: string; root: string; batchHash: string; slot: string; status: string; log: string[] }[];
  /**
   * Sender agent id (hex) → who may sign for it (chain-evidence.ts SignerEvidence; before version
   * 4 a plain list of the keys valid when the release was written).
   */
  signers: Record<string, SignerEvidence | string[]>;
  /**
   * The epoch's on-chain accounts (BehaviorLog batches, challenges, open Haggle negotiations)
   * the release does not hold, each with why; null when the release was written without the chain.
   */
  knownMissing?: KnownMissing[] | null;
  /**
   * The slot the chain's accounts were listed at (null without the chain): an account submitted
   * later (a challenge opened after the release) is one a later revision holds, not an omission.
   */
  chainSlot?: string | null;
  /**
   * What this revision changed against the one it supersedes (release-changes.ts): why it was
   * written and, per table, rows added, removed and changed; null for revision 0.
   */
  changes?: RevisionChanges | null;
}

/** What an anchor states (lib/chain/release-anchor.ts): the release id of an epoch's revision and its asOf. */
export interface AnchorStatement {
  epoch: number;
  revision: number;
  id: string;
  asOfUs: string;
}
/** Posts an anchor on chain (lib/chain/node/release-anchor.ts bound to the signing key); returns its transaction. */
export type ReleaseAnchorer = (a: AnchorStatement) => Promise<{ signature: string; slot: string }>;

/** `<manifest base>.anchor.json`: the anchor transaction of a release, written once it is confirmed. */
export const anchorName = (manifestFile: string) => manifestFile.replace(/\.manifest\.json$/, '.anchor.json');

/**
 * File names of revision `revision` of `epoch`'s release, relative to the release folder. Folders
 * are `epoch-<n>`, never `key=value`: DuckDB and Arrow read `epoch=<n>` folders as a hive partition
 * and would add (or override) an `epoch` column. Revision 0 of a table sits in the table's own
 * folder and later revisions under `revisions/`, the context file under `context/`, so a glob over
 * every `.parquet` under `<table>/` reads each row once; `latest` is where the newest revision's copy goes.
 */
export function releaseNames(epoch: number, revision = 0) {
  const r = revision ? `.r${revision}` : '';
  return {
    manifest: `epoch=${epoch}${r}.manifest.json`,
    readme: `epoch=${epoch}${r}.README.md`,
    datapackage: `epoch=${epoch}${r}.datapackage.json`,
    citation: `epoch=${epoch}${r}.CITATION.cff`,
    table: (t: string) =>
      revision
        ? join('revisions', t, `epoch-${epoch}`, `${t}-epoch${epoch}${r}.parquet`)
        : join(t, `epoch-${epoch}`, `${t}-epoch${epoch}.parquet`),
    context: join('context', `epoch-${epoch}`, `context-epoch${epoch}${r}.parquet`),
    latest: (t: string) => join('latest', t, `${t}-epoch${epoch}.parquet`),
  };
}

/** A manifest file name's epoch and revision, or null when it is not one. */
export function parseManifestName(name: string): { epoch: number; revision: number } | null {
  const m = /^epoch=(0|[1-9]\d{0,9})(?:\.r([1-9]\d{0,3}))?\.manifest\.json$/.exec(name);
  return m ? { epoch: Number(m[1]), revision: m[2] ? Number(m[2]) : 0 } : null;
}

/** The manifests in `dir` by epoch, each epoch's revisions in order (oldest first). */
export function manifestFiles(dir: string): Map<number, string[]> {
  const out = new Map<number, { revision: number; name: string }[]>();
  if (!existsSync(dir)) return new Map();
  for (const name of readdirSync(dir)) {
    const m = parseManifestName(name);
    if (!m) continue;
    out.set(m.epoch, [...(out.get(m.epoch) ?? []), { revision: m.revision, name }]);
  }
  return new Map([...out].map(([e, l]) => [e, l.sort((a, b) => a.revision - b.revision).map((x) => x.name)]));
}

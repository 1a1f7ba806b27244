/** What the checks of one release share (verify.ts runs them, verify-batches.ts holds the batch steps). */
import type { Envelope } from '../protocol/types';
import type { ReleaseChain, SignerEvidence } from './chain-evidence';
import type { CellDifference } from './rederive';
import type { ReleaseManifest } from './release-manifest';
import type { EnvelopeRecord } from './rows';
import type { ReleaseTableName as TableName } from './schema';
import type { CheckResult } from './verify-chain';

export { idText } from './verify-chain';

export interface VerifyOptions {
  /** The chain (verify-dataset --rpc, lib/chain/release-evidence.ts); without it the chain is not consulted. */
  chain?: ReleaseChain;
  /** The manifest's file name in `dir`: its signature (`<name>.sig.json`) and what it supersedes are checked. */
  manifestFile?: string;
  /** The observer's public key (hex) the manifest must be signed with (verify-dataset --key). */
  trustedKey?: string;
}

/** Differences reported one by one per table; the rest are counted. */
const MAX_REPORTED = 25;

/** Everything a release's checks share: the folder, its manifest, the options, and what earlier steps read. */
export interface Run {
  dir: string;
  m: ReleaseManifest;
  o: VerifyOptions;
  tag: string;
  out: CheckResult[];
  files: Partial<Record<TableName | 'context', Record<string, unknown>[]>>;
  fromUs: bigint;
  toUs: bigint;
  /** The release's envelopes (and context) by id, decoded. */
  byId: Map<string, Envelope>;
  records: EnvelopeRecord[];
  /** With the chain: who may sign for each sender, read from it. */
  chainSigners: Map<string, SignerEvidence>;
}

export type ChainBatches = Map<string, Awaited<ReturnType<NonNullable<VerifyOptions['chain']>['batchRoot']>>>;

/** Failures for cell differences of `table`, each naming row and column. */
export function differenceChecks(
  tag: string,
  table: string,
  d: readonly CellDifference[],
  passName: string,
): CheckResult[] {
  if (d.length === 0) return [{ name: `${tag} ${table}: ${passName}`, ok: true }];
  const out: CheckResult[] = d.slice(0, MAX_REPORTED).map((x) => ({
    name: `${tag} ${table} row ${x.index ?? '(none)'} (${x.key.slice(0, 32)}) column ${x.column}`,
    ok: false,
    detail:
      x.column === '(row)'
        ? `row ${x.file} in the file, ${x.expected} in what the envelopes derive`
        : `file ${x.file ?? 'null'}, derived from the envelopes ${x.expected ?? 'null'}`,
  }));
  if (d.length > MAX_REPORTED)
    out.push({
      name: `${tag} ${table}: further differences`,
      ok: false,
      detail: `${d.length - MAX_REPORTED} more cell(s) differ`,
    });
  return out;
}

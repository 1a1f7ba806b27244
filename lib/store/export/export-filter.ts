import { epochOfFn } from '../envelopes/ingest';

/**
 * Row filter of the datasets export, shared by export.ts and export-copy.ts (docs/datasets.md "API"); times are unix
 * microseconds, [fromUs, toUs).
 */
export interface ExportFilter {
  fromUs?: bigint;
  toUs?: bigint;
  /**
   * 32-byte agent id: sender or recipient (envelopes, offers, negotiations), from or target (feedback), the
   * batch/challenge agent.
   */
  agent?: Uint8Array;
  /** msg_type codes (envelopes only). */
  types?: number[];
  /**
   * Only envelopes stored at or before this `seq` (and the FEEDBACK rows of those envelopes): one
   * state of the store for every table a release writes, however much arrives while it is written
   * (exportSeqWatermark). Undefined: everything stored when each read runs.
   */
  maxSeq?: bigint;
}

/**
 * The epochs a time filter spans, so envelope reads bound the partition key as well as
 * `timestamp` and the planner prunes the partitions outside the window (partitions.ts).
 */
export function epochBounds(f: ExportFilter, epochSeconds: number): { from?: number; to?: number } {
  const epochOf = epochOfFn(epochSeconds);
  const out: { from?: number; to?: number } = {};
  if (f.fromUs !== undefined && f.fromUs > 0n) out.from = epochOf(f.fromUs);
  if (f.toUs !== undefined && f.toUs > 0n) out.to = epochOf(f.toUs - 1n);
  return out;
}

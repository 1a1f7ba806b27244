/** Row filter of the datasets export, shared by export.ts and export-copy.ts (docs/datasets.md "API"); times are unix microseconds, [fromUs, toUs). */
export interface ExportFilter {
  fromUs?: bigint;
  toUs?: bigint;
  /** 32-byte agent id: sender or recipient (envelopes, offers, negotiations), from or target (feedback), the batch/challenge agent. */
  agent?: Uint8Array;
  /** msg_type codes (envelopes only). */
  types?: number[];
}

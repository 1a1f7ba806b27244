/**
 * lib/store/logs: agents' uploaded epoch logs and batches (lib/store/logs/README.md).
 * LogsPort: store a log or an uploaded batch, read them back, find the logs holding an envelope.
 */
import 'server-only';
import type { PortContext } from '../engine/port';
import { onChainBatchUpload, saveBatchUpload } from './batch-upload';
import {
  type EpochLogEntryRow,
  epochLogEntries,
  type SaveEpochLogResult,
  saveEpochLog,
  unverifiedBatchesWithLog,
} from './epoch-log';
import { type EpochLogHit, epochLogsWith } from './inclusion';

export { MAX_BATCH_UPLOADS } from './batch-upload';
export type { EpochLogEntryRow, SaveEpochLogResult } from './epoch-log';
export type { EpochLogHit } from './inclusion';

export interface LogsPort {
  /** Stores an agent's uploaded epoch log (ordered envelope ids); see epoch-log.ts for the replace rule. */
  saveEpochLog(
    agent: Uint8Array,
    epoch: bigint,
    ids: readonly Uint8Array[],
    opts?: { replace: boolean },
  ): Promise<SaveEpochLogResult>;
  /** The uploaded epoch log of (agent, epoch) with envelope bytes, in order; [] when none. */
  epochLog(agent: Uint8Array, epoch: bigint): Promise<EpochLogEntryRow[]>;
  /** Unverified batches whose log is stored now (late uploads); see epoch-log.ts. */
  unverifiedBatchesWithLog(limit?: number): ReturnType<typeof unverifiedBatchesWithLog>;
  /** Stores a batch uploaded with its log (batch-upload.ts); read back only when its hash is the on-chain one. */
  saveBatchUpload(
    agent: Uint8Array,
    epoch: bigint,
    hash: Uint8Array,
    cbor: Uint8Array,
  ): Promise<'saved' | 'unchanged' | 'full'>;
  /** The uploaded batch CBOR matching the on-chain batch_hash of (agent, epoch), or null. */
  onChainBatchUpload(agent: Uint8Array, epoch: bigint): Promise<Uint8Array | null>;
  /** The uploaded logs among `agents` that hold `envelopeId` (inclusion proofs); see inclusion.ts. */
  epochLogsWith(envelopeId: Uint8Array, agents: readonly Uint8Array[]): Promise<EpochLogHit[]>;
}

export function logsPort({ db, live }: PortContext): LogsPort {
  return {
    saveEpochLog: (agent, epoch, ids, opts) => live(() => saveEpochLog(db, agent, epoch, ids, opts)),
    epochLog: (agent, epoch) => live(() => epochLogEntries(db, agent, epoch)),
    unverifiedBatchesWithLog: (limit) => live(() => unverifiedBatchesWithLog(db, limit)),
    saveBatchUpload: (agent, epoch, hash, cbor) => live(() => saveBatchUpload(db, agent, epoch, hash, cbor)),
    onChainBatchUpload: (agent, epoch) => live(() => onChainBatchUpload(db, agent, epoch)),
    epochLogsWith: (envelopeId, agents) => live(() => epochLogsWith(db, envelopeId, agents)),
  };
}

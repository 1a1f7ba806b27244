/**
 * Batch verification ("a batch submitted on chain whose root does not match the
 * agent's uploaded log is flagged; a matching one is marked verified").
 *
 * The log checked is the one the agent uploaded for that epoch (POST /api/ingest/log,
 * lib/observer/log-upload.ts; stored by lib/store/logs/epoch-log.ts): the exact ordered envelopes
 * its batch commits to. Only the agent's signed upload, or an unsigned one with the on-chain
 * root, is ever stored, so a verdict here is the agent's own log against its own batch: no
 * one else's upload can turn it into `mismatch`. The observatory's own view of the agent's traffic is not used: an
 * envelope uploaded by a sender but never received, or received after the agent built its
 * batch, would flag honest agents.
 *
 * Verdict: `unverified` when no log was uploaded; `verified` when the §5 merkle root of the
 * uploaded log equals the on-chain log_merkle_root AND the batch lib/protocol
 * buildBatchFromLog builds from that log has the counts the chain recorded (message, bid,
 * task, verifier, feedback counts, overflow); `mismatch` otherwise. The counts catch a batch
 * whose root covers the true log but which leaves entries out of its arrays (an unreported bid):
 * the chain holds only those counts and the batch hash, whose slot bounds the observatory
 * cannot know (docs/decisions/batch-verification-uploaded-log.md).
 */
import { PublicKey } from '../chain';
import type { BehaviorBatch } from '../protocol/batch';
import { buildBatchFromLog } from '../protocol/batch-build';
import { decodeEnvelope } from '../protocol/envelope';
import { leafHash, logEntryOf, merkleRoot } from '../protocol/merkle';
import type { Envelope } from '../protocol/types';
import type { BatchCheck, IndexerStore } from './types';

/** The unix-µs window [from, to) of protocol epoch `epoch`. */
export function epochWindowUs(epoch: bigint, epochSeconds: bigint): [bigint, bigint] {
  if (typeof epoch !== 'bigint' || typeof epochSeconds !== 'bigint' || epochSeconds <= 0n || epoch < 0n)
    throw new RangeError('epoch and epochSeconds must be non-negative bigints, epochSeconds > 0');
  return [epoch * epochSeconds * 1_000_000n, (epoch + 1n) * epochSeconds * 1_000_000n];
}

/** Compares two envelopes by (timestamp, envelope id bytewise): the order demo agents keep their logs in. */
export function compareLogOrder(
  a: { timestamp: bigint; id: Uint8Array },
  b: { timestamp: bigint; id: Uint8Array },
): number {
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? -1 : 1;
  return Buffer.compare(a.id, b.id);
}

/**
 * The agent's uploaded log of `epoch` in its order, or null when none was uploaded (or an entry's
 * envelope is missing from the store, which ingest-before-save rules out).
 */
export async function uploadedEpochLog(
  store: Pick<IndexerStore, 'epochLog'>,
  agent: PublicKey | Uint8Array,
  epoch: bigint,
): Promise<Envelope[] | null> {
  const id = agent instanceof PublicKey ? agent.toBytes() : agent;
  const rows = await store.epochLog(id, epoch);
  if (rows.length === 0) return null;
  const out: Envelope[] = [];
  for (const r of rows) {
    const d = r.raw ? decodeEnvelope(r.raw) : null;
    if (!d?.ok) return null;
    out.push(d.envelope);
  }
  return out;
}

/** The §5 merkle root of a log. */
export function logRootOf(log: readonly Envelope[]): Uint8Array {
  return merkleRoot(log.map((e) => leafHash(logEntryOf(e))));
}

/** The summary the chain records for a batch (behavior_log BatchAccount / submit_batch args). */
export function batchSummaryOf(
  b: BehaviorBatch,
): Record<'messageCount' | 'bidCount' | 'taskCount' | 'verifierCount' | 'feedbackCount' | 'overflow', string> {
  return {
    messageCount: b.messageCount.toString(),
    bidCount: String(b.bidValues.length),
    taskCount: String(b.taskSelections.length),
    verifierCount: String(b.verifierIds.length),
    feedbackCount: String(b.feedbackEvents.length),
    overflow: b.overflow ? '1' : '0',
  };
}

/** True when every count the batch row's `data` holds (as the indexer stores it) equals `expected`'s. */
function countsMatch(data: unknown, expected: ReturnType<typeof batchSummaryOf>): boolean {
  if (!data || typeof data !== 'object') return true; // a row without the on-chain counts: root only
  const d = data as Record<string, unknown>;
  return (Object.keys(expected) as (keyof typeof expected)[]).every(
    (k) => d[k] === undefined || d[k] === null || String(d[k]) === expected[k],
  );
}

/** Checks one stored batch against the uploaded log (module comment), records the verdict and returns it. */
export async function checkBatch(
  store: Pick<IndexerStore, 'epochLog' | 'setBatchStatus'>,
  b: { agentId: Uint8Array; epoch: bigint; root: Uint8Array; data?: unknown },
): Promise<BatchCheck> {
  const log = await uploadedEpochLog(store, b.agentId, b.epoch);
  if (!log) {
    await store.setBatchStatus(b.agentId, b.epoch, 'unverified');
    return 'unverified';
  }
  const built = buildBatchFromLog({
    agentId: b.agentId,
    epochNumber: b.epoch,
    slotStart: 0n,
    slotEnd: 0n,
    envelopes: log,
  });
  const ok = Buffer.from(built.logMerkleRoot).equals(Buffer.from(b.root)) && countsMatch(b.data, batchSummaryOf(built));
  const status: BatchCheck = ok ? 'verified' : 'mismatch';
  await store.setBatchStatus(b.agentId, b.epoch, status, built.logMerkleRoot, built);
  return status;
}

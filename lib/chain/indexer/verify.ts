/**
 * Batch verification (issue 5: "a batch submitted on chain whose root does not match the
 * agent's uploaded log is flagged; a matching one is marked verified").
 *
 * The agent's log for epoch e (the log lib/protocol buildBatchFromLog and the §5 merkle tree
 * take) is, from the stored envelopes: every envelope the agent sent, every envelope addressed
 * to it, and every FEEDBACK whose target_agent is it, with timestamp in
 * [e × epochSeconds, (e + 1) × epochSeconds) seconds, ordered by (timestamp, envelope id).
 * Agents build their batches from the same ordering (lib/chain/README.md). A batch whose
 * log_merkle_root equals the root of that log is `verified`, a different root `mismatch`, no
 * stored envelopes `unverified`.
 */
import { PublicKey } from '@solana/web3.js';
import { decodeEnvelope } from '../../protocol/envelope';
import { leafHash, logEntryOf, merkleRoot } from '../../protocol/merkle';
import type { Envelope } from '../../protocol/types';
import { agentLogEnvelopes } from '../../store/chain-index';
import type { BatchCheck, IndexerStore } from './types';

/** The unix-µs window [from, to) of protocol epoch `epoch`. */
export function epochWindowUs(epoch: bigint, epochSeconds: bigint): [bigint, bigint] {
  if (typeof epoch !== 'bigint' || typeof epochSeconds !== 'bigint' || epochSeconds <= 0n || epoch < 0n) throw new RangeError('epoch and epochSeconds must be non-negative bigints, epochSeconds > 0');
  return [epoch * epochSeconds * 1_000_000n, (epoch + 1n) * epochSeconds * 1_000_000n];
}

/** Compares two envelopes in log order: timestamp, then envelope id (bytewise). */
export function compareLogOrder(a: { timestamp: bigint; id: Uint8Array }, b: { timestamp: bigint; id: Uint8Array }): number {
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? -1 : 1;
  return Buffer.compare(a.id, b.id);
}

/** The agent's stored log of `epoch` in log order (module comment); undecodable rows are skipped. */
export async function agentEpochLog(store: Pick<IndexerStore, 'query'>, agent: PublicKey | Uint8Array, epoch: bigint, epochSeconds: bigint): Promise<Envelope[]> {
  const id = agent instanceof PublicKey ? agent.toBytes() : agent;
  const [from, to] = epochWindowUs(epoch, epochSeconds);
  const rows = await agentLogEnvelopes(store, id, from, to);
  const out: Envelope[] = [];
  for (const r of rows) {
    const d = decodeEnvelope(r.raw);
    if (d.ok) out.push(d.envelope);
  }
  return out;
}

/** The §5 merkle root of a log. */
export function logRootOf(log: readonly Envelope[]): Uint8Array {
  return merkleRoot(log.map((e) => leafHash(logEntryOf(e))));
}

/** Checks one stored batch and records the verdict; returns it. */
export async function checkBatch(store: IndexerStore, b: { agentId: Uint8Array; epoch: bigint; root: Uint8Array }, epochSeconds: bigint): Promise<BatchCheck> {
  const log = await agentEpochLog(store, b.agentId, b.epoch, epochSeconds);
  if (log.length === 0) {
    await store.setBatchStatus(b.agentId, b.epoch, 'unverified');
    return 'unverified';
  }
  const root = logRootOf(log);
  const status: BatchCheck = Buffer.from(root).equals(Buffer.from(b.root)) ? 'verified' : 'mismatch';
  await store.setBatchStatus(b.agentId, b.epoch, status, root);
  return status;
}

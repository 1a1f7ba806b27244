/**
 * verify_inclusion's answer: the §5 merkle proof (docs/protocol.md §5) of one envelope in an
 * agent's uploaded epoch log, checked against the root its batch committed on chain. The proof is
 * recomputed here from the envelopes, not trusted from storage.
 */
import { decodeEnvelope } from '../protocol/envelope';
import { fromHex, toHex } from '../protocol/hex';
import { leafHash, logEntryOf, merkleProof, merkleRoot, verifyMerkleProof } from '../protocol/merkle';
import type { BatchJson } from '../wire';
import { ToolInputError } from './errors';

export function inclusionProof(
  envelopeArg: string,
  log: { id: string; raw: Uint8Array | null }[],
  batch: BatchJson | null,
) {
  const envelope = envelopeArg.trim().toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{64}$/.test(envelope))
    throw new ToolInputError('envelope: must be 64 hex characters (an envelope id)');
  if (log.length === 0) {
    return {
      included: false,
      reason: 'no epoch log uploaded for this agent and epoch',
      batchRoot: batch?.logMerkleRoot ?? null,
      batchStatus: batch?.status ?? null,
    };
  }
  const leaves: Uint8Array[] = [];
  for (const entry of log) {
    const d = entry.raw ? decodeEnvelope(entry.raw) : null;
    if (!d?.ok)
      return {
        included: false,
        reason: `log entry ${entry.id} is not stored as a decodable envelope`,
        batchRoot: batch?.logMerkleRoot ?? null,
        batchStatus: batch?.status ?? null,
      };
    leaves.push(leafHash(logEntryOf(d.envelope)));
  }
  const index = log.findIndex((e) => e.id === envelope);
  const root = toHex(merkleRoot(leaves));
  const base = {
    logEntries: log.length,
    logRoot: root,
    batchRoot: batch?.logMerkleRoot ?? null,
    batchStatus: batch?.status ?? null,
    rootMatchesBatch: batch ? batch.logMerkleRoot === root : null,
  };
  if (index < 0) return { included: false, reason: 'the envelope is not in this log', ...base };
  const proof = merkleProof(leaves, index);
  const against = batch ? fromHex(batch.logMerkleRoot) : merkleRoot(leaves);
  return {
    included: verifyMerkleProof(leaves[index], proof, against),
    index,
    leaf: toHex(leaves[index]),
    siblings: proof.siblings.map(toHex),
    ...base,
  };
}

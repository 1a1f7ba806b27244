/**
 * Batch inclusion checked in the viewer's browser (docs/protocol.md §5, §6): the envelope's log
 * entry and merkle proof come from our API, the BatchAccount straight from the chain's RPC
 * (./rpc.ts); the browser recomputes the log entry from the envelope it already checked, hashes
 * the leaf, folds the siblings up and compares the result with the root the agent committed on
 * chain. Our server's own claim of the root (`logRoot`) is checked separately (`proof`), so a
 * tampered sibling fails `proof` and `onchain_root`, a wrong on-chain root only `onchain_root`.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesEqual, concatBytes, toHex } from '../protocol/hex';
import { logEntryOf } from '../protocol/merkle';
import type { Envelope } from '../protocol/types';
import { fail, pass, skip, type VerifyStep } from './steps';

/** What our API says about one log the envelope is in (lib/wire InclusionProofView, decoded). */
export interface InclusionProof {
  agent: Uint8Array;
  epoch: bigint;
  index: number;
  leafCount: number;
  entry: Uint8Array;
  siblings: Uint8Array[];
  logRoot: Uint8Array;
}

/** The on-chain BatchAccount fields the check needs, or why it could not be read. */
export type OnChainBatch =
  | { agent: Uint8Array; epoch: bigint; logMerkleRoot: Uint8Array; address: string }
  | { error: string };

const T = {
  log_entry: 'Log entry = the envelope with its payload elided (§5)',
  proof_shape: 'Proof shape: index and sibling count fit the log size',
  proof: 'Leaf + siblings fold up to the root our server reports',
  batch_account: 'BatchAccount read from the chain RPC',
  onchain_root: 'Folded root = log_merkle_root on chain',
} as const;

/** Root from a leaf and its siblings, leaf row up (docs/protocol.md §5). */
export function foldProof(leaf: Uint8Array, index: number, siblings: readonly Uint8Array[]): Uint8Array {
  let cur = leaf;
  let i = index;
  for (const s of siblings) {
    cur = keccak_256(i % 2 === 1 ? concatBytes(s, cur) : concatBytes(cur, s));
    i = Math.floor(i / 2);
  }
  return cur;
}

export function checkInclusion(
  envelope: Envelope | null,
  p: InclusionProof,
  batch: OnChainBatch | null,
): { ok: boolean; steps: VerifyStep[] } {
  const steps: VerifyStep[] = [];
  if (!envelope) {
    steps.push(skip('log_entry', T.log_entry, 'the envelope itself did not verify'));
  } else {
    const mine = logEntryOf(envelope);
    steps.push(
      bytesEqual(mine, p.entry)
        ? pass(
            'log_entry',
            T.log_entry,
            `${p.entry.length} bytes, position ${p.index} of ${p.leafCount}` +
              ` in ${toHex(p.agent).slice(0, 8)}…'s epoch ${p.epoch} log`,
          )
        : fail('log_entry', T.log_entry, "the entry from the API is not this envelope's log entry"),
    );
  }
  let depth = 0;
  while (2 ** depth < p.leafCount) depth++;
  const shapeOk =
    Number.isInteger(p.index) &&
    p.index >= 0 &&
    p.index < p.leafCount &&
    p.siblings.length === depth &&
    p.siblings.every((s) => s.length === 32);
  steps.push(
    shapeOk
      ? pass('proof_shape', T.proof_shape, `index ${p.index} < ${p.leafCount}, ${depth} siblings`)
      : fail(
          'proof_shape',
          T.proof_shape,
          `index ${p.index}, ${p.siblings.length} siblings for ${p.leafCount} leaves (expected ${depth})`,
        ),
  );
  const leaf = keccak_256(p.entry);
  const root = foldProof(leaf, p.index, p.siblings);
  steps.push(
    bytesEqual(root, p.logRoot)
      ? pass('proof', T.proof, `leaf ${toHex(leaf).slice(0, 16)}… → root ${toHex(root)}`)
      : fail('proof', T.proof, `folded ${toHex(root)}, server reports ${toHex(p.logRoot)}`),
  );
  if (batch === null) {
    steps.push(
      skip('batch_account', T.batch_account, 'not read'),
      skip('onchain_root', T.onchain_root, 'no on-chain batch'),
    );
  } else if ('error' in batch) {
    steps.push(
      fail('batch_account', T.batch_account, batch.error),
      skip('onchain_root', T.onchain_root, 'no on-chain batch'),
    );
  } else if (!bytesEqual(batch.agent, p.agent) || batch.epoch !== p.epoch) {
    steps.push(
      fail(
        'batch_account',
        T.batch_account,
        `account ${batch.address} is agent ${toHex(batch.agent)} epoch ${batch.epoch}`,
      ),
      skip('onchain_root', T.onchain_root, 'wrong batch'),
    );
  } else {
    steps.push(
      pass(
        'batch_account',
        T.batch_account,
        `${batch.address} (agent ${toHex(batch.agent).slice(0, 8)}…, epoch ${batch.epoch})`,
      ),
    );
    steps.push(
      bytesEqual(root, batch.logMerkleRoot)
        ? pass('onchain_root', T.onchain_root, toHex(root))
        : fail('onchain_root', T.onchain_root, `folded ${toHex(root)}, chain has ${toHex(batch.logMerkleRoot)}`),
    );
  }
  return { ok: steps.every((s) => s.ok), steps };
}

/**
 * Log entries and the merkle tree over an agent's epoch log (docs/protocol.md §5).
 */

import { encodeCanonical } from './cbor';
import { keccak256 } from './crypto';
import { signingPreimage } from './envelope';
import { assertBytes } from './errors';
import { bytesEqual, concatBytes } from './hex';
import type { Envelope } from './types';
import { MsgType } from './types';

const EMPTY = new Uint8Array(0);
const ZERO32 = new Uint8Array(32);

/**
 * Canonical CBOR of the log entry of `e` (docs/protocol.md §5): the envelope array with the
 * payload replaced by an empty byte string, except FEEDBACK and NOTARIZE_BID, which keep it.
 */
export function logEntryOf(e: Envelope): Uint8Array {
  const keep = e.msgType === MsgType.FEEDBACK || e.msgType === MsgType.NOTARIZE_BID;
  assertBytes('signature', e.signature, 64);
  const pre = signingPreimage(e); // validates every header field
  const payload = keep ? e.payload : EMPTY;
  assertBytes('payload', payload);
  // The preimage is the 10-item header; the entry appends payload and signature.
  return concatBytes(Uint8Array.of(0x8c), pre.subarray(1), encodeCanonical(payload), encodeCanonical(e.signature));
}

/** Merkle leaf (docs/protocol.md §5): keccak256 of the log entry's canonical CBOR. */
export function leafHash(entryBytes: Uint8Array): Uint8Array {
  assertBytes('entryBytes', entryBytes);
  return keccak256(entryBytes);
}

function node(left: Uint8Array, right: Uint8Array): Uint8Array {
  return keccak256(concatBytes(left, right));
}

/** Every level of the padded tree, leaf row first (each row padded to a power of two). */
function levels(leaves: Uint8Array[]): Uint8Array[][] {
  let size = 1;
  while (size < leaves.length) size *= 2;
  let row = leaves.slice();
  while (row.length < size) row.push(ZERO32);
  const out = [row];
  while (row.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < row.length; i += 2) next.push(node(row[i], row[i + 1]));
    out.push(next);
    row = next;
  }
  return out;
}

function checkLeaves(leaves: Uint8Array[]): void {
  if (!Array.isArray(leaves)) throw new TypeError('leaves must be an array');
  leaves.forEach((l, i) => assertBytes(`leaves[${i}]`, l, 32));
}

/**
 * Merkle root over leaves in log order (docs/protocol.md §5): right-padded with zero hashes to a
 * power of two; 0 leaves give 32 zero bytes, 1 leaf gives the leaf.
 */
export function merkleRoot(leaves: Uint8Array[]): Uint8Array {
  checkLeaves(leaves);
  if (leaves.length === 0) return ZERO32.slice();
  const lv = levels(leaves);
  return lv[lv.length - 1][0].slice();
}

/** An inclusion proof (docs/protocol.md §5): leaf index and sibling hashes from the leaf row up. */
export interface MerkleProof {
  index: number;
  siblings: Uint8Array[];
}

/** Inclusion proof of `leaves[index]`. Throws RangeError naming `index` when out of range. */
export function merkleProof(leaves: Uint8Array[], index: number): MerkleProof {
  checkLeaves(leaves);
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length) {
    throw new RangeError(`index must be in 0..${leaves.length - 1}, got ${index}`);
  }
  const lv = levels(leaves);
  const siblings: Uint8Array[] = [];
  let i = index;
  for (let d = 0; d < lv.length - 1; d++) {
    siblings.push(lv[d][i ^ 1].slice());
    i >>= 1;
  }
  return { index, siblings };
}

/** True when `proof` places `leaf` under `root` (docs/protocol.md §5). Never throws. */
export function verifyMerkleProof(leaf: Uint8Array, proof: MerkleProof, root: Uint8Array): boolean {
  try {
    if (!(leaf instanceof Uint8Array) || leaf.length !== 32 || !(root instanceof Uint8Array)) return false;
    const { index, siblings } = proof;
    if (!Number.isInteger(index) || index < 0 || !Array.isArray(siblings) || siblings.length > 64) return false;
    if (siblings.length < 31 && index >= 2 ** siblings.length) return false;
    let cur = leaf;
    let i = index;
    for (const s of siblings) {
      if (!(s instanceof Uint8Array) || s.length !== 32) return false;
      cur = i % 2 === 1 ? node(s, cur) : node(cur, s);
      i = Math.floor(i / 2);
    }
    return i === 0 && bytesEqual(cur, root);
  } catch {
    return false;
  }
}

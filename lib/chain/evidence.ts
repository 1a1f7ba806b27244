/**
 * Challenge evidence (0x01 spec §10.4, §8.6; programs/challenge/resolve.c): the bytes a
 * challenger stages in a Buffer account for resolve_challenge, and the signing preimage and
 * signature the Ed25519 program instruction checks. The one encoding of the buffer layout, used
 * by the wallet-side builders, lib/chain/node and the program tests (programs/challenge/client.ts).
 */
import { type BehaviorBatch, encodeBatch } from '../protocol/batch';
import { signingPreimage } from '../protocol/envelope';
import { leafHash, logEntryOf, merkleProof } from '../protocol/merkle';
import type { Envelope } from '../protocol/types';

/** The parts of the evidence section of a buffer, in order. */
export interface EvidenceParts {
  /** The log entry (lib/protocol logEntryOf). */
  entry: Uint8Array;
  /** The envelope's payload (empty when omitted). */
  payload?: Uint8Array;
  /** The leaf's index in the merkle tree. */
  index: number;
  /** Merkle proof siblings, 32 bytes each, leaf to root. */
  siblings: readonly Uint8Array[];
  /** The batch's canonical CBOR. */
  batch: Uint8Array;
}

/**
 * Buffer bytes: u32 entry_len | entry | u32 payload_len | payload | u32 index | u8 depth |
 * depth × 32-byte siblings | batch CBOR (all integers little-endian).
 */
export function evidenceBytes(p: EvidenceParts): Uint8Array {
  const payload = p.payload ?? new Uint8Array(0);
  if (!(p?.entry instanceof Uint8Array) || !(payload instanceof Uint8Array) || !(p.batch instanceof Uint8Array))
    throw new TypeError('entry, payload and batch must be Uint8Arrays');
  if (!Number.isInteger(p.index) || p.index < 0 || p.index > 0xffffffff) throw new RangeError('index must be a u32');
  if (!Array.isArray(p.siblings) || p.siblings.length > 255)
    throw new RangeError('siblings must be an array of at most 255 entries');
  const out = new Uint8Array(4 + p.entry.length + 4 + payload.length + 5 + 32 * p.siblings.length + p.batch.length);
  const dv = new DataView(out.buffer);
  let o = 0;
  dv.setUint32(o, p.entry.length, true);
  o += 4;
  out.set(p.entry, o);
  o += p.entry.length;
  dv.setUint32(o, payload.length, true);
  o += 4;
  out.set(payload, o);
  o += payload.length;
  dv.setUint32(o, p.index, true);
  o += 4;
  out[o++] = p.siblings.length;
  for (const s of p.siblings) {
    if (!(s instanceof Uint8Array) || s.length !== 32) throw new TypeError('every sibling must be 32 bytes');
    out.set(s, o);
    o += 32;
  }
  out.set(p.batch, o);
  return out;
}

/** Everything a challenger needs about one log entry of a batch. */
export interface ChallengeEvidence {
  /** The committed merkle leaf (submit_challenge arg). */
  leaf: Uint8Array;
  /** Buffer bytes ({@link evidenceBytes}). */
  bytes: Uint8Array;
  /** The envelope's signing preimage and signature (Ed25519 program instruction at resolve). */
  preimage: Uint8Array;
  signature: Uint8Array;
}

/** Builds the evidence for entry `index` of the agent's epoch `log` (the log the batch's root covers). */
export function challengeEvidence(p: {
  log: readonly Envelope[];
  index: number;
  batch: BehaviorBatch;
}): ChallengeEvidence {
  if (!Array.isArray(p?.log) || !Number.isInteger(p.index) || p.index < 0 || p.index >= p.log.length)
    throw new RangeError('index must point into log');
  const entries = p.log.map(logEntryOf);
  const leaves = entries.map(leafHash);
  const proof = merkleProof(leaves, p.index);
  const e = p.log[p.index];
  const bytes = evidenceBytes({
    entry: entries[p.index],
    payload: e.payload,
    index: proof.index,
    siblings: proof.siblings,
    batch: encodeBatch(p.batch),
  });
  return { leaf: leaves[p.index], bytes, preimage: signingPreimage(e), signature: e.signature };
}

/**
 * The signed epoch-log statement (docs/protocol.md "Signed epoch logs"): the bytes an agent signs
 * to vouch that a log is the one its on-chain batch of an epoch commits to, and the signed upload
 * body that carries it (POST /api/ingest/log). Agents build it; the observer checks it.
 */

import { encodeCanonical } from './cbor';
import { ed25519Sign, keccak256 } from './crypto';
import { decodeEnvelope } from './envelope';
import { leafHash, logEntryOf, merkleRoot } from './merkle';

const U64_MAX = (1n << 64n) - 1n;

/** Domain of the signed statement: no other signature of the agent's key can be replayed as one. */
export const EPOCH_LOG_DOMAIN = new TextEncoder().encode('zerox1/epoch-log/v1');

/**
 * The 32 bytes an agent signs to vouch for its log of `epoch`:
 * keccak256("zerox1/epoch-log/v1" ‖ agent_id(32) ‖ epoch as u64 big-endian(8) ‖ log_merkle_root(32)).
 */
export function epochLogStatement(agent: Uint8Array, epoch: bigint, root: Uint8Array): Uint8Array {
  if (!(agent instanceof Uint8Array) || agent.length !== 32) throw new TypeError('agent must be 32 bytes');
  if (!(root instanceof Uint8Array) || root.length !== 32) throw new TypeError('root must be 32 bytes');
  if (typeof epoch !== 'bigint' || epoch < 0n || epoch > U64_MAX)
    throw new RangeError('epoch must be a bigint in 0..2^64-1');
  const pre = new Uint8Array(EPOCH_LOG_DOMAIN.length + 72);
  pre.set(EPOCH_LOG_DOMAIN, 0);
  pre.set(agent, EPOCH_LOG_DOMAIN.length);
  new DataView(pre.buffer).setBigUint64(EPOCH_LOG_DOMAIN.length + 32, epoch, false);
  pre.set(root, EPOCH_LOG_DOMAIN.length + 40);
  return keccak256(pre);
}

/** The §5 merkle root of a log given as encoded envelopes (each must decode). */
export function logRootOfBytes(envelopes: readonly Uint8Array[]): Uint8Array {
  return merkleRoot(
    envelopes.map((b) => {
      const d = decodeEnvelope(b);
      if (!d.ok) throw new TypeError(`an envelope does not decode: ${d.detail ?? d.reason}`);
      return leafHash(logEntryOf(d.envelope));
    }),
  );
}

/**
 * The signed upload body of an agent's log (the form the module comment gives), signed with the
 * 32-byte Ed25519 seed `seed` whose public key is `signer` (a key registered for the agent).
 */
export function encodeSignedLogUpload(p: {
  agent: Uint8Array;
  epoch: bigint;
  envelopes: readonly Uint8Array[];
  batch?: Uint8Array;
  signer: Uint8Array;
  seed: Uint8Array;
}): Uint8Array {
  const sig = ed25519Sign(epochLogStatement(p.agent, p.epoch, logRootOfBytes(p.envelopes)), p.seed);
  const envs = [...p.envelopes];
  return encodeCanonical(
    p.batch ? [p.agent, p.epoch, envs, p.batch, p.signer, sig] : [p.agent, p.epoch, envs, p.signer, sig],
  );
}

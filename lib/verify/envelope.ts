/**
 * Checks one envelope's raw bytes in the viewer's own browser (docs/protocol.md §2, §3): decode,
 * recompute the envelope id and the payload hash, check payload_len, and verify the Ed25519
 * signature over the §2 preimage against signer keys the caller resolved itself (./rpc.ts).
 *
 * Hashes and the signature run on @noble/hashes and @noble/curves directly, not on lib/protocol's
 * server fast path (libsodium, WASM keccak): the point is a second, independent computation.
 * Every step runs even after one fails (except those that need the decoded envelope), so a
 * tampered signature byte shows as `envelope_id` and `signature`, a tampered payload byte as
 * `envelope_id` and `payload_hash`.
 */

import { ed25519 } from '@noble/curves/ed25519.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeEnvelope, signingPreimage } from '../protocol/envelope';
import { bytesEqual, toHex } from '../protocol/hex';
import type { Envelope } from '../protocol/types';
import { fail, pass, skip, type VerifyStep } from './steps';

/** The signer keys resolved for the sender, or why they could not be. */
export type SignerResolution = { keys: Uint8Array[]; detail: string } | { error: string };

export interface EnvelopeCheck {
  ok: boolean;
  steps: VerifyStep[];
  envelope: Envelope | null;
}

const T = {
  decode: 'Decode the raw bytes (canonical CBOR, 12 items)',
  envelope_id: 'Envelope id = keccak256(raw bytes)',
  payload_hash: 'payload_hash = keccak256(payload)',
  payload_len: 'payload_len = length of payload',
  signer: "Sender's signer key from the chain",
  signature: 'Ed25519 signature over the header',
} as const;

/** Strict RFC 8032 verification (docs/protocol.md §2: no ZIP-215). Never throws. */
function ed25519Ok(sig: Uint8Array, msg: Uint8Array, pk: Uint8Array): boolean {
  try {
    return ed25519.verify(sig, msg, pk, { zip215: false });
  } catch {
    return false;
  }
}

/**
 * Runs the envelope steps. `expectedId` is the id the page asked for (the server's claim);
 * `signer` the keys resolved over RPC, or null when not resolved yet.
 */
export function checkEnvelope(raw: Uint8Array, expectedId: Uint8Array, signer: SignerResolution | null): EnvelopeCheck {
  const steps: VerifyStep[] = [];
  const d = decodeEnvelope(raw);
  const id = keccak_256(raw);
  if (!d.ok) {
    steps.push(fail('decode', T.decode, d.detail));
  } else {
    steps.push(
      pass(
        'decode',
        T.decode,
        `${raw.length} bytes, msg_type 0x` +
          `${d.envelope.msgType.toString(16).padStart(2, '0')}, nonce ${d.envelope.nonce}`,
      ),
    );
  }
  steps.push(
    bytesEqual(id, expectedId)
      ? pass('envelope_id', T.envelope_id, toHex(id))
      : fail('envelope_id', T.envelope_id, `computed ${toHex(id)}, expected ${toHex(expectedId)}`),
  );
  if (!d.ok) {
    for (const n of ['payload_hash', 'payload_len', 'signer', 'signature'] as const)
      steps.push(skip(n, T[n], 'the bytes do not decode'));
    return { ok: false, steps, envelope: null };
  }
  const e = d.envelope;
  const ph = keccak_256(e.payload);
  steps.push(
    bytesEqual(ph, e.payloadHash)
      ? pass('payload_hash', T.payload_hash, toHex(ph))
      : fail('payload_hash', T.payload_hash, `computed ${toHex(ph)}, envelope says ${toHex(e.payloadHash)}`),
  );
  steps.push(
    e.payload.length === e.payloadLen
      ? pass('payload_len', T.payload_len, `${e.payloadLen} bytes`)
      : fail('payload_len', T.payload_len, `payload has ${e.payload.length} bytes, envelope says ${e.payloadLen}`),
  );
  if (signer === null) {
    steps.push(skip('signer', T.signer, 'not resolved'), skip('signature', T.signature, 'no signer key'));
  } else if ('error' in signer) {
    steps.push(fail('signer', T.signer, signer.error), skip('signature', T.signature, 'no signer key'));
  } else if (signer.keys.length === 0) {
    steps.push(fail('signer', T.signer, signer.detail || 'no key'), skip('signature', T.signature, 'no signer key'));
  } else {
    steps.push(pass('signer', T.signer, signer.detail));
    const pre = signingPreimage(e);
    const key = signer.keys.find((k) => ed25519Ok(e.signature, pre, k));
    steps.push(
      key
        ? pass('signature', T.signature, `verifies under ${toHex(key)} (@noble/curves, strict)`)
        : fail('signature', T.signature, `does not verify under ${signer.keys.map(toHex).join(', ')}`),
    );
  }
  return { ok: steps.every((s) => s.ok), steps, envelope: e };
}

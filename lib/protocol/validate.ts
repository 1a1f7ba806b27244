/**
 * Envelope validation (docs/protocol.md §3): the checks in order, first failure is the reason.
 * Hostile bytes never throw; caller misuse (missing live-mode state) throws TypeError.
 */

import { MAX_ENVELOPE_BYTES, PROTOCOL_VERSION, TIMESTAMP_TOLERANCE_US } from './constants';
import { ed25519Verify, keccak256, keccak256Equals } from './crypto';
import { decodeEnvelope } from './envelope';
import { type ReadEnvelope, readEnvelope } from './envelope-scan';
import { toHex } from './hex';
import { decodeFeedback, decodeNotarizeBid } from './payloads';
import type { ValidateParams, ValidationResult } from './types';
import { MsgType } from './types';

/** A synchronous signer registry (docs/protocol.md §2 "Signer"). */
export interface SyncSignerRegistry {
  keysFor(agentId: Uint8Array): readonly Uint8Array[];
}

/** {@link ValidateParams} with a synchronous registry. */
export type ValidateSyncParams = Omit<ValidateParams, 'registry'> & { registry: SyncSignerRegistry };

function checkParams(params: ValidateParams | ValidateSyncParams): void {
  if (!params || (params.mode !== 'live' && params.mode !== 'archive')) {
    throw new TypeError("params.mode must be 'live' or 'archive'");
  }
  if (!params.registry || typeof params.registry.keysFor !== 'function') {
    throw new TypeError('params.registry must have keysFor(agentId)');
  }
  if (params.mode === 'live') {
    if (!params.nonces) throw new TypeError('params.nonces is required in live mode');
    if (typeof params.nowUs !== 'bigint') throw new TypeError('params.nowUs (bigint) is required in live mode');
  }
}

/** §3 steps decode, version, msg_type: a failure result, or the decoded envelope and its private bytes. */
function stage1(bytes: Uint8Array): ValidationResult | ReadEnvelope {
  if (!(bytes instanceof Uint8Array) || bytes.length > MAX_ENVELOPE_BYTES || bytes.length === 0 || bytes[0] !== 0x8c) {
    const d = decodeEnvelope(bytes); // the wording of the failure
    return { ok: false, reason: 'decode', detail: d.ok ? 'not an envelope' : d.detail };
  }
  const r = readEnvelope(bytes);
  if (typeof r === 'string') return { ok: false, reason: 'decode', detail: r };
  const e = r.envelope;
  if (e.version !== PROTOCOL_VERSION) return { ok: false, reason: 'version', detail: `version ${e.version}` };
  if (e.msgType < MsgType.ADVERTISE || e.msgType > MsgType.BEACON) {
    return { ok: false, reason: 'msg_type', detail: `msg_type ${e.msgType}` };
  }
  return r;
}

/**
 * §3 from unregistered on. The signature preimage is the private copy's items 0..9 under a
 * 0x8a head (canonical encoding makes them identical to the preimage's): the head byte is
 * switched for the verification and restored before the envelope id is hashed.
 */
function stage2(
  r: ReadEnvelope,
  keys: readonly Uint8Array[],
  params: ValidateParams | ValidateSyncParams,
): ValidationResult {
  if (!keys || keys.length === 0) return { ok: false, reason: 'unregistered' };
  const e = r.envelope;
  const own = r.bytes;
  const preimage = new Uint8Array(own.buffer, own.byteOffset, r.preimageEnd);
  let verified = false;
  own[0] = 0x8a;
  try {
    for (let i = 0; i < keys.length && !verified; i++) {
      const k = keys[i];
      verified = k instanceof Uint8Array && ed25519Verify(e.signature, preimage, k);
    }
  } finally {
    own[0] = 0x8c;
  }
  return stage3(r, verified, params);
}

/** §3 from the signature's outcome on: replay, timestamp (live), payload checks; live nonce update. */
function stage3(
  r: ReadEnvelope,
  verified: boolean,
  params: ValidateParams | ValidateSyncParams | FinishParams,
): ValidationResult {
  const e = r.envelope;
  const own = r.bytes;
  if (!verified) return { ok: false, reason: 'signature' };
  let senderHex = '';
  if (params.mode === 'live') {
    senderHex = toHex(e.sender);
    const last = params.nonces!.get(senderHex);
    if (last !== undefined && e.nonce <= last) {
      return { ok: false, reason: 'replay', detail: `nonce ${e.nonce} <= ${last}` };
    }
    const now = params.nowUs!;
    if (e.timestamp > now + TIMESTAMP_TOLERANCE_US || e.timestamp < now - TIMESTAMP_TOLERANCE_US) {
      return { ok: false, reason: 'timestamp', detail: `skew ${e.timestamp - now} us` };
    }
  }
  if (!keccak256Equals(e.payload, e.payloadHash)) return { ok: false, reason: 'payload_hash' };
  if (e.payload.length !== e.payloadLen) {
    return { ok: false, reason: 'payload_len', detail: `len ${e.payload.length} != ${e.payloadLen}` };
  }
  if (e.msgType === MsgType.FEEDBACK) {
    const f = decodeFeedback(e.payload);
    if (!f.ok) return { ok: false, reason: 'payload_schema', detail: f.detail };
  } else if (e.msgType === MsgType.NOTARIZE_BID) {
    const n = decodeNotarizeBid(e.payload);
    if (!n.ok) return { ok: false, reason: 'payload_schema', detail: n.detail };
  }
  if (params.mode === 'live') params.nonces!.set(senderHex, e.nonce);
  return { ok: true, envelope: e, id: keccak256(own) };
}

/**
 * Validates encoded envelope bytes (docs/protocol.md §3) in live or archive mode. Live mode needs
 * `nonces` and `nowUs`; the nonce state is updated only when the envelope is accepted.
 * Archive mode skips `replay` and `timestamp` (deduplicate by the returned id instead).
 */
export async function validateEnvelope(bytes: Uint8Array, params: ValidateParams): Promise<ValidationResult> {
  checkParams(params);
  const s = stage1(bytes);
  if ('ok' in s) return s;
  // A registry failure is the caller's outage, not hostile input: it propagates.
  const keys = await params.registry.keysFor(s.envelope.sender);
  return stage2(s, keys, params);
}

/** {@link validateEnvelope} with a synchronous registry (the hot path of the observer). */
export function validateEnvelopeSync(bytes: Uint8Array, params: ValidateSyncParams): ValidationResult {
  checkParams(params);
  const s = stage1(bytes);
  if ('ok' in s) return s;
  // A registry failure is the caller's outage, not hostile input: it propagates.
  const keys = params.registry.keysFor(s.envelope.sender);
  return stage2(s, keys, params);
}

/**
 * An envelope that passed §3 up to the signature (decode, version, msg_type, unregistered),
 * with what checking its signature needs: the signed preimage (a copy), the signature and the
 * sender's keys. The signature may then be checked anywhere (a worker thread) and the rest of
 * §3 run by {@link finishValidation}, giving exactly the result of {@link validateEnvelopeSync}.
 */
export interface PendingSignature {
  readonly preimage: Uint8Array;
  readonly signature: Uint8Array;
  readonly keys: readonly Uint8Array[];
  /** @internal the decoded envelope and its private bytes */
  readonly read: ReadEnvelope;
}

/** Live or archive parameters of {@link finishValidation} (no registry: keys were looked up). */
export type FinishParams = Omit<ValidateParams, 'registry'>;

/** The steps of §3 before the signature check; a failure result, or what the check needs. */
export function prepareValidation(
  bytes: Uint8Array,
  registry: SyncSignerRegistry,
): ValidationResult | PendingSignature {
  if (!registry || typeof registry.keysFor !== 'function') throw new TypeError('registry must have keysFor(agentId)');
  const s = stage1(bytes);
  if ('ok' in s) return s;
  // A registry failure is the caller's outage, not hostile input: it propagates.
  const keys = registry.keysFor(s.envelope.sender);
  if (!keys || keys.length === 0) return { ok: false, reason: 'unregistered' };
  const preimage = s.bytes.slice(0, s.preimageEnd);
  preimage[0] = 0x8a;
  return { preimage, signature: s.envelope.signature, keys, read: s };
}

/**
 * The steps of §3 from the signature on, given whether the signature verified under one of
 * `pending.keys` (strict RFC 8032, as ed25519Verify). Live mode checks and updates `nonces`:
 * call it in arrival order per sender.
 */
export function finishValidation(pending: PendingSignature, verified: boolean, params: FinishParams): ValidationResult {
  if (!params || (params.mode !== 'live' && params.mode !== 'archive'))
    throw new TypeError("params.mode must be 'live' or 'archive'");
  if (params.mode === 'live') {
    if (!params.nonces) throw new TypeError('params.nonces is required in live mode');
    if (typeof params.nowUs !== 'bigint') throw new TypeError('params.nowUs (bigint) is required in live mode');
  }
  return stage3(pending.read, verified, params);
}

/**
 * Envelope validation (PROTOCOL.md §3): the checks in order, first failure is the reason.
 * Hostile bytes never throw; caller misuse (missing live-mode state) throws TypeError.
 */
import type { Envelope, ValidateParams, ValidationResult } from './types';
import { MsgType } from './types';
import { PROTOCOL_VERSION, TIMESTAMP_TOLERANCE_US } from './constants';
import { decodeEnvelope } from './envelope';
import { ed25519Verify, keccak256 } from './crypto';
import { toHex, bytesEqual } from './hex';
import { decodeFeedback, decodeNotarizeBid } from './payloads';

/** A synchronous signer registry (PROTOCOL.md §2 "Signer"). */
export interface SyncSignerRegistry {
  keysFor(agentId: Uint8Array): readonly Uint8Array[];
}

/** {@link ValidateParams} with a synchronous registry. */
export type ValidateSyncParams = Omit<ValidateParams, 'registry'> & { registry: SyncSignerRegistry };

type Stage1 =
  | { done: true; result: ValidationResult }
  | { done: false; envelope: Envelope; senderHex: string };

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

function stage1(bytes: Uint8Array): Stage1 {
  const d = decodeEnvelope(bytes);
  if (!d.ok) return { done: true, result: { ok: false, reason: 'decode', detail: d.detail } };
  const e = d.envelope;
  if (e.version !== PROTOCOL_VERSION) {
    return { done: true, result: { ok: false, reason: 'version', detail: `version ${e.version}` } };
  }
  if (e.msgType < MsgType.ADVERTISE || e.msgType > MsgType.BEACON) {
    return { done: true, result: { ok: false, reason: 'msg_type', detail: `msg_type ${e.msgType}` } };
  }
  return { done: false, envelope: e, senderHex: toHex(e.sender) };
}

/**
 * The signature preimage cut from canonical envelope bytes: 0x8a, then items 0..9 exactly as
 * they appear after the 0x8c head (canonical encoding makes them contiguous and identical).
 */
function preimageOf(bytes: Uint8Array, e: Envelope): Uint8Array {
  const n = e.payload.length;
  const payloadHead = n < 24 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
  const end = bytes.length - 66 - payloadHead - n;
  const out = bytes.slice(0, end);
  out[0] = 0x8a;
  return out;
}

function stage2(
  bytes: Uint8Array,
  e: Envelope,
  senderHex: string,
  keys: readonly Uint8Array[],
  params: ValidateParams | ValidateSyncParams,
): ValidationResult {
  if (!keys || keys.length === 0) return { ok: false, reason: 'unregistered' };
  const preimage = preimageOf(bytes, e);
  let verified = false;
  for (const k of keys) {
    if (k instanceof Uint8Array && ed25519Verify(e.signature, preimage, k)) { verified = true; break; }
  }
  if (!verified) return { ok: false, reason: 'signature' };
  if (params.mode === 'live') {
    const last = params.nonces!.get(senderHex);
    if (last !== undefined && e.nonce <= last) {
      return { ok: false, reason: 'replay', detail: `nonce ${e.nonce} <= ${last}` };
    }
    const skew = e.timestamp - params.nowUs!;
    if (skew > TIMESTAMP_TOLERANCE_US || -skew > TIMESTAMP_TOLERANCE_US) {
      return { ok: false, reason: 'timestamp', detail: `skew ${skew} us` };
    }
  }
  if (!bytesEqual(keccak256(e.payload), e.payloadHash)) return { ok: false, reason: 'payload_hash' };
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
  return { ok: true, envelope: e, id: keccak256(bytes) };
}

/**
 * Validates encoded envelope bytes (PROTOCOL.md §3) in live or archive mode. Live mode needs
 * `nonces` and `nowUs`; the nonce state is updated only when the envelope is accepted.
 * Archive mode skips `replay` and `timestamp` (deduplicate by the returned id instead).
 */
export async function validateEnvelope(bytes: Uint8Array, params: ValidateParams): Promise<ValidationResult> {
  checkParams(params);
  const s = stage1(bytes);
  if (s.done) return s.result;
  // A registry failure is the caller's outage, not hostile input: it propagates.
  const keys = await params.registry.keysFor(s.envelope.sender);
  return stage2(bytes, s.envelope, s.senderHex, keys, params);
}

/** {@link validateEnvelope} with a synchronous registry (the hot path of the observer). */
export function validateEnvelopeSync(bytes: Uint8Array, params: ValidateSyncParams): ValidationResult {
  checkParams(params);
  const s = stage1(bytes);
  if (s.done) return s.result;
  // A registry failure is the caller's outage, not hostile input: it propagates.
  const keys = params.registry.keysFor(s.envelope.sender);
  return stage2(bytes, s.envelope, s.senderHex, keys, params);
}

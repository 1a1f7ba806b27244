/**
 * The 0x01 envelope (docs/protocol.md §2): encode, strict decode, id, signature preimage, signing.
 */

import {
  asArray,
  asBytes,
  asInt,
  asSmallInt,
  type CborValue,
  encodeCanonical,
  U8_MAX,
  U16_MAX,
  U32_MAX,
  U64_MAX,
} from './cbor';
import { MAX_ENVELOPE_BYTES, PROTOCOL_VERSION } from './constants';
import { ed25519Sign, ed25519Verify, keccak256 } from './crypto';
import { readEnvelope } from './envelope-scan';
import { assertBytes, EncodeError } from './errors';
import type { Envelope } from './types';

/** Result of {@link decodeEnvelope}. */
export type DecodeEnvelopeResult = { ok: true; envelope: Envelope } | { ok: false; reason: 'decode'; detail: string };

function checkUint(name: string, v: number | bigint, max: bigint): void {
  if (typeof v === 'number' ? !Number.isSafeInteger(v) : typeof v !== 'bigint') {
    throw new TypeError(`${name} must be an integer`);
  }
  const b = BigInt(v);
  if (b < 0n || b > max) throw new RangeError(`${name} out of range: ${b}`);
}

function headerItems(e: Envelope): CborValue[] {
  checkUint('version', e.version, U8_MAX);
  checkUint('msgType', e.msgType, U16_MAX);
  assertBytes('sender', e.sender, 32);
  assertBytes('recipient', e.recipient, 32);
  checkUint('timestamp', e.timestamp, U64_MAX);
  checkUint('blockRef', e.blockRef, U64_MAX);
  checkUint('nonce', e.nonce, U64_MAX);
  assertBytes('conversationId', e.conversationId, 16);
  assertBytes('payloadHash', e.payloadHash, 32);
  checkUint('payloadLen', e.payloadLen, U32_MAX);
  return [
    e.version,
    e.msgType,
    e.sender,
    e.recipient,
    e.timestamp,
    e.blockRef,
    e.nonce,
    e.conversationId,
    e.payloadHash,
    e.payloadLen,
  ];
}

/**
 * Signature preimage (docs/protocol.md §2): canonical CBOR of the first 10 envelope items.
 * Throws TypeError/RangeError naming the field on a malformed envelope.
 */
export function signingPreimage(e: Envelope): Uint8Array {
  return encodeCanonical(headerItems(e));
}

/** Canonical CBOR of an envelope as the 12-item array of docs/protocol.md §2. Throws on caller misuse. */
export function encodeEnvelope(e: Envelope): Uint8Array {
  const items = headerItems(e);
  assertBytes('payload', e.payload);
  assertBytes('signature', e.signature, 64);
  items.push(e.payload, e.signature);
  const bytes = encodeCanonical(items);
  if (bytes.length > MAX_ENVELOPE_BYTES)
    throw new EncodeError(`envelope is ${bytes.length} bytes, max ${MAX_ENVELOPE_BYTES}`);
  return bytes;
}

/** Builds an Envelope from a decoded 12-item (envelope) or 10-item (preimage) CBOR array. */
export function envelopeFromItems(v: CborValue): Envelope {
  const a = asArray(v, 12, 'envelope');
  return {
    version: asSmallInt(a[0], 'version', 0, 0xff),
    msgType: asSmallInt(a[1], 'msg_type', 0, 0xffff),
    sender: asBytes(a[2], 'sender', 32),
    recipient: asBytes(a[3], 'recipient', 32),
    timestamp: asInt(a[4], 'timestamp', 0n, U64_MAX),
    blockRef: asInt(a[5], 'block_ref', 0n, U64_MAX),
    nonce: asInt(a[6], 'nonce', 0n, U64_MAX),
    conversationId: asBytes(a[7], 'conversation_id', 16),
    payloadHash: asBytes(a[8], 'payload_hash', 32),
    payloadLen: asSmallInt(a[9], 'payload_len', 0, 0xffffffff),
    payload: asBytes(a[10], 'payload'),
    signature: asBytes(a[11], 'signature', 64),
  };
}

/**
 * Strict decode of an encoded envelope (docs/protocol.md §1–2): size, canonical CBOR, 12 items,
 * types, lengths and integer ranges. Never throws.
 */
export function decodeEnvelope(bytes: Uint8Array): DecodeEnvelopeResult {
  if (!(bytes instanceof Uint8Array)) return { ok: false, reason: 'decode', detail: 'not a Uint8Array' };
  if (bytes.length > MAX_ENVELOPE_BYTES) {
    return { ok: false, reason: 'decode', detail: `size ${bytes.length} > ${MAX_ENVELOPE_BYTES}` };
  }
  if (bytes.length === 0 || bytes[0] !== 0x8c) return { ok: false, reason: 'decode', detail: 'not a 12-item array' };
  // One pass over the fixed 12-item layout (envelope-scan.ts): canonical heads, types,
  // lengths and ranges, fields read from a private copy.
  const r = readEnvelope(bytes);
  if (typeof r === 'string') return { ok: false, reason: 'decode', detail: r };
  return { ok: true, envelope: r.envelope };
}

/** Envelope id (docs/protocol.md §3): keccak256 of the whole encoded envelope. */
export function envelopeId(bytes: Uint8Array): Uint8Array {
  assertBytes('bytes', bytes);
  return keccak256(bytes);
}

/** Signs the envelope's preimage with a 32-byte Ed25519 seed; returns the envelope with `signature` set. */
export function signEnvelope(e: Envelope, secretKey: Uint8Array): Envelope {
  assertBytes('secretKey', secretKey, 32);
  return { ...e, signature: ed25519Sign(signingPreimage(e), secretKey) };
}

/** True when `e.signature` verifies under `publicKey` (RFC 8032 strict, docs/protocol.md §2). Never throws. */
export function verifyEnvelopeSignature(e: Envelope, publicKey: Uint8Array): boolean {
  try {
    return ed25519Verify(e.signature, signingPreimage(e), publicKey);
  } catch {
    return false;
  }
}

/** Parameters of {@link buildEnvelope}; `recipient` defaults to broadcast, `blockRef` to 0, `version` to 1. */
export interface BuildEnvelopeParams {
  msgType: number;
  sender: Uint8Array;
  recipient?: Uint8Array;
  timestamp: bigint;
  blockRef?: bigint;
  nonce: bigint;
  conversationId: Uint8Array;
  payload: Uint8Array;
  version?: number;
}

/** Result of {@link buildEnvelope}. */
export interface BuildEnvelopeResult {
  envelope: Envelope;
  bytes: Uint8Array;
  id: Uint8Array;
}

/**
 * Builds, hashes and signs an envelope (docs/protocol.md §2): payload_hash = keccak256(payload),
 * payload_len = its length, signature over the preimage with the 32-byte Ed25519 seed.
 */
export function buildEnvelope(params: BuildEnvelopeParams, secretKey: Uint8Array): BuildEnvelopeResult {
  assertBytes('payload', params.payload);
  const unsigned: Envelope = {
    version: params.version ?? PROTOCOL_VERSION,
    msgType: params.msgType,
    sender: params.sender,
    recipient: params.recipient ?? new Uint8Array(32),
    timestamp: params.timestamp,
    blockRef: params.blockRef ?? 0n,
    nonce: params.nonce,
    conversationId: params.conversationId,
    payloadHash: keccak256(params.payload),
    payloadLen: params.payload.length,
    payload: params.payload,
    signature: new Uint8Array(64),
  };
  const envelope = signEnvelope(unsigned, secretKey);
  const bytes = encodeEnvelope(envelope);
  return { envelope, bytes, id: keccak256(bytes) };
}

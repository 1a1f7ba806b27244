/**
 * Negotiation payloads (docs/protocol.md §8): NEG1 offers, NEGC sealed reservation commitments,
 * NEGR reveals, and the ZOPA commitment check. Decoders never throw.
 */
import {
  asArray,
  asBytes,
  asInt,
  type CborValue,
  decodeCanonical,
  encodeCanonical,
  I128_MAX,
  I128_MIN,
  U64_MAX,
} from './cbor';
import { sha256 } from './crypto';
import { assertBytes, DecodeError } from './errors';
import { bytesEqual, concatBytes } from './hex';

/** Result of a NEG1/NEGC/NEGR decoder. */
export type NegResult<T> = { ok: true; value: T } | { ok: false; detail: string };

/** Refusal / rejection reasons of NEG1 item 8. */
export const Neg1Reason = {
  NONE: 0,
  CAPABILITY_MISMATCH: 1,
  CONSTRAINT_CONFLICT: 2,
  TRUST_INSUFFICIENT: 3,
  PRICE: 4,
  TIMEOUT: 5,
  ABORT: 6,
} as const;

/** A NEG1 payload (docs/protocol.md §8). */
export interface Neg1Payload {
  /** Price in the token's smallest unit, int128 range. */
  bidValue: bigint;
  /** 32 bytes, zeros = unspecified. */
  tokenMint: Uint8Array;
  /** SHA-256 of the service description, 32 bytes. */
  serviceHash: Uint8Array;
  /** 0-based round. */
  round: number;
  /** Unix seconds, 0 = none. */
  deadline: bigint;
  /** 0..1000, Haggle escrow decay per round. */
  decayBps: number;
  /** 1..20 */
  maxRounds: number;
  /** Handshake tier 0..2 and the test suite hash (32 bytes or empty). */
  verification: { tier: number; testSuiteHash: Uint8Array };
  /** 0..6, see {@link Neg1Reason}. */
  reason: number;
  /** At most 64 bytes. */
  metadata: Uint8Array;
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
export const NEG1_PREFIX = ascii('NEG1');
export const NEGC_PREFIX = ascii('NEGC');
export const NEGR_PREFIX = ascii('NEGR');

function hasPrefix(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === prefix[0] &&
    bytes[1] === prefix[1] &&
    bytes[2] === prefix[2] &&
    bytes[3] === prefix[3]
  );
}

function checkRange(name: string, v: number | bigint, min: bigint, max: bigint): void {
  if (typeof v === 'number' ? !Number.isSafeInteger(v) : typeof v !== 'bigint')
    throw new TypeError(`${name} must be an integer`);
  const b = BigInt(v);
  if (b < min || b > max) throw new RangeError(`${name} must be in ${min}..${max}, got ${b}`);
}

/** Encodes a NEG1 payload, including the 4-byte 'NEG1' prefix (docs/protocol.md §8). */
export function encodeNeg1(p: Neg1Payload): Uint8Array {
  checkRange('bidValue', p.bidValue, I128_MIN, I128_MAX);
  assertBytes('tokenMint', p.tokenMint, 32);
  assertBytes('serviceHash', p.serviceHash, 32);
  checkRange('round', p.round, 0n, U64_MAX);
  checkRange('deadline', p.deadline, 0n, U64_MAX);
  checkRange('decayBps', p.decayBps, 0n, 1000n);
  checkRange('maxRounds', p.maxRounds, 1n, 20n);
  checkRange('verification.tier', p.verification?.tier, 0n, 2n);
  assertBytes('verification.testSuiteHash', p.verification.testSuiteHash);
  if (p.verification.testSuiteHash.length !== 0 && p.verification.testSuiteHash.length !== 32) {
    throw new RangeError('verification.testSuiteHash must be 32 or 0 bytes');
  }
  checkRange('reason', p.reason, 0n, 6n);
  assertBytes('metadata', p.metadata);
  if (p.metadata.length > 64) throw new RangeError('metadata must be at most 64 bytes');
  const items: CborValue[] = [
    p.bidValue,
    p.tokenMint,
    p.serviceHash,
    p.round,
    p.deadline,
    p.decayBps,
    p.maxRounds,
    [p.verification.tier, p.verification.testSuiteHash],
    p.reason,
    p.metadata,
  ];
  return concatBytes(NEG1_PREFIX, encodeCanonical(items));
}

function neg1FromCbor(v: CborValue): Neg1Payload {
  const a = asArray(v, 10, 'NEG1');
  const ver = asArray(a[7], 2, 'verification');
  const testSuiteHash = asBytes(ver[1], 'test_suite_hash');
  if (testSuiteHash.length !== 0 && testSuiteHash.length !== 32)
    throw new DecodeError('test_suite_hash: expected 32 or 0 bytes');
  const metadata = asBytes(a[9], 'metadata');
  if (metadata.length > 64) throw new DecodeError('metadata: more than 64 bytes');
  const round = asInt(a[3], 'round', 0n, U64_MAX);
  if (round > BigInt(Number.MAX_SAFE_INTEGER)) throw new DecodeError('round: beyond 2^53');
  return {
    bidValue: asInt(a[0], 'bid_value', I128_MIN, I128_MAX),
    tokenMint: asBytes(a[1], 'token_mint', 32),
    serviceHash: asBytes(a[2], 'service_hash', 32),
    round: Number(round),
    deadline: asInt(a[4], 'deadline', 0n, U64_MAX),
    decayBps: Number(asInt(a[5], 'decay_bps', 0n, 1000n)),
    maxRounds: Number(asInt(a[6], 'max_rounds', 1n, 20n)),
    verification: { tier: Number(asInt(ver[0], 'tier', 0n, 2n)), testSuiteHash },
    reason: Number(asInt(a[8], 'reason', 0n, 6n)),
    metadata,
  };
}

function guard<T>(f: () => T): NegResult<T> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, detail: e instanceof Error ? e.message : String(e) };
  }
}

/** Decodes a NEG1 payload (prefix included), strict canonical CBOR (docs/protocol.md §1, §8). Never throws. */
export function decodeNeg1(bytes: Uint8Array): NegResult<Neg1Payload> {
  if (!(bytes instanceof Uint8Array) || !hasPrefix(bytes, NEG1_PREFIX))
    return { ok: false, detail: "missing 'NEG1' prefix" };
  return guard(() => neg1FromCbor(decodeCanonical(bytes.subarray(4))));
}

/** 16-byte big-endian two's complement of an int128 (docs/protocol.md §8 NEGC). */
export function int128ToBytes(v: bigint): Uint8Array {
  checkRange('price', v, I128_MIN, I128_MAX);
  let u = BigInt.asUintN(128, v);
  const out = new Uint8Array(16);
  for (let i = 15; i >= 0; i--) {
    out[i] = Number(u & 0xffn);
    u >>= 8n;
  }
  return out;
}

/** Reservation price commitment: SHA-256(price as int128 BE || 32-byte salt) (docs/protocol.md §8). */
export function makeReservationCommitment(price: bigint, salt: Uint8Array): Uint8Array {
  assertBytes('salt', salt, 32);
  return sha256(concatBytes(int128ToBytes(price), salt));
}

/** NEGC payload: 'NEGC' + bstr(32) commitment (docs/protocol.md §8). */
export function encodeNegCommit(commitment: Uint8Array): Uint8Array {
  assertBytes('commitment', commitment, 32);
  return concatBytes(NEGC_PREFIX, encodeCanonical(commitment));
}

/** Decodes a NEGC payload to its 32-byte commitment. Never throws. */
export function decodeNegCommit(bytes: Uint8Array): NegResult<Uint8Array> {
  if (!(bytes instanceof Uint8Array) || !hasPrefix(bytes, NEGC_PREFIX))
    return { ok: false, detail: "missing 'NEGC' prefix" };
  return guard(() => asBytes(decodeCanonical(bytes.subarray(4)), 'commitment', 32));
}

/** A revealed reservation price (NEGR, docs/protocol.md §8). */
export interface NegReveal {
  price: bigint;
  salt: Uint8Array;
}

/** NEGR payload: 'NEGR' + [price int, salt bstr(32)] (docs/protocol.md §8). */
export function encodeNegReveal(r: NegReveal): Uint8Array {
  checkRange('price', r.price, I128_MIN, I128_MAX);
  assertBytes('salt', r.salt, 32);
  return concatBytes(NEGR_PREFIX, encodeCanonical([r.price, r.salt]));
}

/** Decodes a NEGR payload. Never throws. */
export function decodeNegReveal(bytes: Uint8Array): NegResult<NegReveal> {
  if (!(bytes instanceof Uint8Array) || !hasPrefix(bytes, NEGR_PREFIX))
    return { ok: false, detail: "missing 'NEGR' prefix" };
  return guard(() => {
    const a = asArray(decodeCanonical(bytes.subarray(4)), 2, 'NEGR');
    return { price: asInt(a[0], 'price', I128_MIN, I128_MAX), salt: asBytes(a[1], 'salt', 32) };
  });
}

/** True when `reveal` opens `commitment` (docs/protocol.md §8 sealed-bid ZOPA). Never throws. */
export function checkZopaCommitment(commitment: Uint8Array, reveal: NegReveal): boolean {
  try {
    return bytesEqual(makeReservationCommitment(reveal.price, reveal.salt), commitment);
  } catch {
    return false;
  }
}

/** A PROPOSE/COUNTER/ACCEPT/REJECT payload classified by its format hint (docs/protocol.md §8). */
export type NegotiationPayload =
  | { kind: 'neg1'; neg1: Neg1Payload }
  | { kind: 'negc'; commitment: Uint8Array }
  | { kind: 'negr'; reveal: NegReveal }
  | { kind: 'opaque' /** set when a known hint was present but the bytes did not parse */; error?: string };

/** Classifies a negotiation payload by its hint; malformed hinted payloads are opaque with `error`. */
export function parseNegotiationPayload(bytes: Uint8Array): NegotiationPayload {
  if (!(bytes instanceof Uint8Array) || bytes.length < 4) return { kind: 'opaque' };
  if (hasPrefix(bytes, NEG1_PREFIX)) {
    const r = decodeNeg1(bytes);
    return r.ok ? { kind: 'neg1', neg1: r.value } : { kind: 'opaque', error: r.detail };
  }
  if (hasPrefix(bytes, NEGC_PREFIX)) {
    const r = decodeNegCommit(bytes);
    return r.ok ? { kind: 'negc', commitment: r.value } : { kind: 'opaque', error: r.detail };
  }
  if (hasPrefix(bytes, NEGR_PREFIX)) {
    const r = decodeNegReveal(bytes);
    return r.ok ? { kind: 'negr', reveal: r.value } : { kind: 'opaque', error: r.detail };
  }
  return { kind: 'opaque' };
}

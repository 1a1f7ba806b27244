/**
 * The one JSON codec of the server <-> browser contract: bytes travel as lowercase hex without a
 * prefix, 64-bit (and wider) integers as decimal strings, so no value loses precision in a
 * JavaScript number. Browser-safe: no Node APIs. Parse helpers throw a `WireError` naming what
 * was wrong; the zod schemas carry the same rules for whole documents.
 */
import { z } from 'zod';
import { BaseError } from '../protocol/errors';
import { fromCanonicalHex, toHex } from '../protocol/hex';

/** Bad input to a wire parse helper: the message names the field and the rule it broke. */
export class WireError extends BaseError {
  override name = 'WireError';
}

/** Largest u64, 2^64 - 1. */
export const U64_MAX = (1n << 64n) - 1n;
/** Smallest and largest i64. */
export const I64_MIN = -(1n << 63n);
export const I64_MAX = (1n << 63n) - 1n;

const HEX_RE = /^(?:[0-9a-f]{2})*$/;
// Canonical decimal: what bigint.toString() writes, so a value has exactly one wire form.
const UINT_RE = /^(?:0|[1-9][0-9]*)$/;
const INT_RE = /^(?:0|-?[1-9][0-9]*)$/;
const BASE58_RE = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** Lowercase hex of `bytes` (no prefix). */
export function bytesToHex(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array)) throw new WireError('bytesToHex: expected a Uint8Array');
  return toHex(bytes);
}

/**
 * Bytes of a wire hex string: lowercase, even length, no prefix; with `length`, exactly that
 * many bytes. Throws WireError naming `what` otherwise.
 */
export function hexToBytes(hex: string, length?: number, what = 'hex'): Uint8Array {
  if (typeof hex !== 'string') throw new WireError(`${what}: expected a string`);
  const out = fromCanonicalHex(hex);
  if (!out)
    throw new WireError(`${what}: must be lowercase hex of even length (got ${JSON.stringify(hex.slice(0, 80))})`);
  if (length !== undefined && out.length !== length)
    throw new WireError(`${what}: must be ${length} bytes (${length * 2} hex characters), got ${out.length}`);
  return out;
}

/** Decimal string of an integer (the wire form of bigint). */
export function bigintToDecimal(v: bigint): string {
  if (typeof v !== 'bigint') throw new WireError('bigintToDecimal: expected a bigint');
  return v.toString();
}

/**
 * A bigint from a canonical decimal string (no sign for `min >= 0`, no leading zeros, no
 * spaces), checked against [min, max]. Throws WireError naming `what`.
 */
export function decimalToBigint(s: string, what = 'integer', min?: bigint, max?: bigint): bigint {
  if (typeof s !== 'string') throw new WireError(`${what}: expected a decimal string`);
  const unsigned = min !== undefined && min >= 0n;
  if (!(unsigned ? UINT_RE : INT_RE).test(s))
    throw new WireError(
      `${what}: must be a ${unsigned ? 'non-negative ' : ''}decimal ` +
        `integer string (got ${JSON.stringify(s.slice(0, 80))})`,
    );
  const v = BigInt(s);
  if (min !== undefined && v < min) throw new WireError(`${what}: ${s} is below ${min}`);
  if (max !== undefined && v > max) throw new WireError(`${what}: ${s} is above ${max}`);
  return v;
}

/** A u64 from its decimal wire form. */
export const parseU64 = (s: string, what = 'u64'): bigint => decimalToBigint(s, what, 0n, U64_MAX);
/** An i64 from its decimal wire form. */
export const parseI64 = (s: string, what = 'i64'): bigint => decimalToBigint(s, what, I64_MIN, I64_MAX);

/**
 * JSON.stringify replacer for the wire: bigint -> decimal string, any Uint8Array (Node Buffers
 * included, which JSON.stringify would otherwise turn into `{type, data}`) -> lowercase hex.
 */
export function jsonReplacer(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  const original = this !== null && typeof this === 'object' ? (this as Record<string, unknown>)[key] : value;
  if (original instanceof Uint8Array) return toHex(original);
  return value;
}

/** JSON text of `value` with {@link jsonReplacer}. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, jsonReplacer);
}

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/* ---------- zod schemas of the wire forms ---------- */

/** Lowercase hex of any number of bytes. */
export const hexBytes = z.string().regex(HEX_RE, 'must be lowercase hex of even length');

/** Lowercase hex of exactly `bytes` bytes. */
export function hexOf(bytes: number): z.ZodString {
  return z
    .string()
    .regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`), `must be ${bytes * 2} lowercase hex characters (${bytes} bytes)`);
}

/** 32 bytes as hex: agent ids, envelope ids, hashes, merkle roots. */
export const hex32 = hexOf(32);
/** 16 bytes as hex: conversation ids. */
export const hex16 = hexOf(16);

// zod runs every check even after one failed, so the range check must not assume the pattern held.
const decimalIn = (re: RegExp, min: bigint | undefined, max: bigint | undefined, label: string) =>
  z
    .string()
    .regex(re, `must be a canonical ${label} decimal string`)
    .refine(
      (s) => !re.test(s) || ((min === undefined || BigInt(s) >= min) && (max === undefined || BigInt(s) <= max)),
      `out of the ${label} range`,
    );

/** u64 as a decimal string. */
export const u64String = decimalIn(UINT_RE, 0n, U64_MAX, 'u64');
/** i64 as a decimal string. */
export const i64String = decimalIn(INT_RE, I64_MIN, I64_MAX, 'i64');
/** Any integer as a decimal string (reputation fixed point, sums). */
export const intString = decimalIn(INT_RE, undefined, undefined, 'integer');

/** u64 decimal string parsed to bigint. */
export const u64 = u64String.transform((s) => BigInt(s));
/** Hex of exactly `bytes` bytes parsed to a Uint8Array. */
export const bytesOf = (bytes: number) => hexOf(bytes).transform((s) => hexToBytes(s));

/** A Solana address (base58 public key). */
export const base58Address = z.string().regex(BASE58_RE, 'must be a base58 address');

/** A non-negative safe integer (counts, lengths, small protocol fields). */
export const nonNegInt = z.number().int().nonnegative();

/** Unix milliseconds (the producers' clocks; not necessarily whole in tests). */
export const unixMs = z.number();

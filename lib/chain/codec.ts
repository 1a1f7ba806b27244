/**
 * Fixed-layout little-endian field codec shared by the generated program codecs (lib/chain/gen/*).
 * Layouts come from programs/<name>/program.json (programs/README.md); the C side reads the same
 * bytes through the generated packed structs in programs/include/gen/*.h.
 */

import { PublicKey } from '@solana/web3.js';
import { Buffer } from 'buffer';

/** Field types of a program description. `bytesN` is a fixed byte array, `padN` zero padding. */
export type FieldType = 'u8' | 'u16' | 'u32' | 'u64' | 'i64' | 'pubkey' | `bytes${number}` | `pad${number}`;
export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
}

/** Byte size of one field type. */
export function fieldSize(t: FieldType): number {
  switch (t) {
    case 'u8':
      return 1;
    case 'u16':
      return 2;
    case 'u32':
      return 4;
    case 'u64':
    case 'i64':
      return 8;
    case 'pubkey':
      return 32;
  }
  const m = /^(bytes|pad)(\d+)$/.exec(t);
  if (!m) throw new TypeError(`unknown field type ${t}`);
  return Number(m[2]);
}

/** Total size of a field list. */
export function layoutSize(fields: readonly FieldSpec[]): number {
  return fields.reduce((n, f) => n + fieldSize(f.type), 0);
}

/** Encodes `value`'s fields after `prefix` (a discriminator or an instruction tag). */
export function encodeFields(
  prefix: Uint8Array,
  fields: readonly FieldSpec[],
  value: Record<string, unknown>,
): Uint8Array {
  const out = new Uint8Array(prefix.length + layoutSize(fields));
  out.set(prefix);
  const dv = new DataView(out.buffer);
  let o = prefix.length;
  for (const f of fields) {
    const v = value[f.name];
    const size = fieldSize(f.type);
    if (f.type.startsWith('pad')) {
      o += size;
      continue;
    }
    switch (f.type) {
      case 'u8':
        dv.setUint8(o, checkInt(f.name, v, 8));
        break;
      case 'u16':
        dv.setUint16(o, checkInt(f.name, v, 16), true);
        break;
      case 'u32':
        dv.setUint32(o, checkInt(f.name, v, 32), true);
        break;
      case 'u64':
        dv.setBigUint64(o, checkBig(f.name, v, false), true);
        break;
      case 'i64':
        dv.setBigInt64(o, checkBig(f.name, v, true), true);
        break;
      case 'pubkey':
        if (!(v instanceof PublicKey)) throw new TypeError(`${f.name} must be a PublicKey`);
        out.set(v.toBytes(), o);
        break;
      default:
        if (!(v instanceof Uint8Array) || v.length !== size)
          throw new TypeError(`${f.name} must be a Uint8Array of ${size} bytes`);
        out.set(v, o);
    }
    o += size;
  }
  return out;
}

/**
 * Decodes fields after a prefix of `prefixLen` bytes. Hostile input never throws: a buffer shorter
 * than the layout gives null. Longer buffers are accepted only when `allowTrailing` (accounts may be
 * allocated larger than their layout); events and instructions must match exactly.
 */
export function decodeFields<T>(
  data: Uint8Array,
  prefixLen: number,
  fields: readonly FieldSpec[],
  allowTrailing = false,
): T | null {
  const size = prefixLen + layoutSize(fields);
  if (data.length < size || (!allowTrailing && data.length !== size)) return null;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out: Record<string, unknown> = {};
  let o = prefixLen;
  for (const f of fields) {
    const s = fieldSize(f.type);
    switch (f.type) {
      case 'u8':
        out[f.name] = dv.getUint8(o);
        break;
      case 'u16':
        out[f.name] = dv.getUint16(o, true);
        break;
      case 'u32':
        out[f.name] = dv.getUint32(o, true);
        break;
      case 'u64':
        out[f.name] = dv.getBigUint64(o, true);
        break;
      case 'i64':
        out[f.name] = dv.getBigInt64(o, true);
        break;
      case 'pubkey':
        out[f.name] = new PublicKey(data.subarray(o, o + 32));
        break;
      default:
        if (!f.type.startsWith('pad')) out[f.name] = data.slice(o, o + s);
    }
    o += s;
  }
  return out as T;
}

/** True when `data` starts with the 8-byte discriminator `disc`. */
export function hasDiscriminator(data: Uint8Array, disc: Uint8Array): boolean {
  if (data.length < 8) return false;
  for (let i = 0; i < 8; i++) if (data[i] !== disc[i]) return false;
  return true;
}

function checkInt(name: string, v: unknown, bits: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= 2 ** bits)
    throw new RangeError(`${name} must be a u${bits}`);
  return v;
}

function checkBig(name: string, v: unknown, signed: boolean): bigint {
  if (typeof v !== 'bigint') throw new TypeError(`${name} must be a bigint`);
  const ok = signed ? v >= -(2n ** 63n) && v < 2n ** 63n : v >= 0n && v < 2n ** 64n;
  if (!ok) throw new RangeError(`${name} is out of range for ${signed ? 'i64' : 'u64'}`);
  return v;
}

/**
 * Instruction data as web3.js wants it (a Buffer). Imported from the `buffer` package, which
 * browser bundlers resolve to the same polyfill web3.js itself uses, so no global is needed.
 */
export function instructionData(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

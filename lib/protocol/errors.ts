/**
 * Typed errors of lib/protocol. Hostile bytes never throw: they
 * return `{ ok: false, reason }`. These errors are for caller misuse and internal decode paths.
 */

/** Base of every lib/protocol error; carries an optional `cause`. */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

/**
 * Bytes that are not the canonical encoding docs/protocol.md §1 requires. Thrown only inside
 * decoders and caught at their boundary, where it becomes `{ ok: false, reason: 'decode' }`.
 */
export class DecodeError extends ProtocolError {
  override name = 'DecodeError';
}

/** A value the caller passed cannot be encoded (wrong length, out of range). */
export class EncodeError extends ProtocolError {
  override name = 'EncodeError';
}

/** Throws a TypeError naming the argument when `bytes` is not a Uint8Array of `len` bytes. */
export function assertBytes(name: string, bytes: unknown, len?: number): asserts bytes is Uint8Array {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array`);
  if (len !== undefined && bytes.length !== len) {
    throw new RangeError(`${name} must be ${len} bytes, got ${bytes.length}`);
  }
}

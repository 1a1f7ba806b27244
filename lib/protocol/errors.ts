/**
 * Typed errors of lib/protocol. Hostile bytes never throw: they
 * return `{ ok: false, reason }`. These errors are for caller misuse and internal decode paths.
 */

/**
 * The one base of the project's own errors, in every layer (lib/protocol is the folder every
 * layer may import): a sentence (`message`), optional structured `details` for logs and callers
 * that branch on facts rather than words, and the standard `cause`. Each subclass keeps its own
 * `name`, so `instanceof` and matching by name (across module copies) work as before.
 */
export class BaseError extends Error {
  override name = 'BaseError';
  /** Facts about the failure (ids, limits, counts); unset when there are none. */
  declare readonly details?: Readonly<Record<string, unknown>>;

  constructor(message?: string, options?: { cause?: unknown; details?: Readonly<Record<string, unknown>> }) {
    // Only a given `cause` becomes the property, as with Error itself.
    super(message, options && 'cause' in options ? { cause: options.cause } : undefined);
    if (options?.details !== undefined)
      Object.defineProperty(this, 'details', {
        value: options.details,
        enumerable: false,
        writable: false,
        configurable: true,
      });
  }
}

/** Base of every lib/protocol error; carries an optional `cause`. */
export class ProtocolError extends BaseError {
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

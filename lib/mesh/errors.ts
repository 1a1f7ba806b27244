/**
 * Typed errors of lib/mesh. Hostile network input never throws: it
 * becomes a drop reported through `onDrop`. These errors are for local failures.
 */

import { BaseError } from '../protocol/errors';

/** Base of every lib/mesh error; carries an optional `cause`. */
export class MeshError extends BaseError {
  override name = 'MeshError';
}

/** The node is stopped (or stopping) and cannot publish, send or dial. */
export class MeshStoppedError extends MeshError {
  override name = 'MeshStoppedError';
}

/** Opening or writing the `/0x01/v1/envelope` stream to a peer failed (docs/protocol.md §9). */
export class MeshSendError extends MeshError {
  override name = 'MeshSendError';
}

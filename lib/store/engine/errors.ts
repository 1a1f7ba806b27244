/**
 * Typed errors of lib/store. One base with `cause` and an explicit name.
 */

import { BaseError } from '../../protocol/errors';

/** Base error of the store: database, migration or schema-engine failures. */
export class StoreError extends BaseError {
  override name = 'StoreError';
}

/** Applying the migrations at start failed; `cause` holds the engine's or database's error. */
export class MigrationError extends StoreError {
  override name = 'MigrationError';
}

/** The store was used after `close()`. */
export class StoreClosedError extends StoreError {
  override name = 'StoreClosedError';
  constructor() {
    super('store is closed');
  }
}

/** Node socket errors that mean "the server is not there right now". */
const TRANSIENT_SOCKET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** pg's own messages for a connection it lost or could not make. */
const TRANSIENT_MESSAGE = new RegExp(
  String.raw`\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE)\b|` +
    'Connection terminated|timeout exceeded when trying to connect|not ' +
    'queryable|Connection refused|the database system is (starting up|' +
    'shutting down|in recovery mode)|terminating connection',
  'i',
);

/**
 * True when `err` says the database is unreachable for now (refused or dropped connection,
 * server shutting down or starting, too many connections) rather than that the statement is
 * wrong: the observer retries such a write later, and the API answers 503 instead of 500.
 * SQLSTATE classes: 08 connection exception, 57P01–57P03 operator intervention (shutdown,
 * crash, cannot connect now), 53300 too many connections.
 */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof StoreClosedError) return false;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      (code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300' || TRANSIENT_SOCKET.has(code))
    )
      return true;
    if (typeof message === 'string' && TRANSIENT_MESSAGE.test(message)) return true;
    // AggregateError (a dual-stack connect refused on every address).
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.some((x) => isStoreUnavailable(x))) return true;
  }
  return false;
}

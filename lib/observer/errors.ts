/**
 * Typed errors of lib/observer. Hostile input (envelopes, upload bodies) never throws: it
 * becomes a drop or a per-item result. These are for wiring failures (configuration errors are
 * server/config.ts's ConfigError).
 */

import { BaseError } from '../protocol/errors';

/** Base of every lib/observer error; carries an optional `cause`. */
export class ObserverError extends BaseError {
  override name = 'ObserverError';
}

/** The observatory was used before start or after stop. */
export class NotRunningError extends ObserverError {
  override name = 'NotRunningError';
}

/**
 * Typed errors of lib/observer (STYLE.md "Typed errors"). Hostile input (envelopes, upload
 * bodies) never throws: it becomes a drop or a per-item result. These are for configuration
 * and wiring failures.
 */

/** Base of every lib/observer error; carries an optional `cause`. */
export class ObserverError extends Error {
  override name = 'ObserverError';
}

/** An environment variable is missing or malformed; the message names the variable. */
export class ConfigError extends ObserverError {
  override name = 'ConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

/** The observatory was used before start or after stop. */
export class NotRunningError extends ObserverError {
  override name = 'NotRunningError';
}

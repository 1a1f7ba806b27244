/**
 * Typed errors of lib/chain's client side (identity, registry, economy, indexer). Browser-safe.
 * The embedded chain has its own in lib/devchain.
 */

import { BaseError } from '../protocol/errors';

/** Base of every lib/chain client error; carries an optional `cause`. */
export class ChainError extends BaseError {
  override name = 'ChainError';
}

/** A transaction was refused or failed on chain; `logs` and the custom program error if known. */
export class ChainTransactionError extends ChainError {
  override name = 'ChainTransactionError';
  constructor(
    message: string,
    readonly logs: readonly string[] = [],
    readonly code: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** An account the action needs is missing or not what it should be (config, identity, stake). */
export class ChainAccountError extends ChainError {
  override name = 'ChainAccountError';
}

/** Bad configuration (env, params): names the field. */
export class ChainConfigError extends ChainError {
  override name = 'ChainConfigError';
}

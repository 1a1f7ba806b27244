/**
 * Typed errors of lib/devchain. `RpcError` carries a JSON-RPC
 * 2.0 error code and is turned into an error response by the server; it never escapes a request.
 */

import { BaseError } from '../protocol/errors';

/** Base of every embedded-chain error; carries an optional `cause`. */
export class EmbeddedChainError extends BaseError {
  override name = 'EmbeddedChainError';
}

/** JSON-RPC 2.0 and Solana RPC error codes used by the server. */
export const RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Solana: preflight simulation failed. */
  sendTransactionPreflightFailure: -32002,
  /** Solana: signature verification failed. */
  transactionSignatureVerificationFailure: -32003,
  /** Solana: transaction version not supported by the requesting client. */
  unsupportedTransactionVersion: -32015,
} as const;

/** An error answered to the caller as a JSON-RPC error object. */
export class RpcError extends EmbeddedChainError {
  override name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** Shorthand for the most common RpcError: bad params (-32602). */
export function invalidParams(message: string): RpcError {
  return new RpcError(RPC_CODES.invalidParams, message);
}

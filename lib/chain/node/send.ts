/**
 * NODE-ONLY (server, scripts, tests): signs with Keypairs. Browser code builds with the lib/chain
 * SDK and lets the wallet sign.
 *
 * Sending transactions through JSON-RPC with web3.js (the same code path on the embedded chain
 * and on a cluster): build, sign, send with preflight, confirm through signatureSubscribe.
 * Failures become ChainTransactionError with the logs and the custom program error code, named
 * by the SDK's transaction-error decoder (lib/chain/tx-error.ts).
 */
import {
  type Commitment,
  type Connection,
  type Keypair,
  SendTransactionError,
  type Signer,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { ChainTransactionError } from '../errors';
import { customErrorCode, customErrorCodeFromLogs, decodeTransactionError } from '../tx-error';

export { customErrorCode };

/** Options of {@link sendIxs}. */
export interface SendOptions {
  /** Fee payer (default: the first signer). */
  feePayer?: Keypair;
  commitment?: Commitment;
  skipPreflight?: boolean;
}

/**
 * Signs `ixs` with `signers` (the first pays unless `feePayer`), sends and confirms; returns the
 * signature. Throws ChainTransactionError (logs, custom code) when refused or failed.
 */
export async function sendIxs(
  connection: Connection,
  ixs: readonly TransactionInstruction[],
  signers: readonly Signer[],
  opts: SendOptions = {},
): Promise<string> {
  return (await submitIxs(connection, ixs, signers, opts)).confirmed;
}

/**
 * {@link sendIxs} in two steps: resolves once the transaction is accepted (preflight passed,
 * signature known) with `confirmed`, a promise settled at confirmation. Lets a caller serialize
 * only the submission of transactions that depend on each other's order (SATI member numbers)
 * and wait for the confirmations together. `confirmed` rejects like sendIxs.
 */
export async function submitIxs(
  connection: Connection,
  ixs: readonly TransactionInstruction[],
  signers: readonly Signer[],
  opts: SendOptions = {},
): Promise<{ signature: string; confirmed: Promise<string> }> {
  if (!Array.isArray(ixs) || ixs.length === 0) throw new TypeError('ixs must be a non-empty array of instructions');
  if (!Array.isArray(signers) || signers.length === 0) throw new TypeError('signers must be a non-empty array');
  const commitment = opts.commitment ?? 'confirmed';
  const feePayer = opts.feePayer ?? signers[0];
  const all = opts.feePayer && !signers.includes(opts.feePayer) ? [opts.feePayer, ...signers] : [...signers];
  let signature = '';
  let blockhash = '',
    lastValidBlockHeight = 0;
  try {
    ({ blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash(commitment));
    const tx = new Transaction({ feePayer: feePayer.publicKey, blockhash, lastValidBlockHeight }).add(...ixs);
    tx.sign(...all);
    signature = await connection.sendRawTransaction(tx.serialize(), {
      skipPreflight: opts.skipPreflight ?? false,
      preflightCommitment: commitment,
    });
  } catch (e) {
    throw asChainError(e);
  }
  const confirmed = (async () => {
    try {
      const res = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, commitment);
      if (res.value.err) {
        const got = await connection
          .getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
          .catch(() => null);
        const logs = got?.meta?.logMessages ?? [];
        const d = decodeTransactionError(res.value.err, logs);
        throw new ChainTransactionError(`transaction ${signature} failed: ${d.message}`, logs, d.code);
      }
      return signature;
    } catch (e) {
      throw asChainError(e);
    }
  })();
  confirmed.catch(() => undefined); // the caller may only look at it later
  return { signature, confirmed };
}

function asChainError(e: unknown): ChainTransactionError {
  if (e instanceof ChainTransactionError) return e;
  if (e instanceof SendTransactionError) {
    const logs = e.logs ?? [];
    const code = customErrorCodeFromLogs(logs);
    return new ChainTransactionError(
      `transaction refused: ${code !== null ? decodeTransactionError(null, logs).message : e.message}`,
      logs,
      code,
      { cause: e },
    );
  }
  return new ChainTransactionError(`sending transaction failed: ${(e as Error)?.message ?? String(e)}`, [], null, {
    cause: e,
  });
}

/** Keypairs are for node-side senders only (demo agents, tests); browsers sign in the wallet. */
export { Keypair } from '@solana/web3.js';

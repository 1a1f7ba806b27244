/**
 * Sending transactions through JSON-RPC with web3.js (issue 5: the same code path on the
 * embedded chain and on a cluster): build, sign, send with preflight, confirm through
 * signatureSubscribe. Failures become ChainTransactionError with the logs and the custom
 * program error code (lib/chain/programs.ts programErrorMessage names it).
 */
import {
  SendTransactionError, Transaction, type Commitment, type Connection, type Keypair, type Signer, type TransactionInstruction,
} from '@solana/web3.js';
import { ChainTransactionError } from '../errors';
import { programErrorMessage } from '../programs';

/** Options of {@link sendIxs}. */
export interface SendOptions {
  /** Fee payer (default: the first signer). */
  feePayer?: Keypair;
  commitment?: Commitment;
  skipPreflight?: boolean;
}

/** The custom program error code in a transaction error JSON ({ InstructionError: [i, { Custom: n }] }), or null. */
export function customErrorCode(err: unknown): number | null {
  const ie = (err as { InstructionError?: unknown } | null)?.InstructionError;
  if (!Array.isArray(ie) || ie.length !== 2) return null;
  const c = (ie[1] as { Custom?: unknown } | null)?.Custom;
  return typeof c === 'number' ? c : null;
}

function codeFromLogs(logs: readonly string[]): number | null {
  for (const l of logs) {
    const m = /custom program error: 0x([0-9a-f]+)/i.exec(l);
    if (m) return parseInt(m[1], 16);
  }
  return null;
}

/**
 * Signs `ixs` with `signers` (the first pays unless `feePayer`), sends and confirms; returns the
 * signature. Throws ChainTransactionError (logs, custom code) when refused or failed.
 */
export async function sendIxs(connection: Connection, ixs: readonly TransactionInstruction[], signers: readonly Signer[], opts: SendOptions = {}): Promise<string> {
  if (!Array.isArray(ixs) || ixs.length === 0) throw new TypeError('ixs must be a non-empty array of instructions');
  if (!Array.isArray(signers) || signers.length === 0) throw new TypeError('signers must be a non-empty array');
  const commitment = opts.commitment ?? 'confirmed';
  const feePayer = opts.feePayer ?? signers[0];
  const all = opts.feePayer && !signers.includes(opts.feePayer) ? [opts.feePayer, ...signers] : [...signers];
  let signature = '';
  try {
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash(commitment);
    const tx = new Transaction({ feePayer: feePayer.publicKey, blockhash, lastValidBlockHeight }).add(...ixs);
    tx.sign(...all);
    signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: opts.skipPreflight ?? false, preflightCommitment: commitment });
    const res = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, commitment);
    if (res.value.err) {
      const got = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }).catch(() => null);
      const logs = got?.meta?.logMessages ?? [];
      const code = customErrorCode(res.value.err) ?? codeFromLogs(logs);
      throw new ChainTransactionError(`transaction ${signature} failed: ${describe(code, res.value.err)}`, logs, code);
    }
    return signature;
  } catch (e) {
    if (e instanceof ChainTransactionError) throw e;
    if (e instanceof SendTransactionError) {
      const logs = e.logs ?? [];
      const code = codeFromLogs(logs);
      throw new ChainTransactionError(`transaction refused: ${code !== null ? describe(code, null) : e.message}`, logs, code, { cause: e });
    }
    throw new ChainTransactionError(`sending transaction failed: ${(e as Error)?.message ?? String(e)}`, [], null, { cause: e });
  }
}

function describe(code: number | null, err: unknown): string {
  if (code !== null) return `custom program error ${code} (${programErrorMessage(code) ?? 'unknown'})`;
  return JSON.stringify(err);
}

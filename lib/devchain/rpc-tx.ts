/**
 * Transaction JSON-RPC methods: sendTransaction (with cluster-style
 * preflight), simulateTransaction, getSignatureStatuses, getTransaction,
 * getSignaturesForAddress, requestAirdrop, getFeeForMessage, getRecentPrioritizationFees.
 */
import { PublicKey } from '@solana/web3.js';
import { z } from 'zod';
import { type AccountView, encodeAccount } from './accounts';
import {
  LAMPORTS_PER_SIGNATURE,
  MAX_AIRDROP_LAMPORTS,
  MAX_SIGNATURE_STATUSES,
  MAX_SIGNATURES_LIMIT,
} from './constants';
import { invalidParams, RPC_CODES, RpcError } from './errors';
import type { ExecOutcome } from './ledger';
import { address, commitment, ctxConfig, type Handler, parseParams, type RpcContext, withContext } from './rpc-params';
import { transactionErrorMessage } from './tx-error';
import { transactionJson } from './tx-json';
import { decodeWireMessage, decodeWireTransaction, feeSignatures, fromBase58, type WireTransaction } from './wire';

const signature = z
  .string()
  .min(64)
  .max(88)
  .regex(/^[1-9A-HJ-NP-Za-km-z]+$/, 'Invalid param: Invalid');
const txEncoding = z.enum(['base58', 'base64']);

function decodeTx(encoded: string, encoding: 'base58' | 'base64' | undefined): WireTransaction {
  let bytes: Uint8Array | null = null;
  if ((encoding ?? 'base58') === 'base58') bytes = encoded.length <= 1683 ? fromBase58(encoded) : null;
  else if (encoded.length <= 1644 && /^[A-Za-z0-9+/]*={0,2}$/.test(encoded))
    bytes = new Uint8Array(Buffer.from(encoded, 'base64'));
  if (!bytes) throw invalidParams(`invalid transaction: failed to decode ${encoding ?? 'base58'} string`);
  const tx = decodeWireTransaction(bytes);
  if (!tx) throw invalidParams('invalid transaction: Transaction failed to sanitize accounts offsets correctly');
  return tx;
}

function preflightError(out: Pick<ExecOutcome, 'err' | 'logs' | 'unitsConsumed' | 'returnData'>): RpcError {
  if (out.err === 'SignatureFailure') {
    return new RpcError(
      RPC_CODES.transactionSignatureVerificationFailure,
      'Transaction signature verification failure',
    );
  }
  return new RpcError(
    RPC_CODES.sendTransactionPreflightFailure,
    `Transaction simulation failed: ${transactionErrorMessage(out.err ?? 'SanitizeFailure')}`,
    {
      accounts: null,
      err: out.err,
      innerInstructions: null,
      loadedAccountsDataSize: 0,
      logs: out.logs,
      replacementBlockhash: null,
      returnData: out.returnData,
      unitsConsumed: out.unitsConsumed,
    },
  );
}

const sendConfig = z.looseObject({
  skipPreflight: z.boolean().optional(),
  preflightCommitment: commitment.optional(),
  encoding: txEncoding.optional(),
  maxRetries: z.number().int().min(0).optional(),
  minContextSlot: z.number().int().min(0).optional(),
});

const simulateConfig = ctxConfig.extend({
  sigVerify: z.boolean().optional(),
  replaceRecentBlockhash: z.boolean().optional(),
  encoding: txEncoding.optional(),
  innerInstructions: z.boolean().optional(),
  accounts: z
    .object({
      addresses: z.array(address).max(100),
      encoding: z.enum(['base64', 'base64+zstd', 'jsonParsed']).optional(),
    })
    .optional(),
});

function status(ctx: RpcContext, sig: string) {
  const rec = ctx.ledger.history.status(sig);
  if (!rec) return null;
  return {
    slot: rec.slot,
    confirmations: null,
    err: rec.err,
    status: rec.err ? { Err: rec.err } : { Ok: null },
    confirmationStatus: 'finalized',
  };
}

export const txMethods: Record<string, Handler> = {
  sendTransaction(params, ctx) {
    const [encoded, cfg] = parseParams(params, z.tuple([z.string(), sendConfig.optional()]));
    const tx = decodeTx(encoded, cfg?.encoding);
    const sig = tx.signatures[0];
    const { ledger } = ctx;
    if (ledger.history.status(sig)) {
      if (cfg?.skipPreflight) return sig;
      throw preflightError({ err: 'AlreadyProcessed', logs: [], unitsConsumed: 0, returnData: null });
    }
    if (!cfg?.skipPreflight) {
      const sim = ledger.simulate(tx, { sigVerify: true, replaceRecentBlockhash: false });
      if (sim.err) throw preflightError(sim);
    } else if (!ledger.isBlockhashValid(tx.recentBlockhash)) {
      return sig; // a cluster drops it silently: it never confirms
    }
    const out = ledger.execute(tx);
    if (out.err === 'SignatureFailure') throw preflightError(out);
    return sig;
  },

  simulateTransaction(params, ctx) {
    const [encoded, cfg] = parseParams(params, z.tuple([z.string(), simulateConfig.optional()]));
    if (cfg?.sigVerify && cfg.replaceRecentBlockhash)
      throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
    const tx = decodeTx(encoded, cfg?.encoding);
    const sim = ctx.ledger.simulate(tx, {
      sigVerify: cfg?.sigVerify ?? false,
      replaceRecentBlockhash: cfg?.replaceRecentBlockhash ?? false,
    });
    let accounts: unknown = null;
    if (cfg?.accounts && !sim.err) {
      const enc = cfg.accounts.encoding === 'jsonParsed' ? 'jsonParsed' : 'base64';
      accounts = cfg.accounts.addresses.map((a) => {
        const acc: AccountView | null = sim.post.get(a) ?? ctx.ledger.readAccount(a);
        return acc && acc.lamports > 0n ? encodeAccount(acc, enc, undefined, ctx.ledger.decimalsOf) : null;
      });
    }
    const keyAt = (i: number) => tx.staticKeys[i] ?? tx.staticKeys[0];
    const inner = cfg?.innerInstructions
      ? sim.innerInstructions.map((g) => ({
          index: g.index,
          instructions: g.instructions.map((ix) => ({
            programId: keyAt(ix.programIdIndex),
            accounts: ix.accounts.map(keyAt),
            data: ix.data,
            stackHeight: ix.stackHeight,
          })),
        }))
      : null;
    return withContext(ctx, {
      err: sim.err,
      logs: sim.logs,
      accounts,
      unitsConsumed: sim.unitsConsumed,
      returnData: sim.returnData,
      innerInstructions: inner,
      loadedAccountsDataSize: 0,
      replacementBlockhash: cfg?.replaceRecentBlockhash ? ctx.ledger.latestBlockhash() : null,
    });
  },

  getSignatureStatuses(params, ctx) {
    const [sigs] = parseParams(
      params,
      z.tuple([
        z.array(signature).max(MAX_SIGNATURE_STATUSES),
        z.looseObject({ searchTransactionHistory: z.boolean().optional() }).optional(),
      ]),
    );
    return withContext(
      ctx,
      sigs.map((s) => status(ctx, s)),
    );
  },

  getTransaction(params, ctx) {
    const cfgSchema = z.union([
      z.enum(['json', 'jsonParsed', 'base64', 'base58']),
      ctxConfig.extend({
        encoding: z.enum(['json', 'jsonParsed', 'base64', 'base58']).optional(),
        maxSupportedTransactionVersion: z.number().int().min(0).optional(),
      }),
    ]);
    const [sig, raw] = parseParams(params, z.tuple([signature, cfgSchema.optional()]));
    const cfg = typeof raw === 'string' ? { encoding: raw, maxSupportedTransactionVersion: undefined } : raw;
    const rec = ctx.ledger.history.get(sig);
    if (!rec) return null;
    return transactionJson(rec, cfg?.encoding ?? 'json', cfg?.maxSupportedTransactionVersion);
  },

  getSignaturesForAddress(params, ctx) {
    const cfgSchema = ctxConfig.extend({
      limit: z.number().int().min(1).max(MAX_SIGNATURES_LIMIT).optional(),
      before: signature.optional(),
      until: signature.optional(),
    });
    const [addr, cfg] = parseParams(params, z.tuple([address, cfgSchema.optional()]));
    return ctx.ledger.history
      .signaturesFor(addr, { limit: cfg?.limit ?? MAX_SIGNATURES_LIMIT, before: cfg?.before, until: cfg?.until })
      .map((r) => ({
        signature: r.signature,
        slot: r.slot,
        err: r.err,
        memo: r.memo,
        blockTime: r.blockTime,
        confirmationStatus: 'finalized',
      }));
  },

  requestAirdrop(params, ctx) {
    const [addr, lamports] = parseParams(
      params,
      z.tuple([address, z.number().int().min(1).max(Number(MAX_AIRDROP_LAMPORTS)), ctxConfig.optional()]),
    );
    const out = ctx.ledger.airdrop(new PublicKey(addr), BigInt(lamports));
    if (out.err || !out.record)
      throw new RpcError(
        RPC_CODES.internalError,
        `airdrop failed: ${transactionErrorMessage(out.err ?? 'SanitizeFailure')}`,
      );
    return out.signature;
  },

  getFeeForMessage(params, ctx) {
    const [msg] = parseParams(params, z.tuple([z.string().max(1644), ctxConfig.optional()]));
    const b = /^[A-Za-z0-9+/]*={0,2}$/.test(msg) ? new Uint8Array(Buffer.from(msg, 'base64')) : new Uint8Array(0);
    const tx = decodeWireMessage(b);
    if (!tx) throw invalidParams('invalid message: failed to deserialize');
    // The fee the ledger charges: every signature, the precompiles' included.
    return withContext(
      ctx,
      ctx.ledger.isBlockhashValid(tx.recentBlockhash) ? LAMPORTS_PER_SIGNATURE * feeSignatures(tx) : null,
    );
  },

  getRecentPrioritizationFees(params, ctx) {
    parseParams(params, z.tuple([z.array(address).max(128).optional()]));
    return [{ slot: ctx.ledger.slot, prioritizationFee: 0 }];
  },
};

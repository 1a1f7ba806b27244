/**
 * getTransaction's result in Solana's shapes: encodings json, jsonParsed (instructions
 * partially decoded: no program-specific parsers), base64 and base58.
 */
import { RPC_CODES, RpcError } from './errors';
import type { TxRecord } from './history';
import { decodeWireTransaction, isStaticWritable, toBase58, type WireTransaction } from './wire';

export type TxEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

function metaJson(rec: TxRecord, keyAt: ((i: number) => string) | null) {
  const inner = keyAt
    ? rec.innerInstructions.map((g) => ({
        index: g.index,
        instructions: g.instructions.map((ix) => ({
          programId: keyAt(ix.programIdIndex),
          accounts: ix.accounts.map(keyAt),
          data: ix.data,
          stackHeight: ix.stackHeight,
        })),
      }))
    : rec.innerInstructions;
  const meta: Record<string, unknown> = {
    err: rec.err,
    status: rec.err ? { Err: rec.err } : { Ok: null },
    fee: rec.fee,
    preBalances: rec.preBalances,
    postBalances: rec.postBalances,
    innerInstructions: inner,
    logMessages: rec.logs,
    preTokenBalances: rec.preTokenBalances,
    postTokenBalances: rec.postTokenBalances,
    rewards: [],
    loadedAddresses: rec.loadedAddresses,
    computeUnitsConsumed: rec.computeUnitsConsumed,
  };
  if (rec.returnData) meta.returnData = rec.returnData;
  return meta;
}

function messageJson(tx: WireTransaction, rec: TxRecord, parsed: boolean) {
  const message: Record<string, unknown> = { recentBlockhash: tx.recentBlockhash };
  if (parsed) {
    const nStatic = tx.staticKeys.length;
    const nw = rec.loadedAddresses.writable.length;
    message.accountKeys = rec.accountKeys.map((pubkey, i) => ({
      pubkey,
      signer: i < tx.header.numRequiredSignatures,
      writable: i < nStatic ? isStaticWritable(tx, i) : i < nStatic + nw,
      source: i < nStatic ? 'transaction' : 'lookupTable',
    }));
    message.instructions = tx.instructions.map((ix) => ({
      programId: rec.accountKeys[ix.programIdIndex],
      accounts: ix.accounts.map((a) => rec.accountKeys[a]),
      data: toBase58(ix.data),
      stackHeight: null,
    }));
  } else {
    message.accountKeys = tx.staticKeys;
    message.header = tx.header;
    message.instructions = tx.instructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accounts,
      data: toBase58(ix.data),
      stackHeight: null,
    }));
  }
  if (tx.version === 0) message.addressTableLookups = tx.lookups;
  return message;
}

/** The getTransaction result for `rec`; -32015 for a v0 transaction without maxSupportedTransactionVersion. */
export function transactionJson(rec: TxRecord, encoding: TxEncoding, maxVersion: number | undefined) {
  const tx = decodeWireTransaction(rec.bytes) as WireTransaction;
  if (tx.version === 0 && maxVersion === undefined) {
    throw new RpcError(
      RPC_CODES.unsupportedTransactionVersion,
      'Transaction version (0) is not supported by the requesting client. Please try the request ' +
        'again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  const parsed = encoding === 'jsonParsed';
  let transaction: unknown;
  if (encoding === 'base64') transaction = [Buffer.from(rec.bytes).toString('base64'), 'base64'];
  else if (encoding === 'base58') transaction = [toBase58(rec.bytes), 'base58'];
  else transaction = { signatures: tx.signatures, message: messageJson(tx, rec, parsed) };
  const out: Record<string, unknown> = {
    slot: rec.slot,
    blockTime: rec.blockTime,
    transaction,
    meta: metaJson(rec, parsed ? (i) => rec.accountKeys[i] : null),
  };
  if (maxVersion !== undefined) out.version = tx.version;
  return out;
}

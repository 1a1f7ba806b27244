/**
 * The browser-safe chain SDK (docs/architecture.md "lib/chain"): program ids, PDAs, generated
 * account/instruction/event codecs, the event-log parser, the program error table and
 * transaction-error decoder, the challenge evidence encoding, and instruction builders for every
 * owner action taking public keys (the wallet signs). No node:* imports and no Keypairs: a client
 * component may import it. Sending with Keypairs lives in lib/chain/node (server only).
 */

/**
 * The web3.js primitives the rest of the repository speaks in. lib/chain owns the outside world
 * of @solana/*, so other layers (indexer, agents) take these from here rather than from web3.js.
 */
export {
  type AccountInfo,
  type Commitment,
  ComputeBudgetProgram,
  type ConfirmedSignatureInfo,
  Connection,
  PublicKey,
  SYSVAR_CLOCK_PUBKEY,
  SystemInstruction,
  SystemProgram,
  type TokenBalance,
  Transaction,
  TransactionInstruction,
  VersionedTransaction,
  type VersionedTransactionResponse,
} from '@solana/web3.js';
export * from './builders';
export * from './challenge-builders';
export * from './codec';
export * from './config';
export * from './errors';
export * from './events';
export * from './evidence';
export * from './haggle';
export * from './identity';
export * from './programs';
export * from './sati';
export * from './tx-error';
export * from './wallet-reads';

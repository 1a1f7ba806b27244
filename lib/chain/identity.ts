/**
 * Agent identity on chain (0x01 spec §10.1; docs/chain.md "Identity: SATI"): an agent id is a
 * Token-2022 mint with decimals 0 and supply 1 whose mint authority is removed; the identity
 * owner is the owner of the Token-2022 token account holding that 1 token. Browser-safe:
 * instruction builders taking public keys (the caller signs), the token-account decoder and the
 * holder lookup over JSON-RPC.
 */

import {
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  createSetAuthorityInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  getMintLen,
  TOKEN_2022_PROGRAM_ID,
} from '@solana/spl-token';
import { type Connection, PublicKey, SystemProgram, type TransactionInstruction } from '@solana/web3.js';

/** Byte offsets of an SPL Token / Token-2022 account (the base 165-byte layout). */
export const TOKEN_ACCOUNT_LAYOUT = {
  mint: 0,
  owner: 32,
  amount: 64,
  delegateTag: 72,
  delegate: 76,
  state: 108,
  size: 165,
} as const;

/**
 * Size of an identity mint account (Token-2022, no extensions); its rent is the `lamports` of {@link
 * createAgentIdentityInstructions}.
 */
export const IDENTITY_MINT_SIZE: number = getMintLen([]);

const isKey = (k: unknown): k is PublicKey => k instanceof PublicKey;

/** The associated Token-2022 account of `owner` for the identity `agent`. */
export function identityTokenAccount(agent: PublicKey, owner: PublicKey): PublicKey {
  if (!isKey(agent) || !isKey(owner)) throw new TypeError('agent and owner must be PublicKeys');
  return getAssociatedTokenAddressSync(agent, owner, true, TOKEN_2022_PROGRAM_ID);
}

/** Parameters of {@link createAgentIdentityInstructions}. */
export interface CreateAgentIdentityInstructionsParams {
  /** Pays rent and fees and is the temporary mint authority (signs). */
  payer: PublicKey;
  /** Wallet that will own the identity (default: payer). */
  owner?: PublicKey;
  /** The fresh mint account; its address becomes the agent id. The caller adds its Keypair as a signer. */
  mint: PublicKey;
  /** Rent-exempt lamports for {@link IDENTITY_MINT_SIZE} bytes (getMinimumBalanceForRentExemption). */
  lamports: number;
}

/**
 * Instructions minting a new agent identity in one transaction: create + initialize the
 * Token-2022 mint (decimals 0, no freeze authority), create the owner's associated account,
 * mint 1, remove the mint authority (supply fixed at 1). Signers: payer and mint.
 */
export function createAgentIdentityInstructions(p: CreateAgentIdentityInstructionsParams): TransactionInstruction[] {
  if (!isKey(p?.payer) || !isKey(p.mint)) throw new TypeError('payer and mint must be PublicKeys');
  const owner = p.owner ?? p.payer;
  if (!isKey(owner)) throw new TypeError('owner must be a PublicKey');
  if (!Number.isSafeInteger(p.lamports) || p.lamports < 0)
    throw new RangeError('lamports must be a non-negative integer');
  const ata = identityTokenAccount(p.mint, owner);
  return [
    SystemProgram.createAccount({
      fromPubkey: p.payer,
      newAccountPubkey: p.mint,
      space: IDENTITY_MINT_SIZE,
      lamports: p.lamports,
      programId: TOKEN_2022_PROGRAM_ID,
    }),
    createInitializeMint2Instruction(p.mint, 0, p.payer, null, TOKEN_2022_PROGRAM_ID),
    createAssociatedTokenAccountIdempotentInstruction(p.payer, ata, owner, p.mint, TOKEN_2022_PROGRAM_ID),
    createMintToInstruction(p.mint, ata, p.payer, 1n, [], TOKEN_2022_PROGRAM_ID),
    createSetAuthorityInstruction(p.mint, p.payer, AuthorityType.MintTokens, null, [], TOKEN_2022_PROGRAM_ID),
  ];
}

/**
 * Instructions moving the identity NFT from `from` (signs) to `to`'s associated account (created if needed, paid by
 * `payer`, default from).
 */
export function transferIdentityInstructions(p: {
  agent: PublicKey;
  from: PublicKey;
  to: PublicKey;
  payer?: PublicKey;
}): TransactionInstruction[] {
  if (!isKey(p?.agent) || !isKey(p.from) || !isKey(p.to)) throw new TypeError('agent, from and to must be PublicKeys');
  const payer = p.payer ?? p.from;
  if (!isKey(payer)) throw new TypeError('payer must be a PublicKey');
  const src = identityTokenAccount(p.agent, p.from);
  const dst = identityTokenAccount(p.agent, p.to);
  return [
    createAssociatedTokenAccountIdempotentInstruction(payer, dst, p.to, p.agent, TOKEN_2022_PROGRAM_ID),
    createTransferCheckedInstruction(src, p.agent, dst, p.from, 1n, 0, [], TOKEN_2022_PROGRAM_ID),
  ];
}

/** The fields of a token account the registry needs. */
export interface IdentityHolding {
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
}

/**
 * Decodes a Token-2022 token account (base layout; extensions after byte 165 ignored). Null for
 * anything shorter or uninitialized. Never throws.
 */
export function decodeTokenAccount(data: Uint8Array): IdentityHolding | null {
  if (!(data instanceof Uint8Array) || data.length < TOKEN_ACCOUNT_LAYOUT.size) return null;
  if (data[TOKEN_ACCOUNT_LAYOUT.state] === 0) return null;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    mint: new PublicKey(data.subarray(0, 32)),
    owner: new PublicKey(data.subarray(32, 64)),
    amount: dv.getBigUint64(TOKEN_ACCOUNT_LAYOUT.amount, true),
  };
}

/** Where an identity NFT sits now: the token account holding 1 of `agent`, and its owner. */
export interface IdentityHolder {
  tokenAccount: PublicKey;
  owner: PublicKey;
}

/** amount == 1 as u64 LE ([1, 0, 0, 0, 0, 0, 0, 0]) in base64 (memcmp accepts base64 since Solana 1.14). */
const ONE_LE_B64 = 'AQAAAAAAAAA=';

/**
 * Finds the Token-2022 account holding 1 of `agent` (getProgramAccounts with memcmp on the mint
 * and on amount == 1), or null. Throws on RPC failure (an outage is not an unknown agent).
 */
export async function findIdentityHolder(connection: Connection, agent: PublicKey): Promise<IdentityHolder | null> {
  if (!isKey(agent)) throw new TypeError('agent must be a PublicKey');
  const accounts = await connection.getProgramAccounts(TOKEN_2022_PROGRAM_ID, {
    filters: [
      { memcmp: { offset: TOKEN_ACCOUNT_LAYOUT.mint, bytes: agent.toBase58() } },
      { memcmp: { offset: TOKEN_ACCOUNT_LAYOUT.amount, bytes: ONE_LE_B64, encoding: 'base64' } },
    ],
  });
  for (const a of accounts) {
    const t = decodeTokenAccount(a.account.data);
    if (t?.mint.equals(agent) && t.amount === 1n) return { tokenAccount: a.pubkey, owner: t.owner };
  }
  return null;
}

/**
 * Agent identity on chain (issue 5 "Identity"; CHAIN.md "Identity"; PROGRAMS-CONTRACT.md
 * "Identity"): an agent id is a Token-2022 mint with decimals 0 and supply 1 whose mint
 * authority is removed; the identity owner is the owner of the Token-2022 token account holding
 * that 1 token. Everything here goes through JSON-RPC (@solana/web3.js + @solana/spl-token), so
 * it runs unchanged against the embedded chain and a cluster.
 */
import { Keypair, PublicKey, SystemProgram, type Connection } from '@solana/web3.js';
import {
  AuthorityType, TOKEN_2022_PROGRAM_ID, createAssociatedTokenAccountIdempotentInstruction, createInitializeMint2Instruction,
  createMintToInstruction, createSetAuthorityInstruction, createTransferCheckedInstruction, getAssociatedTokenAddressSync, getMintLen,
} from '@solana/spl-token';
import { sendIxs } from './send';

/** Byte offsets of an SPL Token / Token-2022 account (the base 165-byte layout). */
export const TOKEN_ACCOUNT_LAYOUT = { mint: 0, owner: 32, amount: 64, delegateTag: 72, delegate: 76, state: 108, size: 165 } as const;

/** A freshly minted identity. */
export interface AgentIdentity {
  /** The agent id: the Token-2022 mint. */
  agent: PublicKey;
  owner: PublicKey;
  /** The owner's associated Token-2022 account holding the NFT. */
  tokenAccount: PublicKey;
  signature: string;
}

/** Parameters of {@link createAgentIdentity}. */
export interface CreateAgentIdentityParams {
  /** Pays rent and fees; temporary mint authority. */
  payer: Keypair;
  /** Wallet that will own the identity (default: payer). */
  owner?: PublicKey;
  /** The mint keypair (its address becomes the agent id); generated when omitted. */
  mint?: Keypair;
}

/** The associated Token-2022 account of `owner` for the identity `agent`. */
export function identityTokenAccount(agent: PublicKey, owner: PublicKey): PublicKey {
  return getAssociatedTokenAddressSync(agent, owner, true, TOKEN_2022_PROGRAM_ID);
}

/**
 * Mints a new agent identity in one transaction: create + initialize the Token-2022 mint
 * (decimals 0, no freeze authority), create the owner's associated account, mint 1, remove the
 * mint authority (supply fixed at 1).
 */
export async function createAgentIdentity(connection: Connection, p: CreateAgentIdentityParams): Promise<AgentIdentity> {
  if (!(p?.payer instanceof Keypair)) throw new TypeError('payer must be a Keypair');
  const owner = p.owner ?? p.payer.publicKey;
  if (!(owner instanceof PublicKey)) throw new TypeError('owner must be a PublicKey');
  const mint = p.mint ?? Keypair.generate();
  const space = getMintLen([]);
  const lamports = await connection.getMinimumBalanceForRentExemption(space);
  const ata = identityTokenAccount(mint.publicKey, owner);
  const payer = p.payer.publicKey;
  const signature = await sendIxs(connection, [
    SystemProgram.createAccount({ fromPubkey: payer, newAccountPubkey: mint.publicKey, space, lamports, programId: TOKEN_2022_PROGRAM_ID }),
    createInitializeMint2Instruction(mint.publicKey, 0, payer, null, TOKEN_2022_PROGRAM_ID),
    createAssociatedTokenAccountIdempotentInstruction(payer, ata, owner, mint.publicKey, TOKEN_2022_PROGRAM_ID),
    createMintToInstruction(mint.publicKey, ata, payer, 1n, [], TOKEN_2022_PROGRAM_ID),
    createSetAuthorityInstruction(mint.publicKey, payer, AuthorityType.MintTokens, null, [], TOKEN_2022_PROGRAM_ID),
  ], [p.payer, mint]);
  return { agent: mint.publicKey, owner, tokenAccount: ata, signature };
}

/** Parameters of {@link transferIdentity}. */
export interface TransferIdentityParams {
  agent: PublicKey;
  /** Current owner (signs). */
  from: Keypair;
  to: PublicKey;
  /** Pays for the new owner's account (default: from). */
  payer?: Keypair;
}

/** Moves the identity NFT to `to`'s associated account (created if needed). */
export async function transferIdentity(connection: Connection, p: TransferIdentityParams): Promise<{ tokenAccount: PublicKey; signature: string }> {
  if (!(p?.agent instanceof PublicKey)) throw new TypeError('agent must be a PublicKey');
  if (!(p.from instanceof Keypair)) throw new TypeError('from must be a Keypair');
  if (!(p.to instanceof PublicKey)) throw new TypeError('to must be a PublicKey');
  const payer = p.payer ?? p.from;
  const src = identityTokenAccount(p.agent, p.from.publicKey);
  const dst = identityTokenAccount(p.agent, p.to);
  const signature = await sendIxs(connection, [
    createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, dst, p.to, p.agent, TOKEN_2022_PROGRAM_ID),
    createTransferCheckedInstruction(src, p.agent, dst, p.from.publicKey, 1n, 0, [], TOKEN_2022_PROGRAM_ID),
  ], payer === p.from ? [p.from] : [payer, p.from]);
  return { tokenAccount: dst, signature };
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

/** amount == 1 as u64 LE, base64 (memcmp accepts base64 since Solana 1.14). */
const ONE_LE_B64 = Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]).toString('base64');

/**
 * Finds the Token-2022 account holding 1 of `agent` (getProgramAccounts with memcmp on the mint
 * and on amount == 1), or null. Throws on RPC failure (an outage is not an unknown agent).
 */
export async function findIdentityHolder(connection: Connection, agent: PublicKey): Promise<IdentityHolder | null> {
  if (!(agent instanceof PublicKey)) throw new TypeError('agent must be a PublicKey');
  const accounts = await connection.getProgramAccounts(TOKEN_2022_PROGRAM_ID, {
    filters: [{ memcmp: { offset: TOKEN_ACCOUNT_LAYOUT.mint, bytes: agent.toBase58() } }, { memcmp: { offset: TOKEN_ACCOUNT_LAYOUT.amount, bytes: ONE_LE_B64, encoding: 'base64' } }],
  });
  for (const a of accounts) {
    const t = decodeTokenAccount(a.account.data);
    if (t && t.mint.equals(agent) && t.amount === 1n) return { tokenAccount: a.pubkey, owner: t.owner };
  }
  return null;
}

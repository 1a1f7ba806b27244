/**
 * NODE-ONLY (server, scripts, tests): Keypair wrappers around the SDK's identity builders
 * (lib/chain/identity.ts), signed and sent with send.ts.
 *
 * Agent identity on chain (0x01 spec §10.1): an agent id is a Token-2022 mint with decimals 0
 * and supply 1 whose mint authority is removed; the identity owner is the owner of the
 * Token-2022 token account holding that 1 token. Everything goes through JSON-RPC, so it runs
 * unchanged against the embedded chain and a cluster.
 */
import { type Connection, Keypair, PublicKey } from '@solana/web3.js';
import {
  createAgentIdentityInstructions,
  IDENTITY_MINT_SIZE,
  identityTokenAccount,
  transferIdentityInstructions,
} from '../identity';
import { sendIxs } from './send';

export {
  decodeTokenAccount,
  findIdentityHolder,
  type IdentityHolder,
  type IdentityHolding,
  identityTokenAccount,
  TOKEN_ACCOUNT_LAYOUT,
} from '../identity';

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

/** Mints a new agent identity in one transaction (lib/chain/identity.ts createAgentIdentityInstructions). */
export async function createAgentIdentity(
  connection: Connection,
  p: CreateAgentIdentityParams,
): Promise<AgentIdentity> {
  if (!(p?.payer instanceof Keypair)) throw new TypeError('payer must be a Keypair');
  const owner = p.owner ?? p.payer.publicKey;
  if (!(owner instanceof PublicKey)) throw new TypeError('owner must be a PublicKey');
  const mint = p.mint ?? Keypair.generate();
  const lamports = await connection.getMinimumBalanceForRentExemption(IDENTITY_MINT_SIZE);
  const ixs = createAgentIdentityInstructions({ payer: p.payer.publicKey, owner, mint: mint.publicKey, lamports });
  const signature = await sendIxs(connection, ixs, [p.payer, mint]);
  return { agent: mint.publicKey, owner, tokenAccount: identityTokenAccount(mint.publicKey, owner), signature };
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
export async function transferIdentity(
  connection: Connection,
  p: TransferIdentityParams,
): Promise<{ tokenAccount: PublicKey; signature: string }> {
  if (!(p?.agent instanceof PublicKey)) throw new TypeError('agent must be a PublicKey');
  if (!(p.from instanceof Keypair)) throw new TypeError('from must be a Keypair');
  if (!(p.to instanceof PublicKey)) throw new TypeError('to must be a PublicKey');
  const payer = p.payer ?? p.from;
  const ixs = transferIdentityInstructions({
    agent: p.agent,
    from: p.from.publicKey,
    to: p.to,
    payer: payer.publicKey,
  });
  const signature = await sendIxs(connection, ixs, payer === p.from ? [p.from] : [payer, p.from]);
  return { tokenAccount: identityTokenAccount(p.agent, p.to), signature };
}

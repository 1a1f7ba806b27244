/**
 * Browser-safe reads and helpers for wallet pages: the identity NFTs a wallet holds, an agent's
 * Stake and Lease accounts, and a fresh throwaway signer for accounts a transaction creates (an
 * identity mint, an evidence buffer). The fresh signer is generated in the page and used once;
 * it is never a person's key.
 */
import { Keypair, PublicKey, type Connection, type Signer } from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { decodeTokenAccount } from './identity';
import { challenge, lease, stakeLock } from './programs';

/** The mints of Token-2022 accounts of `owner` holding exactly 1 token: its agent identities. */
export async function findOwnedIdentities(connection: Connection, owner: PublicKey): Promise<PublicKey[]> {
  if (!(owner instanceof PublicKey)) throw new TypeError('owner must be a PublicKey');
  const res = await connection.getTokenAccountsByOwner(owner, { programId: TOKEN_2022_PROGRAM_ID }, 'confirmed');
  const out: PublicKey[] = [];
  for (const a of res.value) {
    const t = decodeTokenAccount(a.account.data);
    if (t && t.amount === 1n) out.push(t.mint);
  }
  return out.sort((a, b) => a.toBase58().localeCompare(b.toBase58()));
}

/** An agent's Stake and Lease accounts (null when absent). */
export async function readAgentAccounts(connection: Connection, agent: PublicKey): Promise<{ stake: stakeLock.Stake | null; lease: lease.Lease | null }> {
  const [s, l] = await connection.getMultipleAccountsInfo([stakeLock.findStakePda(agent)[0], lease.findLeasePda(agent)[0]], 'confirmed');
  return { stake: s ? stakeLock.decodeStake(s.data) : null, lease: l ? lease.decodeLease(l.data) : null };
}

/** A Challenge account, or null. */
export async function readChallenge(connection: Connection, address: PublicKey): Promise<challenge.Challenge | null> {
  const a = await connection.getAccountInfo(address, 'confirmed');
  return a ? challenge.decodeChallenge(a.data) : null;
}

/** A fresh one-use signer for an account the transaction creates. */
export function freshSigner(): Signer {
  return Keypair.generate();
}

/**
 * Browser-safe reads and helpers for wallet pages: the identity NFTs a wallet holds, an agent's
 * Stake and Lease accounts, and a fresh throwaway signer for accounts a transaction creates (an
 * identity mint, an evidence buffer). The fresh signer is generated in the page and used once;
 * it is never a person's key.
 */

import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { type AccountInfo, type Connection, Keypair, PublicKey, type Signer } from '@solana/web3.js';
import bs58 from 'bs58';
import { ChainAccountError } from './errors';
import { decodeTokenAccount } from './identity';
import { challenge, lease, stakeLock } from './programs';
import {
  decodeRegistryConfig,
  type RegistryConfig,
  registryConfigAddress,
  SATI_MAINNET,
  type SatiRegistered,
  satiRegistration,
} from './sati';

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
export async function readAgentAccounts(
  connection: Connection,
  agent: PublicKey,
): Promise<{ stake: stakeLock.Stake | null; lease: lease.Lease | null }> {
  const [s, l] = await connection.getMultipleAccountsInfo(
    [stakeLock.findStakePda(agent)[0], lease.findLeasePda(agent)[0]],
    'confirmed',
  );
  return { stake: s ? stakeLock.decodeStake(s.data) : null, lease: l ? lease.decodeLease(l.data) : null };
}

/** A Challenge account, or null. */
/** The challenge program's evidence buffers whose authority is `authority` (discriminator at 0, authority at 8). */
export function findEvidenceBuffers(
  connection: Connection,
  authority: PublicKey,
): Promise<ReadonlyArray<{ pubkey: PublicKey; account: AccountInfo<Buffer> }>> {
  return connection.getProgramAccounts(challenge.PROGRAM_ID, {
    commitment: 'confirmed',
    filters: [
      { memcmp: { offset: 0, bytes: bs58.encode(challenge.BUFFER_DISCRIMINATOR) } },
      { memcmp: { offset: 8, bytes: authority.toBase58() } },
    ],
  });
}

/** Challenge accounts with `key` at `offset` (8: the challenger, 104: the agent challenged). */
export function findChallenges(
  connection: Connection,
  offset: number,
  key: PublicKey,
): Promise<ReadonlyArray<{ pubkey: PublicKey; account: AccountInfo<Buffer> }>> {
  return connection.getProgramAccounts(challenge.PROGRAM_ID, {
    commitment: 'confirmed',
    filters: [
      { memcmp: { offset: 0, bytes: bs58.encode(challenge.CHALLENGE_DISCRIMINATOR) } },
      { memcmp: { offset, bytes: key.toBase58() } },
    ],
  });
}

export async function readChallenge(connection: Connection, address: PublicKey): Promise<challenge.Challenge | null> {
  const a = await connection.getAccountInfo(address, 'confirmed');
  return a ? challenge.decodeChallenge(a.data) : null;
}

/** SATI's RegistryConfig at `satiProgram` read over RPC; ChainAccountError when absent. */
export async function loadRegistryConfig(
  connection: Connection,
  satiProgram: PublicKey = SATI_MAINNET.program,
): Promise<RegistryConfig> {
  if (!(satiProgram instanceof PublicKey)) throw new TypeError('satiProgram must be a PublicKey');
  const info = await connection.getAccountInfo(registryConfigAddress(satiProgram), 'confirmed');
  const registry = info?.owner.equals(satiProgram) ? decodeRegistryConfig(info.data) : null;
  if (!registry) throw new ChainAccountError(`no SATI registry at ${satiProgram.toBase58()}`);
  return registry;
}

/**
 * An agent's SATI registration read over RPC: RegistryConfig of `satiProgram` and the agent mint,
 * judged by satiRegistration. Throws ChainAccountError naming the reason when it is not a
 * registered SATI agent (e.g. before lock_stake, which needs the member number).
 */
export async function loadSatiMembership(
  connection: Connection,
  agent: PublicKey,
  satiProgram: PublicKey = SATI_MAINNET.program,
): Promise<SatiRegistered & { registry: RegistryConfig }> {
  if (!(agent instanceof PublicKey) || !(satiProgram instanceof PublicKey))
    throw new TypeError('agent and satiProgram must be PublicKeys');
  const [cfgInfo, mintInfo] = await connection.getMultipleAccountsInfo(
    [registryConfigAddress(satiProgram), agent],
    'confirmed',
  );
  const registry = cfgInfo?.owner.equals(satiProgram) ? decodeRegistryConfig(cfgInfo.data) : null;
  if (!registry) throw new ChainAccountError(`no SATI registry at ${satiProgram.toBase58()}`);
  const r = satiRegistration(
    mintInfo ? { address: agent, owner: mintInfo.owner, data: mintInfo.data, lamports: mintInfo.lamports } : null,
    registry,
  );
  if (!r.ok) throw new ChainAccountError(`${agent.toBase58()} is not a registered SATI agent (${r.reason})`);
  return { ...r, registry };
}

/** A fresh one-use signer for an account the transaction creates. */
export function freshSigner(): Signer {
  return Keypair.generate();
}

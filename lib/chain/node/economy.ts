/**
 * On-chain actions of an agent and of the deployment admin (0x01 spec §10.2–10.5; issue 5
 * "Demo agents on chain"), through JSON-RPC with web3.js transactions built by
 * lib/chain/programs.ts: set up USDC and the programs' configs, register an identity, fund
 * USDC, lock stake, pay and tick leases, submit batches, queue unlock, claim. Challenge actions
 * are in economy-challenge.ts (re-exported here). Usage: lib/chain/README.md.
 */
import { Ed25519Program, Keypair, PublicKey, SystemProgram, type Connection } from '@solana/web3.js';
import {
  MINT_SIZE, TOKEN_PROGRAM_ID, createAssociatedTokenAccountIdempotentInstruction, createInitializeMint2Instruction,
  createMintToInstruction, getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { batchHash as hashBatch, type BehaviorBatch } from '../../protocol/batch';
import { ed25519Sign } from '../../protocol/crypto';
import { ChainAccountError } from '../errors';
import { identityTokenAccount } from './identity';
import { behaviorLog, challenge, lease, stakeLock } from '../programs';
import { sendIxs } from './send';

export { createAgentIdentity, transferIdentity, type AgentIdentity } from './identity';
export * from './economy-challenge';

/** What every action needs to know about the deployment (read from the stake_lock config). */
export interface EconomyConfig {
  usdcMint: PublicKey;
  treasury: PublicKey;
  /** stake_lock's vault: USDC account of the PDA [b"vault_authority"]. */
  stakeVault: PublicKey;
  epochSeconds: bigint;
}

/** Reads the deployment's configuration from the stake_lock Config account. */
export async function loadEconomyConfig(connection: Connection): Promise<EconomyConfig> {
  const info = await connection.getAccountInfo(stakeLock.findConfigPda()[0], 'confirmed');
  const cfg = info ? stakeLock.decodeStakeConfig(info.data) : null;
  if (!cfg) throw new ChainAccountError('stake_lock is not initialized (no Config account): run initializePrograms first');
  return { usdcMint: cfg.usdcMint, treasury: cfg.treasury, stakeVault: cfg.vault, epochSeconds: cfg.epochSeconds };
}

/** The USDC associated token account of `owner` (SPL Token). */
export const usdcAccountOf = (usdcMint: PublicKey, owner: PublicKey): PublicKey => getAssociatedTokenAddressSync(usdcMint, owner, true, TOKEN_PROGRAM_ID);

/** Creates a local USDC-like mint (SPL Token, `decimals` default 6) with `authority` as mint authority. */
export async function createUsdcMint(connection: Connection, p: { payer: Keypair; authority?: PublicKey; decimals?: number; mint?: Keypair }): Promise<PublicKey> {
  const mint = p.mint ?? Keypair.generate();
  const lamports = await connection.getMinimumBalanceForRentExemption(MINT_SIZE);
  await sendIxs(connection, [
    SystemProgram.createAccount({ fromPubkey: p.payer.publicKey, newAccountPubkey: mint.publicKey, space: MINT_SIZE, lamports, programId: TOKEN_PROGRAM_ID }),
    createInitializeMint2Instruction(mint.publicKey, p.decimals ?? 6, p.authority ?? p.payer.publicKey, null, TOKEN_PROGRAM_ID),
  ], [p.payer, mint]);
  return mint.publicKey;
}

/** Mints `amount` base units of USDC to `owner`'s associated account (created if needed); returns it. */
export async function fundUsdc(connection: Connection, p: { payer: Keypair; mintAuthority: Keypair; usdcMint: PublicKey; owner: PublicKey; amount: bigint }): Promise<PublicKey> {
  if (typeof p?.amount !== 'bigint' || p.amount < 0n) throw new RangeError('amount must be a non-negative bigint');
  const ata = usdcAccountOf(p.usdcMint, p.owner);
  const ixs = [createAssociatedTokenAccountIdempotentInstruction(p.payer.publicKey, ata, p.owner, p.usdcMint, TOKEN_PROGRAM_ID)];
  if (p.amount > 0n) ixs.push(createMintToInstruction(p.usdcMint, ata, p.mintAuthority.publicKey, p.amount, [], TOKEN_PROGRAM_ID));
  await sendIxs(connection, ixs, p.mintAuthority.publicKey.equals(p.payer.publicKey) ? [p.payer] : [p.payer, p.mintAuthority]);
  return ata;
}

/** Parameters of {@link initializePrograms}. */
export interface InitializeProgramsParams {
  admin: Keypair;
  usdcMint: PublicKey;
  /** USDC token account receiving lease payments, slashes and forfeited challenge stakes. */
  treasury: PublicKey;
  epochSeconds: bigint;
}

/**
 * Initializes the four programs' Config accounts on one USDC mint and treasury (each skipped
 * when already there) and creates stake_lock's vault. Idempotent; returns the config.
 */
export async function initializePrograms(connection: Connection, p: InitializeProgramsParams): Promise<EconomyConfig> {
  if (typeof p?.epochSeconds !== 'bigint' || p.epochSeconds <= 0n) throw new RangeError('epochSeconds must be a positive bigint');
  const admin = p.admin.publicKey;
  const [vaultAuthority] = stakeLock.findVaultAuthorityPda();
  const stakeVault = getAssociatedTokenAddressSync(p.usdcMint, vaultAuthority, true, TOKEN_PROGRAM_ID);
  const configs = [lease.findConfigPda()[0], stakeLock.findConfigPda()[0], behaviorLog.findConfigPda()[0], challenge.findConfigPda()[0]];
  const infos = await connection.getMultipleAccountsInfo(configs, 'confirmed');
  const ixs = [createAssociatedTokenAccountIdempotentInstruction(admin, stakeVault, vaultAuthority, p.usdcMint, TOKEN_PROGRAM_ID)];
  const e = p.epochSeconds;
  if (!infos[0]) ixs.push(lease.initializeInstruction({ admin, usdcMint: p.usdcMint, treasury: p.treasury }, { epochSeconds: e }));
  if (!infos[1]) ixs.push(stakeLock.initializeInstruction({ admin, usdcMint: p.usdcMint, treasury: p.treasury, vault: stakeVault }, { epochSeconds: e }));
  if (!infos[2]) ixs.push(behaviorLog.initializeInstruction({ admin }, { usdcMint: p.usdcMint, treasury: p.treasury, epochSeconds: e }));
  if (!infos[3]) ixs.push(challenge.initializeInstruction({ admin, usdcMint: p.usdcMint }, { treasury: p.treasury, epochSeconds: e }));
  await sendIxs(connection, ixs, [p.admin]);
  return loadEconomyConfig(connection);
}

/** Common shape: the identity owner acting for `agent`. */
export interface AgentActionParams {
  owner: Keypair;
  agent: PublicKey;
  config?: EconomyConfig;
}

/** Locks `amount` USDC base units (>= MIN_STAKE) for the agent (spec §10.5). */
export async function lockStake(connection: Connection, p: AgentActionParams & { amount: bigint }): Promise<string> {
  const cfg = p.config ?? (await loadEconomyConfig(connection));
  return sendIxs(connection, [stakeLock.lockStakeInstruction({
    owner: p.owner.publicKey, stake: stakeLock.findStakePda(p.agent)[0], agent: p.agent, identity: identityTokenAccount(p.agent, p.owner.publicKey),
    ownerUsdc: usdcAccountOf(cfg.usdcMint, p.owner.publicKey), vault: cfg.stakeVault,
  }, { amount: p.amount })], [p.owner]);
}

/** Pays `epochs` lease epochs for `agent` from `payer`'s USDC (spec §10.3); anyone may pay. */
export async function payLease(connection: Connection, p: { payer: Keypair; agent: PublicKey; epochs?: number; config?: EconomyConfig }): Promise<string> {
  const cfg = p.config ?? (await loadEconomyConfig(connection));
  return sendIxs(connection, [lease.payLeaseInstruction({
    payer: p.payer.publicKey, lease: lease.findLeasePda(p.agent)[0], agent: p.agent,
    payerUsdc: usdcAccountOf(cfg.usdcMint, p.payer.publicKey), treasury: cfg.treasury,
  }, { epochs: p.epochs ?? 1 })], [p.payer]);
}

/** Permissionless lease tick (grace / deactivation, spec §10.3), paid by `payer`. */
export async function tickLease(connection: Connection, p: { payer: Keypair; agent: PublicKey }): Promise<string> {
  return sendIxs(connection, [lease.tickLeaseInstruction({ lease: lease.findLeasePda(p.agent)[0] })], [p.payer]);
}

/**
 * Commits a BehaviorBatch on chain (spec §10.2): an Ed25519 program instruction with the
 * identity owner's signature over batch_hash, then submit_batch. Returns the signature and the
 * BatchAccount address.
 */
export async function submitBatch(connection: Connection, p: AgentActionParams & { batch: BehaviorBatch; payer?: Keypair }): Promise<{ signature: string; batchAccount: PublicKey; batchHash: Uint8Array }> {
  const b = p.batch;
  if (!b || !(b.agentId instanceof Uint8Array) || !p.agent.equals(new PublicKey(b.agentId))) throw new TypeError('batch.agentId must equal agent');
  const hash = hashBatch(b);
  const seed = p.owner.secretKey.slice(0, 32);
  const ed = Ed25519Program.createInstructionWithPublicKey({ publicKey: p.owner.publicKey.toBytes(), message: hash, signature: ed25519Sign(hash, seed) });
  const [batchAccount, bump] = behaviorLog.findBatchPda(p.agent, b.epochNumber);
  const payer = p.payer ?? p.owner;
  const submit = behaviorLog.submitBatchInstruction({ payer: payer.publicKey, identity: identityTokenAccount(p.agent, p.owner.publicKey), batch: batchAccount }, {
    epoch: b.epochNumber, batchHash: hash, logMerkleRoot: b.logMerkleRoot, messageCount: b.messageCount, bidCount: b.bidValues.length,
    taskCount: b.taskSelections.length, verifierCount: b.verifierIds.length, feedbackCount: b.feedbackEvents.length, overflow: b.overflow ? 1 : 0, bump,
  });
  const signature = await sendIxs(connection, [ed, submit], payer === p.owner ? [p.owner] : [payer, p.owner]);
  return { signature, batchAccount, batchHash: hash };
}

/** Starts the unlock delay (the agent's lease must be deactivated, spec §10.5). */
export async function queueUnlock(connection: Connection, p: AgentActionParams): Promise<string> {
  return sendIxs(connection, [stakeLock.queueUnlockInstruction({
    owner: p.owner.publicKey, stake: stakeLock.findStakePda(p.agent)[0], identity: identityTokenAccount(p.agent, p.owner.publicKey),
    lease: lease.findLeasePda(p.agent)[0],
  })], [p.owner]);
}

/** Claims the stake back after UNLOCK_DELAY_SLOTS with no pending challenge (spec §10.5). */
export async function claimStake(connection: Connection, p: AgentActionParams): Promise<string> {
  const cfg = p.config ?? (await loadEconomyConfig(connection));
  return sendIxs(connection, [stakeLock.claimStakeInstruction({
    owner: p.owner.publicKey, stake: stakeLock.findStakePda(p.agent)[0], identity: identityTokenAccount(p.agent, p.owner.publicKey),
    agentChallenges: challenge.findAgentPda(p.agent)[0], vault: cfg.stakeVault, ownerUsdc: usdcAccountOf(cfg.usdcMint, p.owner.publicKey),
  })], [p.owner]);
}

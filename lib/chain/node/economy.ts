/**
 * NODE-ONLY (server, scripts, tests): Keypair wrappers. Each owner action builds its
 * instructions with the browser-safe SDK (lib/chain/builders.ts) and signs and sends them with
 * send.ts; the admin-only setup (local USDC mint, funding, the programs' Config accounts) lives
 * only here. Actions of the 0x01 spec §10.2–10.5 through JSON-RPC: set up USDC and the configs,
 * register an identity, fund USDC, lock stake, pay and tick leases, submit batches, queue
 * unlock, claim. Challenge actions are in economy-challenge.ts (re-exported here). Usage:
 * lib/chain/README.md.
 */

import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { type Connection, Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import type { BehaviorBatch } from '../../protocol/batch';
import { ed25519Sign } from '../../protocol/crypto';
import {
  claimStakeInstructions,
  lockStakeInstructions,
  payLeaseInstructions,
  queueUnlockInstructions,
  submitBatchInstructions,
  submitBatchMessage,
  tickLeaseInstructions,
} from '../builders';
import { type EconomyConfig, loadEconomyConfig, usdcAccountOf } from '../config';
import { behaviorLog, challenge, lease, stakeLock } from '../programs';
import { SATI_MAINNET } from '../sati';
import { loadSatiMembership } from '../wallet-reads';
import { sendIxs } from './send';

export { type EconomyConfig, loadEconomyConfig, usdcAccountOf } from '../config';
export * from './economy-challenge';
export { type AgentIdentity, createAgentIdentity, transferIdentity } from './identity';
export { ensureSatiRegistry, loadSatiRegistry, registerSatiAgent, type SatiAgentRegistration } from './sati';

/** Creates a local USDC-like mint (SPL Token, `decimals` default 6) with `authority` as mint authority. */
export async function createUsdcMint(
  connection: Connection,
  p: { payer: Keypair; authority?: PublicKey; decimals?: number; mint?: Keypair },
): Promise<PublicKey> {
  const mint = p.mint ?? Keypair.generate();
  const lamports = await connection.getMinimumBalanceForRentExemption(MINT_SIZE);
  await sendIxs(
    connection,
    [
      SystemProgram.createAccount({
        fromPubkey: p.payer.publicKey,
        newAccountPubkey: mint.publicKey,
        space: MINT_SIZE,
        lamports,
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeMint2Instruction(
        mint.publicKey,
        p.decimals ?? 6,
        p.authority ?? p.payer.publicKey,
        null,
        TOKEN_PROGRAM_ID,
      ),
    ],
    [p.payer, mint],
  );
  return mint.publicKey;
}

/** Mints `amount` base units of USDC to `owner`'s associated account (created if needed); returns it. */
export async function fundUsdc(
  connection: Connection,
  p: { payer: Keypair; mintAuthority: Keypair; usdcMint: PublicKey; owner: PublicKey; amount: bigint },
): Promise<PublicKey> {
  if (typeof p?.amount !== 'bigint' || p.amount < 0n) throw new RangeError('amount must be a non-negative bigint');
  const ata = usdcAccountOf(p.usdcMint, p.owner);
  const ixs = [
    createAssociatedTokenAccountIdempotentInstruction(p.payer.publicKey, ata, p.owner, p.usdcMint, TOKEN_PROGRAM_ID),
  ];
  if (p.amount > 0n)
    ixs.push(createMintToInstruction(p.usdcMint, ata, p.mintAuthority.publicKey, p.amount, [], TOKEN_PROGRAM_ID));
  await sendIxs(
    connection,
    ixs,
    p.mintAuthority.publicKey.equals(p.payer.publicKey) ? [p.payer] : [p.payer, p.mintAuthority],
  );
  return ata;
}

/** Parameters of {@link initializePrograms}. */
export interface InitializeProgramsParams {
  admin: Keypair;
  usdcMint: PublicKey;
  /** USDC token account receiving lease payments, slashes and forfeited challenge stakes. */
  treasury: PublicKey;
  epochSeconds: bigint;
  /**
   * The SATI program whose registered agents may lock stake (default SATI's mainnet id, where the embedded chain loads
   * its stand-in).
   */
  satiProgram?: PublicKey;
}

/**
 * Initializes the four programs' Config accounts on one USDC mint and treasury (each skipped
 * when already there) and creates stake_lock's vault. Idempotent; returns the config.
 */
export async function initializePrograms(connection: Connection, p: InitializeProgramsParams): Promise<EconomyConfig> {
  if (typeof p?.epochSeconds !== 'bigint' || p.epochSeconds <= 0n)
    throw new RangeError('epochSeconds must be a positive bigint');
  const admin = p.admin.publicKey;
  const [vaultAuthority] = stakeLock.findVaultAuthorityPda();
  const stakeVault = getAssociatedTokenAddressSync(p.usdcMint, vaultAuthority, true, TOKEN_PROGRAM_ID);
  const configs = [
    lease.findConfigPda()[0],
    stakeLock.findConfigPda()[0],
    behaviorLog.findConfigPda()[0],
    challenge.findConfigPda()[0],
  ];
  const infos = await connection.getMultipleAccountsInfo(configs, 'confirmed');
  const ixs = [
    createAssociatedTokenAccountIdempotentInstruction(admin, stakeVault, vaultAuthority, p.usdcMint, TOKEN_PROGRAM_ID),
  ];
  const e = p.epochSeconds;
  if (!infos[0])
    ixs.push(lease.initializeInstruction({ admin, usdcMint: p.usdcMint, treasury: p.treasury }, { epochSeconds: e }));
  if (!infos[1])
    ixs.push(
      stakeLock.initializeInstruction(
        { admin, usdcMint: p.usdcMint, treasury: p.treasury, vault: stakeVault },
        { epochSeconds: e, satiProgram: p.satiProgram ?? SATI_MAINNET.program },
      ),
    );
  if (!infos[2])
    ixs.push(
      behaviorLog.initializeInstruction({ admin }, { usdcMint: p.usdcMint, treasury: p.treasury, epochSeconds: e }),
    );
  if (!infos[3])
    ixs.push(
      challenge.initializeInstruction({ admin, usdcMint: p.usdcMint }, { treasury: p.treasury, epochSeconds: e }),
    );
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
  const config = p.config ?? (await loadEconomyConfig(connection));
  const { memberNumber } = await loadSatiMembership(connection, p.agent, config.satiProgram);
  return sendIxs(
    connection,
    lockStakeInstructions({ owner: p.owner.publicKey, agent: p.agent, amount: p.amount, config, memberNumber }),
    [p.owner],
  );
}

/** Pays `epochs` lease epochs for `agent` from `payer`'s USDC (spec §10.3); anyone may pay. */
export async function payLease(
  connection: Connection,
  p: { payer: Keypair; agent: PublicKey; epochs?: number; config?: EconomyConfig },
): Promise<string> {
  const config = p.config ?? (await loadEconomyConfig(connection));
  return sendIxs(
    connection,
    payLeaseInstructions({ payer: p.payer.publicKey, agent: p.agent, epochs: p.epochs, config }),
    [p.payer],
  );
}

/** Permissionless lease tick (grace / deactivation, spec §10.3), paid by `payer`. */
export async function tickLease(connection: Connection, p: { payer: Keypair; agent: PublicKey }): Promise<string> {
  return sendIxs(connection, tickLeaseInstructions({ agent: p.agent }), [p.payer]);
}

/**
 * Commits a BehaviorBatch on chain (spec §10.2): the owner signs batch_hash (Ed25519 program
 * instruction), then submit_batch. Returns the signature and the BatchAccount address.
 */
export async function submitBatch(
  connection: Connection,
  p: AgentActionParams & { batch: BehaviorBatch; payer?: Keypair },
): Promise<{ signature: string; batchAccount: PublicKey; batchHash: Uint8Array }> {
  const b = p.batch;
  if (!b || !(b.agentId instanceof Uint8Array) || !p.agent.equals(new PublicKey(b.agentId)))
    throw new TypeError('batch.agentId must equal agent');
  const hash = submitBatchMessage(b);
  const payer = p.payer ?? p.owner;
  const ixs = submitBatchInstructions({
    owner: p.owner.publicKey,
    agent: p.agent,
    batch: b,
    payer: payer.publicKey,
    signature: ed25519Sign(hash, p.owner.secretKey.slice(0, 32)),
  });
  const signature = await sendIxs(connection, ixs, payer === p.owner ? [p.owner] : [payer, p.owner]);
  return { signature, batchAccount: behaviorLog.findBatchPda(p.agent, b.epochNumber)[0], batchHash: hash };
}

/** Starts the unlock delay (the agent's lease must be deactivated, spec §10.5). */
export async function queueUnlock(connection: Connection, p: AgentActionParams): Promise<string> {
  return sendIxs(connection, queueUnlockInstructions({ owner: p.owner.publicKey, agent: p.agent }), [p.owner]);
}

/** Claims the stake back after UNLOCK_DELAY_SLOTS with no pending challenge (spec §10.5). */
export async function claimStake(connection: Connection, p: AgentActionParams): Promise<string> {
  const config = p.config ?? (await loadEconomyConfig(connection));
  return sendIxs(connection, claimStakeInstructions({ owner: p.owner.publicKey, agent: p.agent, config }), [p.owner]);
}

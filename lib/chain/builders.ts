/**
 * Instruction builders for every owner action on stake_lock, lease and behavior_log (0x01 spec
 * §10.2, §10.3, §10.5), taking public keys only: a wallet (or lib/chain/node with a Keypair)
 * puts them in a Transaction, sets the fee payer and signs. Browser-safe. Challenge actions are
 * in challenge-builders.ts.
 */
import { Ed25519Program, PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { type BehaviorBatch, batchHash } from '../protocol/batch';
import { type EconomyConfig, usdcAccountOf } from './config';
import { identityTokenAccount } from './identity';
import { behaviorLog, challenge, lease, stakeLock } from './programs';
import { agentIndexAddress, registryConfigAddress } from './sati';

const isKey = (k: unknown): k is PublicKey => k instanceof PublicKey;
function keys(p: Record<string, unknown>, names: readonly string[]): void {
  for (const n of names) if (!isKey(p[n])) throw new TypeError(`${n} must be a PublicKey`);
}
function config(c: unknown): EconomyConfig {
  const cfg = c as EconomyConfig | undefined;
  if (!cfg || !isKey(cfg.usdcMint) || !isKey(cfg.treasury) || !isKey(cfg.stakeVault) || !isKey(cfg.satiProgram))
    throw new TypeError('config must be an EconomyConfig (loadEconomyConfig)');
  return cfg;
}

/** An owner acting for its agent: `owner` holds the agent's identity NFT and signs. */
export interface OwnerActionParams {
  owner: PublicKey;
  agent: PublicKey;
}

/**
 * lock_stake: locks `amount` USDC base units (>= MIN_STAKE) from the owner's USDC account for a
 * registered SATI agent. `memberNumber` is the agent's SATI member number (its TokenGroupMember;
 * loadSatiMembership reads it), which locates SATI's AgentIndex PDA. Signer: owner.
 */
export function lockStakeInstructions(
  p: OwnerActionParams & { amount: bigint; config: EconomyConfig; memberNumber: bigint },
): TransactionInstruction[] {
  keys(p as unknown as Record<string, unknown>, ['owner', 'agent']);
  const cfg = config(p.config);
  if (typeof p.amount !== 'bigint' || p.amount <= 0n) throw new RangeError('amount must be a positive bigint');
  if (typeof p.memberNumber !== 'bigint' || p.memberNumber < 1n)
    throw new RangeError('memberNumber must be the SATI member number (bigint ≥ 1)');
  return [
    stakeLock.lockStakeInstruction(
      {
        owner: p.owner,
        stake: stakeLock.findStakePda(p.agent)[0],
        agent: p.agent,
        identity: identityTokenAccount(p.agent, p.owner),
        ownerUsdc: usdcAccountOf(cfg.usdcMint, p.owner),
        vault: cfg.stakeVault,
        satiRegistry: registryConfigAddress(cfg.satiProgram),
        agentIndex: agentIndexAddress(p.memberNumber, cfg.satiProgram),
      },
      { amount: p.amount },
    ),
  ];
}

/** pay_lease: pays `epochs` (default 1) lease epochs for `agent` from `payer`'s USDC; anyone may pay. Signer: payer. */
export function payLeaseInstructions(p: {
  payer: PublicKey;
  agent: PublicKey;
  epochs?: number;
  config: EconomyConfig;
}): TransactionInstruction[] {
  keys(p as unknown as Record<string, unknown>, ['payer', 'agent']);
  const cfg = config(p.config);
  const epochs = p.epochs ?? 1;
  if (!Number.isInteger(epochs) || epochs < 1 || epochs > 0xffffffff)
    throw new RangeError('epochs must be a positive integer');
  return [
    lease.payLeaseInstruction(
      {
        payer: p.payer,
        lease: lease.findLeasePda(p.agent)[0],
        agent: p.agent,
        payerUsdc: usdcAccountOf(cfg.usdcMint, p.payer),
        treasury: cfg.treasury,
      },
      { epochs },
    ),
  ];
}

/** tick_lease: permissionless grace / deactivation step; needs only a fee payer. */
export function tickLeaseInstructions(p: { agent: PublicKey }): TransactionInstruction[] {
  keys(p as unknown as Record<string, unknown>, ['agent']);
  return [lease.tickLeaseInstruction({ lease: lease.findLeasePda(p.agent)[0] })];
}

/** The message the identity owner signs (Ed25519) to submit `batch`: its batch_hash (lib/protocol). */
export function submitBatchMessage(batch: BehaviorBatch): Uint8Array {
  return batchHash(batch);
}

/** Parameters of {@link submitBatchInstructions}. */
export interface SubmitBatchInstructionsParams extends OwnerActionParams {
  batch: BehaviorBatch;
  /** The owner's Ed25519 signature over {@link submitBatchMessage} (a wallet's signMessage). */
  signature: Uint8Array;
  /** Pays the BatchAccount rent and signs (default: owner). */
  payer?: PublicKey;
}

/**
 * [Ed25519 program instruction with the owner's signature over batch_hash, submit_batch].
 * Signer: payer (the owner's signature travels in the Ed25519 instruction).
 */
export function submitBatchInstructions(p: SubmitBatchInstructionsParams): TransactionInstruction[] {
  keys(p as unknown as Record<string, unknown>, ['owner', 'agent']);
  const b = p.batch;
  if (!b || !(b.agentId instanceof Uint8Array) || !p.agent.equals(new PublicKey(b.agentId)))
    throw new TypeError('batch.agentId must equal agent');
  if (!(p.signature instanceof Uint8Array) || p.signature.length !== 64)
    throw new TypeError('signature must be a 64-byte Ed25519 signature');
  const payer = p.payer ?? p.owner;
  if (!isKey(payer)) throw new TypeError('payer must be a PublicKey');
  const hash = batchHash(b);
  const [batchAccount, bump] = behaviorLog.findBatchPda(p.agent, b.epochNumber);
  return [
    Ed25519Program.createInstructionWithPublicKey({
      publicKey: p.owner.toBytes(),
      message: hash,
      signature: p.signature,
    }),
    behaviorLog.submitBatchInstruction(
      { payer, identity: identityTokenAccount(p.agent, p.owner), batch: batchAccount },
      {
        epoch: b.epochNumber,
        batchHash: hash,
        logMerkleRoot: b.logMerkleRoot,
        messageCount: b.messageCount,
        bidCount: b.bidValues.length,
        taskCount: b.taskSelections.length,
        verifierCount: b.verifierIds.length,
        feedbackCount: b.feedbackEvents.length,
        overflow: b.overflow ? 1 : 0,
        bump,
      },
    ),
  ];
}

/** queue_unlock: starts the unlock delay (the agent's lease must be deactivated). Signer: owner. */
export function queueUnlockInstructions(p: OwnerActionParams): TransactionInstruction[] {
  keys(p as unknown as Record<string, unknown>, ['owner', 'agent']);
  return [
    stakeLock.queueUnlockInstruction({
      owner: p.owner,
      stake: stakeLock.findStakePda(p.agent)[0],
      identity: identityTokenAccount(p.agent, p.owner),
      lease: lease.findLeasePda(p.agent)[0],
    }),
  ];
}

/** claim_stake: takes the stake back after UNLOCK_DELAY_SLOTS with no pending challenge. Signer: owner. */
export function claimStakeInstructions(p: OwnerActionParams & { config: EconomyConfig }): TransactionInstruction[] {
  keys(p as unknown as Record<string, unknown>, ['owner', 'agent']);
  const cfg = config(p.config);
  return [
    stakeLock.claimStakeInstruction({
      owner: p.owner,
      stake: stakeLock.findStakePda(p.agent)[0],
      identity: identityTokenAccount(p.agent, p.owner),
      agentChallenges: challenge.findAgentPda(p.agent)[0],
      vault: cfg.stakeVault,
      ownerUsdc: usdcAccountOf(cfg.usdcMint, p.owner),
    }),
  ];
}

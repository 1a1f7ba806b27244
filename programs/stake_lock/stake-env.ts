/**
 * Test/bench environment for stake_lock: lease and stake_lock initialized on one USDC mint and
 * treasury, the vault as the vault_authority PDA's associated token account, helpers to build an
 * agent with USDC and to drive its lease to deactivated.
 */
import type { LiteSVM } from 'litesvm';
import type { TransactionInstruction } from '@solana/web3.js';
import * as lease from '../../lib/chain/gen/lease';
import * as stakeLock from '../../lib/chain/gen/stake_lock';
import * as challenge from '../../lib/chain/gen/challenge';
import {
  Keypair, PublicKey, createIdentity, createUsdc, fundedWallet, newSvm, sendOk, setEpoch, tokenAccount, usdcAccount,
  type Identity, type Usdc,
} from '../test-helpers';

export const EPOCH_SECONDS = 86_400n;
export const USDC = 1_000_000n;

export interface StakeEnv {
  svm: LiteSVM; admin: Keypair; usdc: Usdc; treasury: PublicKey; vault: PublicKey; vaultAuthority: PublicKey;
}
export type Agent = Identity & { usdc: PublicKey };

export function setupStake(svm: LiteSVM = newSvm()): StakeEnv {
  setEpoch(svm, 100n, EPOCH_SECONDS);
  const admin = fundedWallet(svm, 100);
  const usdc = createUsdc(svm, admin);
  const treasury = usdcAccount(svm, admin, usdc, Keypair.generate().publicKey);
  const [vaultAuthority] = stakeLock.findVaultAuthorityPda();
  const vault = tokenAccount(svm, admin, usdc.mint, vaultAuthority);
  sendOk(svm, [
    lease.initializeInstruction({ admin: admin.publicKey, usdcMint: usdc.mint, treasury }, { epochSeconds: EPOCH_SECONDS }),
    stakeLock.initializeInstruction({ admin: admin.publicKey, usdcMint: usdc.mint, treasury, vault }, { epochSeconds: EPOCH_SECONDS }),
  ], [admin]);
  return { svm, admin, usdc, treasury, vault, vaultAuthority };
}

export function newAgent(env: StakeEnv, usdcAmount: bigint): Agent {
  const owner = fundedWallet(env.svm);
  const id = createIdentity(env.svm, env.admin, owner);
  return { ...id, usdc: usdcAccount(env.svm, env.admin, env.usdc, owner.publicKey, usdcAmount) };
}

export const lockIx = (env: StakeEnv, a: Agent, amount: bigint, over: Partial<stakeLock.LockStakeAccounts> = {}): TransactionInstruction =>
  stakeLock.lockStakeInstruction({
    owner: a.owner.publicKey, stake: stakeLock.findStakePda(a.agent)[0], agent: a.agent, identity: a.tokenAccount,
    ownerUsdc: a.usdc, vault: env.vault, ...over,
  }, { amount });

export const queueIx = (a: Agent, over: Partial<stakeLock.QueueUnlockAccounts> = {}): TransactionInstruction =>
  stakeLock.queueUnlockInstruction({
    owner: a.owner.publicKey, stake: stakeLock.findStakePda(a.agent)[0], identity: a.tokenAccount,
    lease: lease.findLeasePda(a.agent)[0], ...over,
  });

export const claimIx = (env: StakeEnv, a: Agent, over: Partial<stakeLock.ClaimStakeAccounts> = {}): TransactionInstruction =>
  stakeLock.claimStakeInstruction({
    owner: a.owner.publicKey, stake: stakeLock.findStakePda(a.agent)[0], identity: a.tokenAccount,
    agentChallenges: challenge.findAgentPda(a.agent)[0], vault: env.vault, ownerUsdc: a.usdc, ...over,
  });

export const payLeaseIx = (env: StakeEnv, a: Agent, epochs: number): TransactionInstruction =>
  lease.payLeaseInstruction({
    payer: a.owner.publicKey, lease: lease.findLeasePda(a.agent)[0], agent: a.agent, payerUsdc: a.usdc, treasury: env.treasury,
  }, { epochs });

/** Pays one epoch at `epoch`, then moves past the grace period and ticks: the lease ends deactivated. */
export function deactivateLease(env: StakeEnv, a: Agent, epoch = 100n): void {
  setEpoch(env.svm, epoch, EPOCH_SECONDS);
  sendOk(env.svm, [payLeaseIx(env, a, 1)], [a.owner]);
  setEpoch(env.svm, epoch + 4n, EPOCH_SECONDS);
  sendOk(env.svm, [lease.tickLeaseInstruction({ lease: lease.findLeasePda(a.agent)[0] })], [a.owner]);
}

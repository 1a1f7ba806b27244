/**
 * Test/bench environment for stake_lock: lease and stake_lock initialized on one USDC mint and
 * treasury, the vault as the vault_authority PDA's associated token account, helpers to build an
 * agent with USDC and to drive its lease to deactivated, and the slasher fixture that stands in
 * for the challenge program's slashing CPI. Instructions come from the chain SDK's generated
 * builders (lib/chain/programs).
 */

import { TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { challenge, lease, stakeLock } from '../../lib/chain/programs';
import {
  createSatiIdentity,
  createUsdc,
  ensureSati,
  fundedWallet,
  type Identity,
  Keypair,
  newSvm,
  PROGRAM_IDS,
  type PublicKey,
  SATI_PROGRAM_ID,
  satiAccountsOf,
  sendOk,
  setEpoch,
  tokenAccount,
  type Usdc,
  usdcAccount,
} from '../testing';
import { compileSources } from '../tools/build';

export const EPOCH_SECONDS = 86_400n;
export const USDC = 1_000_000n;

export interface StakeEnv {
  svm: LiteSVM;
  admin: Keypair;
  usdc: Usdc;
  treasury: PublicKey;
  vault: PublicKey;
  vaultAuthority: PublicKey;
}
export type Agent = Identity & { usdc: PublicKey; memberNumber: bigint };

/**
 * lease and stake_lock initialized; stake_lock accepts members of the SATI registry at `satiProgram` (initialized
 * here).
 */
export function setupStake(svm: LiteSVM = newSvm(), satiProgram: PublicKey = SATI_PROGRAM_ID): StakeEnv {
  setEpoch(svm, 100n, EPOCH_SECONDS);
  const admin = fundedWallet(svm, 100);
  const usdc = createUsdc(svm, admin);
  const treasury = usdcAccount(svm, admin, usdc, Keypair.generate().publicKey);
  const [vaultAuthority] = stakeLock.findVaultAuthorityPda();
  const vault = tokenAccount(svm, admin, usdc.mint, vaultAuthority);
  ensureSati(svm, admin, satiProgram);
  sendOk(
    svm,
    [
      lease.initializeInstruction(
        { admin: admin.publicKey, usdcMint: usdc.mint, treasury },
        { epochSeconds: EPOCH_SECONDS },
      ),
      stakeLock.initializeInstruction(
        { admin: admin.publicKey, usdcMint: usdc.mint, treasury, vault },
        { epochSeconds: EPOCH_SECONDS, satiProgram },
      ),
    ],
    [admin],
  );
  return { svm, admin, usdc, treasury, vault, vaultAuthority };
}

export function newAgent(env: StakeEnv, usdcAmount: bigint): Agent {
  const owner = fundedWallet(env.svm);
  const id = createSatiIdentity(env.svm, env.admin, owner);
  return { ...id, usdc: usdcAccount(env.svm, env.admin, env.usdc, owner.publicKey, usdcAmount) };
}

export const lockIx = (
  env: StakeEnv,
  a: Agent,
  amount: bigint,
  over: Partial<stakeLock.LockStakeAccounts> = {},
): TransactionInstruction =>
  stakeLock.lockStakeInstruction(
    {
      owner: a.owner.publicKey,
      stake: stakeLock.findStakePda(a.agent)[0],
      agent: a.agent,
      identity: a.tokenAccount,
      ownerUsdc: a.usdc,
      vault: env.vault,
      ...satiAccountsOf(a),
      ...over,
    },
    { amount },
  );

export const queueIx = (a: Agent, over: Partial<stakeLock.QueueUnlockAccounts> = {}): TransactionInstruction =>
  stakeLock.queueUnlockInstruction({
    owner: a.owner.publicKey,
    stake: stakeLock.findStakePda(a.agent)[0],
    identity: a.tokenAccount,
    lease: lease.findLeasePda(a.agent)[0],
    ...over,
  });

export const claimIx = (
  env: StakeEnv,
  a: Agent,
  over: Partial<stakeLock.ClaimStakeAccounts> = {},
): TransactionInstruction =>
  stakeLock.claimStakeInstruction({
    owner: a.owner.publicKey,
    stake: stakeLock.findStakePda(a.agent)[0],
    identity: a.tokenAccount,
    agentChallenges: challenge.findAgentPda(a.agent)[0],
    vault: env.vault,
    ownerUsdc: a.usdc,
    ...over,
  });

export const payLeaseIx = (env: StakeEnv, a: Agent, epochs: number): TransactionInstruction =>
  lease.payLeaseInstruction(
    {
      payer: a.owner.publicKey,
      lease: lease.findLeasePda(a.agent)[0],
      agent: a.agent,
      payerUsdc: a.usdc,
      treasury: env.treasury,
    },
    { epochs },
  );

/** Pays one epoch at `epoch`, then moves past the grace period and ticks: the lease ends deactivated. */
export function deactivateLease(env: StakeEnv, a: Agent, epoch = 100n): void {
  setEpoch(env.svm, epoch, EPOCH_SECONDS);
  sendOk(env.svm, [payLeaseIx(env, a, 1)], [a.owner]);
  setEpoch(env.svm, epoch + 4n, EPOCH_SECONDS);
  sendOk(env.svm, [lease.tickLeaseInstruction({ lease: lease.findLeasePda(a.agent)[0] })], [a.owner]);
}

/** fixtures/slasher.c compiled (needs clang-19): load it at the challenge id to slash as the real caller would. */
export const slasherFixture = (): Uint8Array => compileSources(['stake_lock/fixtures/slasher.c']).so;

/**
 * A call of the slasher fixture loaded at `programId`: the stake_lock program, then the accounts of
 * stake_lock `slash` from the generated builder with the fixture's [b"slasher"] PDA unsigned (the
 * fixture signs for it in the CPI). The fixture has no program.json, so this one instruction is
 * assembled by hand.
 */
export function viaSlasherFixture(
  programId: PublicKey,
  accounts: Omit<stakeLock.SlashAccounts, 'slasher'>,
): TransactionInstruction {
  const [slasher] = challenge.findSlasherPda(programId);
  const keys = stakeLock
    .slashInstruction({ slasher, ...accounts })
    .keys.map((k) => (k.pubkey.equals(slasher) ? { ...k, isSigner: false } : k));
  return new TransactionInstruction({
    programId,
    keys: [{ pubkey: PROGRAM_IDS.stake_lock, isSigner: false, isWritable: false }, ...keys],
    data: Buffer.alloc(0),
  });
}

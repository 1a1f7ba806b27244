import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { challenge, lease, stakeLock } from '../../lib/chain/programs';
import { registryConfigAddress } from '../../lib/chain/sati';
import {
  accountData,
  createIdentity,
  createUsdc,
  ensureSati,
  fundedWallet,
  Keypair,
  kitAddress,
  newSvm,
  PROGRAM_IDS,
  PROGRAMS_DIR,
  PublicKey,
  programData,
  registerSati,
  SATI_PROGRAM_ID,
  satiAccountsOf,
  sendErr,
  sendOk,
  setAccount,
  setEpoch,
  tokenBalance,
  usdcAccount,
  warpSlots,
} from '../testing';
import { toolchainAvailable } from '../tools/build';
import {
  type Agent,
  claimIx,
  deactivateLease,
  EPOCH_SECONDS,
  lockIx,
  newAgent,
  payLeaseIx,
  queueIx,
  type StakeEnv,
  setupStake,
  slasherFixture,
  USDC,
  viaSlasherFixture,
} from './stake-env';

const E = stakeLock.ERRORS;
const DELAY = 432_000n;
const stakeOf = (env: StakeEnv, a: Agent) =>
  stakeLock.decodeStake(accountData(env.svm, stakeLock.findStakePda(a.agent)[0]));
const events = (logs: string[]) => programData(logs).map(([d]) => stakeLock.decodeEvent(d));

function lockedAgent(env: StakeEnv, amount = 10n * USDC): Agent {
  const a = newAgent(env, 20n * USDC);
  sendOk(env.svm, [lockIx(env, a, amount)], [a.owner]);
  return a;
}

describe('stake_lock: initialize', () => {
  test('records admin, mint, treasury, vault and bumps', () => {
    const env = setupStake();
    const cfg = stakeLock.decodeStakeConfig(accountData(env.svm, stakeLock.findConfigPda()[0]))!;
    assert.ok(
      cfg.admin.equals(env.admin.publicKey) &&
        cfg.usdcMint.equals(env.usdc.mint) &&
        cfg.treasury.equals(env.treasury) &&
        cfg.vault.equals(env.vault),
    );
    assert.deepEqual(
      [cfg.epochSeconds, cfg.bump, cfg.vaultAuthorityBump],
      [EPOCH_SECONDS, stakeLock.findConfigPda()[1], stakeLock.findVaultAuthorityPda()[1]],
    );
    sendErr(
      env.svm,
      [
        stakeLock.initializeInstruction(
          { admin: env.admin.publicKey, usdcMint: env.usdc.mint, treasury: env.treasury, vault: env.vault },
          { epochSeconds: 1n, satiProgram: SATI_PROGRAM_ID },
        ),
      ],
      [env.admin],
      E.AlreadyInitialized,
    );
  });

  test('a vault not owned by the vault_authority PDA is refused', () => {
    const svm2 = newSvm();
    const admin = fundedWallet(svm2);
    const usdc = createUsdc(svm2, admin);
    const treasury = usdcAccount(svm2, admin, usdc, admin.publicKey);
    sendErr(
      svm2,
      [
        stakeLock.initializeInstruction(
          { admin: admin.publicKey, usdcMint: usdc.mint, treasury, vault: treasury },
          { epochSeconds: 1n, satiProgram: SATI_PROGRAM_ID },
        ),
      ],
      [admin],
      E.WrongVault,
    );
  });
});

describe('stake_lock: lock_stake requires SATI registration', () => {
  /** An owner with USDC holding `agent` (any Token-2022 NFT), shaped like a stake-env Agent. */
  const holder = (
    env: StakeEnv,
    id: { agent: PublicKey; owner: Keypair; tokenAccount: PublicKey },
    memberNumber: bigint,
  ): Agent => ({
    ...id,
    memberNumber,
    usdc: usdcAccount(env.svm, env.admin, env.usdc, id.owner.publicKey, 20n * USDC),
  });

  test(
    'a supply-1 Token-2022 NFT that is not a member of ' + "SATI's group is refused, whichever AgentIndex is named",
    () => {
      const env = setupStake();
      const member = newAgent(env, 20n * USDC);
      const nft = holder(env, createIdentity(env.svm, env.admin, fundedWallet(env.svm)), member.memberNumber);
      sendErr(env.svm, [lockIx(env, nft, 10n * USDC)], [nft.owner], E.NotSatiAgent);
      sendErr(env.svm, [lockIx(env, { ...nft, memberNumber: 99n }, 10n * USDC)], [nft.owner], E.NotSatiAgent);
      assert.equal(tokenBalance(env.svm, nft.usdc), 20n * USDC);
      assert.equal(accountData(env.svm, stakeLock.findStakePda(nft.agent)[0]).length, 0);
      sendOk(env.svm, [lockIx(env, member, 10n * USDC)], [member.owner]);
    },
  );

  test("another member's AgentIndex, a foreign RegistryConfig, a plain identity with a member's accounts", () => {
    const env = setupStake();
    const a = newAgent(env, 20n * USDC);
    const b = newAgent(env, 20n * USDC);
    sendErr(
      env.svm,
      [lockIx(env, a, 10n * USDC, { agentIndex: satiAccountsOf(b).agentIndex })],
      [a.owner],
      E.NotSatiAgent,
    );
    const fake = Keypair.generate().publicKey;
    setAccount(
      env.svm,
      fake,
      Keypair.generate().publicKey,
      accountData(env.svm, registryConfigAddress(SATI_PROGRAM_ID)),
    );
    sendErr(env.svm, [lockIx(env, a, 10n * USDC, { satiRegistry: fake })], [a.owner], E.WrongSatiAccount);
    sendErr(
      env.svm,
      [lockIx(env, a, 10n * USDC, { satiRegistry: satiAccountsOf(a).agentIndex })],
      [a.owner],
      E.WrongSatiAccount,
    );
    sendOk(env.svm, [lockIx(env, a, 10n * USDC)], [a.owner]);
  });

  test(
    'the SATI program is a deployment parameter: members of ' +
      'the configured registry stake, members of another do not',
    () => {
      const other = Keypair.generate().publicKey;
      const svm = newSvm({ satiProgram: other });
      svm.addProgramFromFile(kitAddress(SATI_PROGRAM_ID), `${PROGRAMS_DIR}/bin/sati_registry.so`);
      const env = setupStake(svm, other);
      assert.ok(stakeLock.decodeStakeConfig(accountData(svm, stakeLock.findConfigPda()[0]))?.satiProgram.equals(other));
      ensureSati(svm, env.admin, SATI_PROGRAM_ID);
      const owner = fundedWallet(svm);
      const atDefault = registerSati(svm, env.admin, owner.publicKey, {}, SATI_PROGRAM_ID);
      const d = holder(
        env,
        { agent: atDefault.agent, owner, tokenAccount: atDefault.tokenAccount },
        atDefault.memberNumber,
      );
      sendErr(svm, [lockIx(env, d, 10n * USDC, satiAccountsOf(d, SATI_PROGRAM_ID))], [owner], E.WrongSatiAccount);
      sendErr(svm, [lockIx(env, d, 10n * USDC, satiAccountsOf(d, other))], [owner], E.NotSatiAgent);
      const owner2 = fundedWallet(svm);
      const atOther = registerSati(svm, env.admin, owner2.publicKey, {}, other);
      const o = holder(
        env,
        { agent: atOther.agent, owner: owner2, tokenAccount: atOther.tokenAccount },
        atOther.memberNumber,
      );
      sendOk(svm, [lockIx(env, o, 10n * USDC, satiAccountsOf(o, other))], [owner2]);
    },
  );
});

describe('stake_lock: lock_stake', () => {
  test('moves the stake into the vault and records the Stake account', () => {
    const env = setupStake();
    const a = newAgent(env, 25n * USDC);
    warpSlots(env.svm, 7n);
    const slot = env.svm.getClock().slot;
    const r = sendOk(env.svm, [lockIx(env, a, 12n * USDC)], [a.owner]);
    assert.equal(tokenBalance(env.svm, a.usdc), 13n * USDC);
    assert.equal(tokenBalance(env.svm, env.vault), 12n * USDC);
    const s = stakeOf(env, a)!;
    assert.ok(s.agent.equals(a.agent) && s.owner.equals(a.owner.publicKey));
    assert.deepEqual(
      [s.amount, s.lockedSlot, s.unlockRequestedSlot, s.status, s.bump],
      [12n * USDC, slot, 0n, 1, stakeLock.findStakePda(a.agent)[1]],
    );
    const [ev] = events(r.logs);
    assert.deepEqual(ev?.name === 'StakeLocked' && [ev.data.agent.toBase58(), ev.data.amount, ev.data.slot], [
      a.agent.toBase58(),
      12n * USDC,
      slot,
    ]);
  });

  test('below MIN_STAKE, too little USDC, double lock', () => {
    const env = setupStake();
    const a = newAgent(env, 15n * USDC);
    sendErr(env.svm, [lockIx(env, a, 10n * USDC - 1n)], [a.owner], E.BelowMinStake);
    sendErr(env.svm, [lockIx(env, a, 16n * USDC)], [a.owner], E.InsufficientUsdc);
    assert.equal(tokenBalance(env.svm, a.usdc), 15n * USDC);
    sendOk(env.svm, [lockIx(env, a, 10n * USDC)], [a.owner]);
    sendErr(env.svm, [lockIx(env, a, 10n * USDC)], [a.owner], E.AlreadyLocked);
    assert.equal(tokenBalance(env.svm, env.vault), 10n * USDC);
  });

  test('not the identity owner, wrong signer, wrong or foreign PDA', () => {
    const env = setupStake();
    const a = newAgent(env, 20n * USDC);
    const b = newAgent(env, 20n * USDC);
    // b signs for a's agent with a's identity account, and with its own identity account
    sendErr(
      env.svm,
      [lockIx(env, a, 10n * USDC, { owner: b.owner.publicKey, ownerUsdc: b.usdc })],
      [b.owner],
      E.NotIdentityOwner,
    );
    sendErr(
      env.svm,
      [lockIx(env, a, 10n * USDC, { owner: b.owner.publicKey, ownerUsdc: b.usdc, identity: b.tokenAccount })],
      [b.owner],
      E.NotIdentityOwner,
    );
    const ix = lockIx(env, a, 10n * USDC);
    ix.keys[0] = { ...ix.keys[0], isSigner: false };
    sendErr(env.svm, [ix], [fundedWallet(env.svm)], E.MissingSignature);
    sendOk(env.svm, [lockIx(env, b, 10n * USDC)], [b.owner]);
    sendErr(
      env.svm,
      [lockIx(env, a, 10n * USDC, { stake: stakeLock.findStakePda(b.agent)[0] })],
      [a.owner],
      E.WrongPda,
    );
    sendErr(env.svm, [lockIx(env, a, 10n * USDC, { stake: Keypair.generate().publicKey })], [a.owner], E.WrongPda);
    const [foreign] = PublicKey.findProgramAddressSync([Buffer.from('stake'), a.agent.toBytes()], PROGRAM_IDS.lease);
    sendErr(env.svm, [lockIx(env, a, 10n * USDC, { stake: foreign })], [a.owner], E.WrongPda);
    sendErr(env.svm, [lockIx(env, a, 10n * USDC, { vault: a.usdc })], [a.owner], E.WrongVault);
    sendErr(env.svm, [lockIx(env, a, 10n * USDC, { agent: env.usdc.mint })], [a.owner], E.NotAnAgent);
  });
});

describe('stake_lock: queue_unlock', () => {
  test('refused while leased or in grace; accepted once deactivated', () => {
    const env = setupStake();
    const a = lockedAgent(env);
    sendOk(env.svm, [payLeaseIx(env, a, 1)], [a.owner]); // paid through 100
    sendErr(env.svm, [queueIx(a)], [a.owner], E.StillLeased);
    setEpoch(env.svm, 102n, EPOCH_SECONDS);
    sendOk(env.svm, [lease.tickLeaseInstruction({ lease: lease.findLeasePda(a.agent)[0] })], [a.owner]);
    assert.equal(lease.decodeLease(accountData(env.svm, lease.findLeasePda(a.agent)[0]))!.status, 1);
    sendErr(env.svm, [queueIx(a)], [a.owner], E.StillLeased);
    setEpoch(env.svm, 104n, EPOCH_SECONDS);
    sendOk(env.svm, [lease.tickLeaseInstruction({ lease: lease.findLeasePda(a.agent)[0] })], [a.owner]);
    warpSlots(env.svm, 100n);
    const slot = env.svm.getClock().slot;
    const r = sendOk(env.svm, [queueIx(a)], [a.owner]);
    const s = stakeOf(env, a)!;
    assert.deepEqual([s.status, s.unlockRequestedSlot, s.amount], [2, slot, 10n * USDC]);
    const [ev] = events(r.logs);
    assert.deepEqual(ev?.name === 'UnlockQueued' && [ev.data.slot, ev.data.claimableSlot, ev.data.amount], [
      slot,
      slot + DELAY,
      10n * USDC,
    ]);
    sendErr(env.svm, [queueIx(a)], [a.owner], E.NotLocked);
  });

  test('a foreign lease account, a missing lease and a non-owner are refused', () => {
    const env = setupStake();
    const a = lockedAgent(env);
    const b = lockedAgent(env);
    deactivateLease(env, b);
    sendErr(env.svm, [queueIx(a, { lease: lease.findLeasePda(b.agent)[0] })], [a.owner], E.WrongLeaseAccount);
    sendErr(env.svm, [queueIx(a)], [a.owner], E.WrongLeaseAccount); // a never leased: no Lease account
    sendErr(
      env.svm,
      [queueIx(b, { owner: a.owner.publicKey, identity: a.tokenAccount })],
      [a.owner],
      E.NotIdentityOwner,
    );
    sendErr(env.svm, [queueIx(b, { stake: Keypair.generate().publicKey })], [b.owner], E.NoStake);
  });
});

function unlockingAgent(env: StakeEnv): Agent {
  const a = lockedAgent(env);
  deactivateLease(env, a);
  sendOk(env.svm, [queueIx(a)], [a.owner]);
  return a;
}

describe('stake_lock: claim_stake', () => {
  test('before the delay fails; after it pays the owner back; a second claim fails', () => {
    const env = setupStake();
    const a = unlockingAgent(env);
    const before = tokenBalance(env.svm, a.usdc);
    warpSlots(env.svm, DELAY - 1n);
    sendErr(env.svm, [claimIx(env, a)], [a.owner], E.UnlockDelayNotElapsed);
    warpSlots(env.svm, 1n);
    const r = sendOk(env.svm, [claimIx(env, a)], [a.owner]);
    assert.equal(tokenBalance(env.svm, a.usdc), before + 10n * USDC);
    assert.equal(tokenBalance(env.svm, env.vault), 0n);
    const s = stakeOf(env, a)!;
    assert.deepEqual([s.status, s.amount], [3, 0n]);
    const [ev] = events(r.logs);
    assert.deepEqual(ev?.name === 'StakeClaimed' && [ev.data.amount, ev.data.owner.toBase58()], [
      10n * USDC,
      a.owner.publicKey.toBase58(),
    ]);
    sendErr(env.svm, [claimIx(env, a)], [a.owner], E.AlreadyClaimed);
  });

  test('a pending challenge blocks the claim; pending 0 does not', () => {
    const env = setupStake();
    const a = unlockingAgent(env);
    warpSlots(env.svm, DELAY);
    const [ac, bump] = challenge.findAgentPda(a.agent);
    setAccount(
      env.svm,
      ac,
      PROGRAM_IDS.challenge,
      challenge.encodeAgentChallenges({ agent: a.agent, pending: 1, total: 1, upheld: 0, bump }),
    );
    sendErr(env.svm, [claimIx(env, a)], [a.owner], E.PendingChallenge);
    setAccount(
      env.svm,
      ac,
      PROGRAM_IDS.challenge,
      challenge.encodeAgentChallenges({ agent: a.agent, pending: 0, total: 1, upheld: 0, bump }),
    );
    sendOk(env.svm, [claimIx(env, a)], [a.owner]);
    assert.equal(stakeOf(env, a)!.status, 3);
  });

  test('claim without queue_unlock, wrong challenge account, wrong vault authority, non-owner', () => {
    const env = setupStake();
    const a = lockedAgent(env);
    sendErr(env.svm, [claimIx(env, a)], [a.owner], E.NotUnlocking);
    const b = unlockingAgent(env);
    warpSlots(env.svm, DELAY);
    sendErr(
      env.svm,
      [claimIx(env, b, { agentChallenges: challenge.findAgentPda(a.agent)[0] })],
      [b.owner],
      E.WrongChallengeAccount,
    );
    sendErr(env.svm, [claimIx(env, b, { vaultAuthority: Keypair.generate().publicKey })], [b.owner], E.WrongVault);
    sendErr(
      env.svm,
      [claimIx(env, b, { owner: a.owner.publicKey, identity: a.tokenAccount, ownerUsdc: a.usdc })],
      [a.owner],
      E.NotIdentityOwner,
    );
    const ix = claimIx(env, b);
    ix.keys[0] = { ...ix.keys[0], isSigner: false };
    sendErr(env.svm, [ix], [fundedWallet(env.svm)], E.MissingSignature);
  });
});

const skip = toolchainAvailable() ? false : 'clang-19 not installed: the slasher fixture cannot be compiled';

describe('stake_lock: slash', () => {
  test('a direct call is refused: random signer, or the slasher PDA unsigned', () => {
    const env = setupStake();
    const a = lockedAgent(env);
    const mallory = fundedWallet(env.svm);
    const mUsdc = usdcAccount(env.svm, env.admin, env.usdc, mallory.publicKey);
    sendErr(
      env.svm,
      [
        stakeLock.slashInstruction({
          slasher: mallory.publicKey,
          stake: stakeLock.findStakePda(a.agent)[0],
          vault: env.vault,
          challengerUsdc: mUsdc,
          treasury: env.treasury,
        }),
      ],
      [mallory],
      E.NotSlasher,
    );
    const ix = stakeLock.slashInstruction({
      slasher: challenge.findSlasherPda()[0],
      stake: stakeLock.findStakePda(a.agent)[0],
      vault: env.vault,
      challengerUsdc: mUsdc,
      treasury: env.treasury,
    });
    ix.keys[0] = { ...ix.keys[0], isSigner: false };
    sendErr(env.svm, [ix], [mallory], E.NotSlasher);
    assert.equal(tokenBalance(env.svm, env.vault), 10n * USDC);
  });

  test('through CPI from the challenge program id: whole stake slashed, half ' +
    'to the challenger, half to the treasury; a foreign program is refused', {
    skip,
  }, () => {
    const svm = newSvm({ programs: ['lease', 'stake_lock'] });
    const so = slasherFixture();
    svm.addProgram(kitAddress(PROGRAM_IDS.challenge), so);
    const foreignId = Keypair.generate().publicKey;
    svm.addProgram(kitAddress(foreignId), so);
    const env = setupStake(svm);
    const a = lockedAgent(env, 11n * USDC);
    const challenger = fundedWallet(svm);
    const cUsdc = usdcAccount(svm, env.admin, env.usdc, challenger.publicKey);
    const viaFixture = (programId: PublicKey) =>
      viaSlasherFixture(programId, {
        stake: stakeLock.findStakePda(a.agent)[0],
        vault: env.vault,
        challengerUsdc: cUsdc,
        treasury: env.treasury,
        vaultAuthority: env.vaultAuthority,
      });
    sendErr(svm, [viaFixture(foreignId)], [challenger], E.NotSlasher);
    const r = sendOk(svm, [viaFixture(PROGRAM_IDS.challenge)], [challenger]);
    assert.equal(tokenBalance(svm, cUsdc), 5_500_000n);
    assert.equal(tokenBalance(svm, env.treasury), 5_500_000n);
    assert.equal(tokenBalance(svm, env.vault), 0n);
    const s = stakeOf(env, a)!;
    assert.deepEqual([s.status, s.amount], [4, 0n]);
    const ev = events(r.logs).find((e) => e?.name === 'StakeSlashed');
    assert.deepEqual(
      ev?.name === 'StakeSlashed' && [
        ev.data.amount,
        ev.data.reward,
        ev.data.toTreasury,
        ev.data.challengerUsdc.toBase58(),
      ],
      [11n * USDC, 5_500_000n, 5_500_000n, cUsdc.toBase58()],
    );
    sendErr(svm, [viaFixture(PROGRAM_IDS.challenge)], [challenger], E.NoStake);
  });
});

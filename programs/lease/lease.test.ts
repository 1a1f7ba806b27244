import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LiteSVM } from 'litesvm';
import { lease } from '../../lib/chain/programs';
import {
  accountData,
  createIdentity,
  createUsdc,
  fundedWallet,
  type Identity,
  Keypair,
  newSvm,
  PublicKey,
  programData,
  sendErr,
  sendOk,
  setEpoch,
  tokenBalance,
  type Usdc,
  usdcAccount,
} from '../testing';

const EPOCH_SECONDS = 86_400n;
const E = lease.ERRORS;
const USDC = 1_000_000n;

interface Env {
  svm: LiteSVM;
  admin: Keypair;
  usdc: Usdc;
  treasury: PublicKey;
  config: PublicKey;
}

function setup(initialize = true): Env {
  const svm = newSvm();
  setEpoch(svm, 100n, EPOCH_SECONDS);
  const admin = fundedWallet(svm);
  const usdc = createUsdc(svm, admin);
  const treasury = usdcAccount(svm, admin, usdc, Keypair.generate().publicKey);
  const [config] = lease.findConfigPda();
  if (initialize) {
    sendOk(
      svm,
      [
        lease.initializeInstruction(
          { admin: admin.publicKey, usdcMint: usdc.mint, treasury },
          { epochSeconds: EPOCH_SECONDS },
        ),
      ],
      [admin],
    );
  }
  return { svm, admin, usdc, treasury, config };
}

function agentWithUsdc(env: Env, amount: bigint): Identity & { usdc: PublicKey } {
  const owner = fundedWallet(env.svm);
  const id = createIdentity(env.svm, env.admin, owner);
  return { ...id, usdc: usdcAccount(env.svm, env.admin, env.usdc, owner.publicKey, amount) };
}

function payIx(
  env: Env,
  a: Identity & { usdc: PublicKey },
  epochs: number,
  over: Partial<lease.PayLeaseAccounts> = {},
) {
  return lease.payLeaseInstruction(
    {
      payer: a.owner.publicKey,
      lease: lease.findLeasePda(a.agent)[0],
      agent: a.agent,
      payerUsdc: a.usdc,
      treasury: env.treasury,
      ...over,
    },
    { epochs },
  );
}

const leaseOf = (env: Env, agent: PublicKey) => lease.decodeLease(accountData(env.svm, lease.findLeasePda(agent)[0]));
const tick = (env: Env, agent: PublicKey, signer: Keypair) =>
  sendOk(env.svm, [lease.tickLeaseInstruction({ lease: lease.findLeasePda(agent)[0] })], [signer]);
const events = (logs: string[]) => programData(logs).map(([d]) => lease.decodeEvent(d));

describe('lease: initialize', () => {
  test('creates the config with admin, mint, treasury, epoch length and emits LeaseInitialized', () => {
    const env = setup(false);
    const r = sendOk(
      env.svm,
      [
        lease.initializeInstruction(
          { admin: env.admin.publicKey, usdcMint: env.usdc.mint, treasury: env.treasury },
          { epochSeconds: EPOCH_SECONDS },
        ),
      ],
      [env.admin],
    );
    const cfg = lease.decodeLeaseConfig(accountData(env.svm, env.config));
    assert.ok(cfg);
    assert.ok(cfg.admin.equals(env.admin.publicKey));
    assert.ok(cfg.usdcMint.equals(env.usdc.mint));
    assert.ok(cfg.treasury.equals(env.treasury));
    assert.equal(cfg.epochSeconds, EPOCH_SECONDS);
    assert.equal(cfg.bump, lease.findConfigPda()[1]);
    assert.equal(accountData(env.svm, env.config).length, lease.LEASE_CONFIG_SIZE);
    const [ev] = events(r.logs);
    assert.equal(ev?.name, 'LeaseInitialized');
    assert.equal(ev?.name === 'LeaseInitialized' && ev.data.epochSeconds, EPOCH_SECONDS);
  });

  test('a second initialize fails with AlreadyInitialized', () => {
    const env = setup();
    sendErr(
      env.svm,
      [
        lease.initializeInstruction(
          { admin: env.admin.publicKey, usdcMint: env.usdc.mint, treasury: env.treasury },
          { epochSeconds: 1n },
        ),
      ],
      [env.admin],
      E.AlreadyInitialized,
    );
  });

  test('a config that is not the PDA fails with WrongPda; a treasury of another mint with WrongTreasury', () => {
    const env = setup(false);
    const ix = lease.initializeInstruction(
      {
        admin: env.admin.publicKey,
        usdcMint: env.usdc.mint,
        treasury: env.treasury,
        config: Keypair.generate().publicKey,
      },
      { epochSeconds: 1n },
    );
    sendErr(env.svm, [ix], [env.admin], E.WrongPda);
    const other = createUsdc(env.svm, env.admin);
    const otherTreasury = usdcAccount(env.svm, env.admin, other, env.admin.publicKey);
    sendErr(
      env.svm,
      [
        lease.initializeInstruction(
          { admin: env.admin.publicKey, usdcMint: env.usdc.mint, treasury: otherTreasury },
          { epochSeconds: 1n },
        ),
      ],
      [env.admin],
      E.WrongTreasury,
    );
    sendErr(
      env.svm,
      [
        lease.initializeInstruction(
          { admin: env.admin.publicKey, usdcMint: env.usdc.mint, treasury: env.treasury },
          { epochSeconds: 0n },
        ),
      ],
      [env.admin],
      E.BadArgument,
    );
  });
});

describe('lease: pay_lease', () => {
  test('first payment creates the lease paid through the current epoch; later payments add epochs', () => {
    const env = setup();
    const a = agentWithUsdc(env, 10n * USDC);
    const r = sendOk(env.svm, [payIx(env, a, 1)], [a.owner]);
    assert.equal(tokenBalance(env.svm, a.usdc), 9n * USDC);
    assert.equal(tokenBalance(env.svm, env.treasury), 1n * USDC);
    const l = leaseOf(env, a.agent);
    assert.ok(l);
    assert.ok(l.agent.equals(a.agent));
    assert.deepEqual(
      { p: l.paidThroughEpoch, c: l.createdEpoch, t: l.lastTickEpoch, s: l.status, tot: l.totalPaid, b: l.bump },
      { p: 100n, c: 100n, t: 100n, s: 0, tot: 1n * USDC, b: lease.findLeasePda(a.agent)[1] },
    );
    const [ev] = events(r.logs);
    assert.equal(ev?.name, 'LeasePaid');
    if (ev?.name === 'LeasePaid') {
      assert.ok(ev.data.agent.equals(a.agent) && ev.data.payer.equals(a.owner.publicKey));
      assert.deepEqual(
        [ev.data.amount, ev.data.epoch, ev.data.paidThroughEpoch, ev.data.epochs, ev.data.prevStatus, ev.data.status],
        [USDC, 100n, 100n, 1, 0, 0],
      );
    }
    sendOk(env.svm, [payIx(env, a, 2)], [a.owner]);
    assert.equal(tokenBalance(env.svm, a.usdc), 7n * USDC);
    assert.equal(tokenBalance(env.svm, env.treasury), 3n * USDC);
    assert.equal(leaseOf(env, a.agent)?.paidThroughEpoch, 102n);
    assert.equal(leaseOf(env, a.agent)?.totalPaid, 3n * USDC);
  });

  test('too little USDC fails with InsufficientUsdc and moves nothing', () => {
    const env = setup();
    const a = agentWithUsdc(env, USDC - 1n);
    sendErr(env.svm, [payIx(env, a, 1)], [a.owner], E.InsufficientUsdc);
    assert.equal(tokenBalance(env.svm, a.usdc), USDC - 1n);
    assert.equal(tokenBalance(env.svm, env.treasury), 0n);
    assert.equal(leaseOf(env, a.agent), null);
  });

  test('payer that did not sign fails with MissingSignature', () => {
    const env = setup();
    const a = agentWithUsdc(env, 10n * USDC);
    const feePayer = fundedWallet(env.svm);
    const ix = payIx(env, a, 1);
    ix.keys[0] = { ...ix.keys[0], isSigner: false };
    sendErr(env.svm, [ix], [feePayer], E.MissingSignature);
  });

  test('wrong or foreign lease PDA fails with WrongPda', () => {
    const env = setup();
    const a = agentWithUsdc(env, 10n * USDC);
    const b = agentWithUsdc(env, 10n * USDC);
    sendOk(env.svm, [payIx(env, b, 1)], [b.owner]);
    sendErr(env.svm, [payIx(env, a, 1, { lease: lease.findLeasePda(b.agent)[0] })], [a.owner], E.WrongPda);
    sendErr(env.svm, [payIx(env, a, 1, { lease: Keypair.generate().publicKey })], [a.owner], E.WrongPda);
    const [otherProgramPda] = PublicKey.findProgramAddressSync(
      [Buffer.from('lease'), a.agent.toBytes()],
      Keypair.generate().publicKey,
    );
    sendErr(env.svm, [payIx(env, a, 1, { lease: otherProgramPda })], [a.owner], E.WrongPda);
  });

  test('wrong treasury, wrong USDC mint, non-agent mint and bad epochs are refused', () => {
    const env = setup();
    const a = agentWithUsdc(env, 10n * USDC);
    sendErr(env.svm, [payIx(env, a, 1, { treasury: a.usdc })], [a.owner], E.WrongTreasury);
    const fake = createUsdc(env.svm, env.admin);
    const fakeAcc = usdcAccount(env.svm, env.admin, fake, a.owner.publicKey, 10n * USDC);
    sendErr(env.svm, [payIx(env, a, 1, { payerUsdc: fakeAcc })], [a.owner], E.WrongMint);
    sendErr(
      env.svm,
      [payIx(env, a, 1, { agent: env.usdc.mint, lease: lease.findLeasePda(env.usdc.mint)[0] })],
      [a.owner],
      E.NotAnAgent,
    );
    sendErr(env.svm, [payIx(env, a, 0)], [a.owner], E.BadArgument);
    sendErr(env.svm, [payIx(env, a, 1001)], [a.owner], E.BadArgument);
    sendErr(env.svm, [payIx(env, a, 1, { config: Keypair.generate().publicKey })], [a.owner], E.NotInitialized);
  });
});

describe('lease: tick_lease', () => {
  test(
    'active while paid, grace after a missed epoch, deactivated ' +
      'after GRACE_PERIOD_EPOCHS, reactivated by back-lease',
    () => {
      const env = setup();
      const a = agentWithUsdc(env, 20n * USDC);
      const anyone = fundedWallet(env.svm);
      sendOk(env.svm, [payIx(env, a, 3)], [a.owner]); // paid through 102
      const statusAt = (epoch: bigint) => {
        setEpoch(env.svm, epoch, EPOCH_SECONDS, 5n);
        tick(env, a.agent, anyone);
        return leaseOf(env, a.agent)!.status;
      };
      assert.equal(statusAt(102n), 0);
      assert.equal(statusAt(103n), 1); // one missed epoch
      assert.equal(statusAt(105n), 1); // three missed: last grace epoch
      setEpoch(env.svm, 106n, EPOCH_SECONDS);
      const r = tick(env, a.agent, anyone);
      const l = leaseOf(env, a.agent)!;
      assert.deepEqual([l.status, l.lastTickEpoch, l.paidThroughEpoch], [2, 106n, 102n]);
      const [ev] = events(r.logs);
      assert.deepEqual(
        ev?.name === 'LeaseTicked' && [ev.data.epoch, ev.data.paidThroughEpoch, ev.data.prevStatus, ev.data.status],
        [106n, 102n, 1, 2],
      );
      // Paying part of the back-lease keeps it deactivated; the full back-lease reactivates.
      sendOk(env.svm, [payIx(env, a, 3)], [a.owner]);
      assert.deepEqual([leaseOf(env, a.agent)!.status, leaseOf(env, a.agent)!.paidThroughEpoch], [2, 105n]);
      assert.equal(statusAt(106n), 2);
      sendOk(env.svm, [payIx(env, a, 1)], [a.owner]);
      assert.deepEqual([leaseOf(env, a.agent)!.status, leaseOf(env, a.agent)!.paidThroughEpoch], [0, 106n]);
      assert.equal(tokenBalance(env.svm, a.usdc), 13n * USDC);
      assert.equal(tokenBalance(env.svm, env.treasury), 7n * USDC);
    },
  );

  test('tick on an agent without a lease fails with NoLease; a non-lease account with WrongPda', () => {
    const env = setup();
    const anyone = fundedWallet(env.svm);
    sendErr(
      env.svm,
      [lease.tickLeaseInstruction({ lease: lease.findLeasePda(Keypair.generate().publicKey)[0] })],
      [anyone],
      E.NoLease,
    );
    sendErr(env.svm, [lease.tickLeaseInstruction({ lease: env.config })], [anyone], E.WrongPda);
  });
});

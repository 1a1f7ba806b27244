/**
 * BehaviorLog on litesvm: initialize, submit_batch (Ed25519 introspection against the identity
 * owner), and each failure path with its error code.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ed25519Program, Keypair, type PublicKey } from '@solana/web3.js';
import { behaviorLog } from '../../lib/chain/programs';
import { ed25519Sign, keccak256 } from '../../lib/protocol/crypto';
import {
  createIdentity,
  createMint,
  createUsdc,
  currentSlot,
  fundedWallet,
  getAccount,
  mintTo,
  newSvm,
  programData,
  sendErr,
  sendOk,
  setEpoch,
  TOKEN_2022_PROGRAM_ID,
  tokenAccount,
  warpSlots,
} from '../testing';
import { seedOf, submitBatchIxs } from './client';

const {
  ERRORS,
  PROGRAM_ID,
  decodeBatchAccount,
  decodeConfig,
  decodeEvent,
  findBatchPda,
  findConfigPda,
  initializeInstruction,
  BATCH_ACCOUNT_SIZE,
} = behaviorLog;
const EPOCH_SECONDS = 86_400n;

function setup() {
  const svm = newSvm({ programs: ['behavior_log'] });
  const admin = fundedWallet(svm, 100);
  const usdc = createUsdc(svm, admin);
  const treasury = Keypair.generate().publicKey;
  setEpoch(svm, 20_700n, EPOCH_SECONDS, 100n);
  const init = sendOk(
    svm,
    [initializeInstruction({ admin: admin.publicKey }, { usdcMint: usdc.mint, treasury, epochSeconds: EPOCH_SECONDS })],
    [admin],
  );
  const owner = fundedWallet(svm, 10);
  const id = createIdentity(svm, admin, owner);
  return { svm, admin, usdc, treasury, init, owner, id };
}

const events = (logs: string[]) =>
  programData(logs)
    .map((d) => decodeEvent(d[0]))
    .filter((e) => e !== null);

describe('behavior_log', () => {
  test('initialize writes the config and emits Initialized; a second initialize fails', () => {
    const { svm, admin, usdc, treasury, init } = setup();
    const [config, bump] = findConfigPda();
    const acc = getAccount(svm, config)!;
    assert.ok(acc.owner.equals(PROGRAM_ID));
    assert.equal(acc.lamports, svm.minimumBalanceForRentExemption(120n));
    const c = decodeConfig(acc.data)!;
    assert.ok(c.admin.equals(admin.publicKey) && c.usdcMint.equals(usdc.mint) && c.treasury.equals(treasury));
    assert.equal(c.epochSeconds, EPOCH_SECONDS);
    assert.equal(c.bump, bump);
    const ev = events(init.logs);
    assert.equal(ev.length, 1);
    assert.equal(ev[0]!.name, 'Initialized');
    sendErr(
      svm,
      [
        initializeInstruction(
          { admin: admin.publicKey },
          { usdcMint: usdc.mint, treasury, epochSeconds: EPOCH_SECONDS },
        ),
      ],
      [admin],
      ERRORS.AlreadyInitialized,
    );
  });

  test('submit_batch creates the BatchAccount with exact fields and emits BatchSubmitted', () => {
    const { svm, owner, id } = setup();
    const payer = fundedWallet(svm, 1);
    const before = getAccount(svm, payer.publicKey)!.lamports;
    const batchHash = keccak256(Uint8Array.of(1, 2, 3));
    const root = keccak256(Uint8Array.of(4));
    warpSlots(svm, 1234n);
    const slot = currentSlot(svm);
    const r = sendOk(
      svm,
      submitBatchIxs({
        payer: payer.publicKey,
        identity: id.tokenAccount,
        agent: id.agent,
        ownerSeed: seedOf(owner.secretKey),
        epoch: 20_699n,
        batchHash,
        logMerkleRoot: root,
        counts: { messageCount: 17n, bidCount: 2, taskCount: 1, verifierCount: 1, feedbackCount: 2 },
      }),
      [payer],
    );
    const [pda, bump] = findBatchPda(id.agent, 20_699n);
    const acc = getAccount(svm, pda)!;
    const rent = svm.minimumBalanceForRentExemption(BigInt(BATCH_ACCOUNT_SIZE));
    assert.equal(acc.lamports, rent);
    // payer: rent + 5,000 lamports per signature (the transaction's and the Ed25519 program's)
    assert.equal(getAccount(svm, payer.publicKey)!.lamports, before - rent - 10_000n);
    const b = decodeBatchAccount(acc.data)!;
    assert.ok(b.agent.equals(id.agent) && b.signer.equals(owner.publicKey));
    assert.deepEqual(
      [
        b.epoch,
        b.submittedSlot,
        b.messageCount,
        b.bidCount,
        b.taskCount,
        b.verifierCount,
        b.feedbackCount,
        b.overflow,
        b.bump,
      ],
      [20_699n, slot, 17n, 2, 1, 1, 2, 0, bump],
    );
    assert.deepEqual(b.batchHash, batchHash);
    assert.deepEqual(b.logMerkleRoot, root);
    const ev = events(r.logs);
    assert.equal(ev.length, 1);
    assert.equal(ev[0]!.name, 'BatchSubmitted');
    const e = ev[0]!.data as { agent: PublicKey; batch: PublicKey; epoch: bigint; slot: bigint; batchHash: Uint8Array };
    assert.ok(e.agent.equals(id.agent) && e.batch.equals(pda));
    assert.deepEqual([e.epoch, e.slot], [20_699n, slot]);
    assert.deepEqual(e.batchHash, batchHash);
  });

  test('batch resubmitted for the same (agent, epoch) fails with BatchExists', () => {
    const { svm, owner, id } = setup();
    const p = {
      payer: owner.publicKey,
      identity: id.tokenAccount,
      agent: id.agent,
      ownerSeed: seedOf(owner.secretKey),
      epoch: 20_700n,
      batchHash: keccak256(Uint8Array.of(1)),
      logMerkleRoot: new Uint8Array(32),
    };
    sendOk(svm, submitBatchIxs(p), [owner]);
    sendErr(svm, submitBatchIxs({ ...p, batchHash: keccak256(Uint8Array.of(2)) }), [owner], ERRORS.BatchExists);
  });

  test('bad signatures: forged bytes, another key, another message, no Ed25519 instruction', () => {
    const { svm, owner, id } = setup();
    const base = {
      payer: owner.publicKey,
      identity: id.tokenAccount,
      agent: id.agent,
      ownerSeed: seedOf(owner.secretKey),
      epoch: 20_700n,
      batchHash: keccak256(Uint8Array.of(9)),
      logMerkleRoot: new Uint8Array(32),
    };
    // forged signature bytes: the Ed25519 program rejects the transaction
    const forged = ed25519Sign(base.batchHash, seedOf(owner.secretKey));
    forged[5] ^= 1;
    sendErr(
      svm,
      submitBatchIxs({ ...base, signature: forged }),
      [owner],
      /Ed25519|precompile|Custom|InvalidAccountData|signature/i,
    );
    // a valid signature by another key over batch_hash
    const other = Keypair.generate();
    const [, submit] = submitBatchIxs(base);
    const wrongKey = Ed25519Program.createInstructionWithPrivateKey({
      privateKey: other.secretKey,
      message: base.batchHash,
    });
    sendErr(svm, [wrongKey, submit], [owner], ERRORS.BadSignature);
    // the owner's signature over another message
    const wrongMsg = Ed25519Program.createInstructionWithPrivateKey({
      privateKey: owner.secretKey,
      message: keccak256(Uint8Array.of(10)),
    });
    sendErr(svm, [wrongMsg, submit], [owner], ERRORS.BadSignature);
    // no Ed25519 instruction at all
    sendErr(svm, [submit], [owner], ERRORS.BadSignature);
    // nothing was created
    assert.equal(getAccount(svm, findBatchPda(id.agent, 20_700n)[0]), null);
  });

  test('identity, PDA and epoch checks', () => {
    const { svm, admin, owner, id } = setup();
    const seed = seedOf(owner.secretKey);
    const base = {
      payer: owner.publicKey,
      identity: id.tokenAccount,
      agent: id.agent,
      ownerSeed: seed,
      epoch: 20_700n,
      batchHash: keccak256(Uint8Array.of(3)),
      logMerkleRoot: new Uint8Array(32),
    };
    // not the identity owner: a Token-2022 account of the same owner holding 0 of another mint
    const other = createMint(svm, admin, admin.publicKey, 0, TOKEN_2022_PROGRAM_ID);
    const empty = tokenAccount(svm, admin, other, owner.publicKey, TOKEN_2022_PROGRAM_ID);
    sendErr(svm, submitBatchIxs({ ...base, identity: empty, agent: other }), [owner], ERRORS.NotIdentityOwner);
    // holding 2 of a mint is not an identity
    mintTo(svm, admin, other, empty, admin, 2n, TOKEN_2022_PROGRAM_ID);
    sendErr(svm, submitBatchIxs({ ...base, identity: empty, agent: other }), [owner], ERRORS.NotIdentityOwner);
    // wrong PDA: the batch address of another epoch
    sendErr(svm, submitBatchIxs({ ...base, batch: findBatchPda(id.agent, 20_699n)[0] }), [owner], ERRORS.BadPda);
    // epoch checks: future, too late; the previous epoch is fine
    sendErr(svm, submitBatchIxs({ ...base, epoch: 20_701n }), [owner], ERRORS.EpochInFuture);
    sendErr(svm, submitBatchIxs({ ...base, epoch: 20_698n }), [owner], ERRORS.EpochTooLate);
    sendOk(svm, submitBatchIxs({ ...base, epoch: 20_699n }), [owner]);
    // the payer must sign
    const [ed2, ix] = submitBatchIxs({ ...base, epoch: 20_700n });
    ix.keys[0] = { pubkey: owner.publicKey, isSigner: false, isWritable: true };
    const payer = fundedWallet(svm, 1);
    sendErr(svm, [ed2, ix], [payer], ERRORS.MissingSigner);
  });
});

/**
 * Challenge on litesvm with the real BehaviorLog, StakeLock and SPL Token: initialize, buffers,
 * submit_challenge, resolve_challenge (upheld with slash, rejected, void), expire_challenge, and
 * every failure path with its error code.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { challenge as ch } from '../../lib/chain/programs';
import type { BehaviorBatch } from '../../lib/protocol/batch';
import { publicKeyFromSeed } from '../../lib/protocol/crypto';
import {
  fundedWallet,
  getAccount,
  programData,
  sendErr,
  sendOk,
  setEpoch,
  TOKEN_PROGRAM_ID,
  tokenBalance,
} from '../testing';
import {
  closeBufferIx,
  findAgentPda,
  findChallengePda,
  findConfigPda,
  findVaultPda,
  stageBuffer,
  writeBufferIx,
} from './client';
import {
  agentLog,
  BATCH_EPOCH,
  batchOf,
  CHALLENGE_STAKE,
  EPOCH_SECONDS,
  encodeBatch,
  lockStake,
  newAgent,
  newChallenger,
  resolveFor,
  stageEvidence,
  submitBatch,
  submitChallengeIx,
  USDC,
  world,
} from './scenario';

const E = ch.ERRORS;
const events = (logs: string[]) =>
  programData(logs)
    .map((d) => ch.decodeEvent(d[0]))
    .filter((e) => e !== null);
const withoutBid = (i: number) => (b: BehaviorBatch) => ({ ...b, bidValues: b.bidValues.filter((_, k) => k !== i) });

/** World + agent (stake locked) + its batch on chain + one challenger. */
function setup(edit?: (b: BehaviorBatch) => BehaviorBatch, stake = true) {
  const w = world();
  const a = newAgent(w);
  if (stake) lockStake(w, a);
  const log = agentLog(a.agent, a.seed);
  const batch = batchOf(a.agent, log, edit);
  const batchKey = submitBatch(w, a, batch);
  const c = newChallenger(w);
  return { w, a, log, batch, bytes: encodeBatch(batch), batchKey, c };
}

function challenge(s: ReturnType<typeof setup>, index: number) {
  return sendOk(s.w.svm, [submitChallengeIx(s.c, s.batchKey, s.a.agent, s.log.leaves[index])], [s.c.kp]);
}

const afterWindow = (s: ReturnType<typeof setup>) => setEpoch(s.w.svm, BATCH_EPOCH + 3n, EPOCH_SECONDS);

function resolve(s: ReturnType<typeof setup>, index: number, bytes = s.bytes, opts = {}, cu = 400_000) {
  const buffer = stageEvidence(s.w, s.c.kp, s.log, index, bytes, opts);
  return { buffer, ixs: resolveFor(s.w, s.a, s.c, s.batchKey, buffer, s.log, index, cu) };
}

const challengeOf = (s: ReturnType<typeof setup>) =>
  ch.decodeChallenge(getAccount(s.w.svm, findChallengePda(s.batchKey, s.c.kp.publicKey)[0])!.data)!;
const countersOf = (s: ReturnType<typeof setup>) =>
  ch.decodeAgentChallenges(getAccount(s.w.svm, findAgentPda(s.a.agent)[0])!.data)!;

describe('challenge: initialize and buffers', () => {
  test('initialize: config fields, vault owned by the config PDA, event; not twice', () => {
    const w = world();
    const [cfgKey, bump] = findConfigPda();
    const cfg = ch.decodeConfig(getAccount(w.svm, cfgKey)!.data)!;
    assert.ok(
      cfg.admin.equals(w.admin.publicKey) && cfg.usdcMint.equals(w.usdc.mint) && cfg.treasury.equals(w.treasury),
    );
    assert.ok(cfg.vault.equals(findVaultPda()[0]));
    assert.deepEqual(
      [cfg.epochSeconds, cfg.bump, cfg.vaultBump, cfg.slasherBump],
      [EPOCH_SECONDS, bump, findVaultPda()[1], ch.findSlasherPda()[1]],
    );
    const vault = getAccount(w.svm, cfg.vault)!;
    assert.ok(vault.owner.equals(TOKEN_PROGRAM_ID));
    assert.deepEqual(vault.data.subarray(0, 32), w.usdc.mint.toBytes());
    assert.deepEqual(vault.data.subarray(32, 64), cfgKey.toBytes());
    assert.equal(tokenBalance(w.svm, cfg.vault), 0n);
    sendErr(
      w.svm,
      [
        ch.initializeInstruction(
          { admin: w.admin.publicKey, usdcMint: w.usdc.mint, vault: findVaultPda()[0] },
          { treasury: w.treasury, epochSeconds: 5n },
        ),
      ],
      [w.admin],
      E.AlreadyInitialized,
    );
  });

  test('buffer: init, chunked writes, range and authority checks, close refunds the rent', () => {
    const w = world();
    const auth = fundedWallet(w.svm, 10);
    const bytes = Uint8Array.from({ length: 2500 }, (_, i) => (i * 13) & 0xff);
    const buf = stageBuffer(w.svm, auth, bytes);
    const acc = getAccount(w.svm, buf)!;
    const head = ch.decodeBuffer(acc.data)!;
    assert.ok(head.authority.equals(auth.publicKey));
    assert.equal(head.len, 2500);
    assert.deepEqual(acc.data.subarray(ch.BUFFER_SIZE), bytes);
    sendErr(w.svm, [writeBufferIx(auth.publicKey, buf, 2499, Uint8Array.of(1, 2))], [auth], E.BufferRange);
    const other = fundedWallet(w.svm, 1);
    sendErr(w.svm, [writeBufferIx(other.publicKey, buf, 0, Uint8Array.of(1))], [other], E.BufferAuthority);
    sendErr(
      w.svm,
      [ch.initBufferInstruction({ authority: auth.publicKey, buffer: buf }, { len: 10 })],
      [auth],
      E.BadBuffer,
    );
    const before = getAccount(w.svm, auth.publicKey)!.lamports;
    const r = sendOk(w.svm, [closeBufferIx(auth.publicKey, buf)], [auth]);
    assert.equal(getAccount(w.svm, auth.publicKey)!.lamports, before + acc.lamports - 5000n);
    assert.equal(getAccount(w.svm, buf), null);
    assert.deepEqual(
      events(r.logs).map((e) => e!.name),
      ['BufferClosed'],
    );
  });
});

describe('challenge: submit_challenge', () => {
  test('locks CHALLENGE_STAKE, writes the challenge and counters, emits ChallengeSubmitted', () => {
    const s = setup(withoutBid(0));
    const r = challenge(s, s.log.at.propose);
    assert.equal(tokenBalance(s.w.svm, s.c.usdc), 50n * USDC - CHALLENGE_STAKE);
    assert.equal(tokenBalance(s.w.svm, findVaultPda()[0]), CHALLENGE_STAKE);
    const c = challengeOf(s);
    assert.ok(
      c.challenger.equals(s.c.kp.publicKey) &&
        c.challengerUsdc.equals(s.c.usdc) &&
        c.batch.equals(s.batchKey) &&
        c.agent.equals(s.a.agent),
    );
    assert.deepEqual([c.epoch, c.stake, c.status, c.reason, c.resolvedSlot], [BATCH_EPOCH, CHALLENGE_STAKE, 0, 0, 0n]);
    assert.deepEqual(c.leaf, s.log.leaves[s.log.at.propose]);
    const k = countersOf(s);
    assert.deepEqual([k.pending, k.total, k.upheld], [1, 1, 0]);
    const ev = events(r.logs);
    assert.equal(ev.length, 1);
    assert.equal(ev[0]!.name, 'ChallengeSubmitted');
    assert.equal((ev[0]!.data as { pending: number }).pending, 1);
  });

  test('twice by one challenger, without USDC, and after the window: refused', () => {
    const s = setup();
    challenge(s, 0);
    sendErr(s.w.svm, [submitChallengeIx(s.c, s.batchKey, s.a.agent, s.log.leaves[1])], [s.c.kp], E.ChallengeExists);
    const poor = newChallenger(s.w, CHALLENGE_STAKE - 1n);
    sendErr(s.w.svm, [submitChallengeIx(poor, s.batchKey, s.a.agent, s.log.leaves[1])], [poor.kp], E.InsufficientUsdc);
    const late = newChallenger(s.w);
    setEpoch(s.w.svm, BATCH_EPOCH + 2n, EPOCH_SECONDS, 999n);
    // last second of the window
    sendOk(s.w.svm, [submitChallengeIx(late, s.batchKey, s.a.agent, s.log.leaves[1])], [late.kp]);
    const later = newChallenger(s.w);
    setEpoch(s.w.svm, BATCH_EPOCH + 3n, EPOCH_SECONDS);
    sendErr(s.w.svm, [submitChallengeIx(later, s.batchKey, s.a.agent, s.log.leaves[1])], [later.kp], E.WindowClosed);
    assert.equal(countersOf(s).pending, 2);
  });
});

describe('challenge: resolve_challenge', () => {
  test('omitted NEG1 bid: upheld, stake slashed, challenger paid stake + reward', () => {
    const s = setup(withoutBid(0));
    challenge(s, s.log.at.propose);
    const { ixs } = resolve(s, s.log.at.propose);
    sendErr(s.w.svm, ixs, [s.c.kp], E.WindowOpen);
    afterWindow(s);
    const treasury0 = tokenBalance(s.w.svm, s.w.treasury);
    const r = sendOk(s.w.svm, ixs, [s.c.kp]);
    const reward = (10n * USDC * 5000n) / 10_000n;
    assert.equal(tokenBalance(s.w.svm, s.c.usdc), 50n * USDC + reward);
    assert.equal(tokenBalance(s.w.svm, s.w.treasury), treasury0 + 10n * USDC - reward);
    assert.equal(tokenBalance(s.w.svm, findVaultPda()[0]), 0n);
    assert.equal(tokenBalance(s.w.svm, s.w.stakeVault), 0n);
    const c = challengeOf(s);
    assert.deepEqual([c.status, c.reason], [1, 1]);
    assert.ok(c.resolvedSlot > 0n);
    assert.deepEqual([countersOf(s).pending, countersOf(s).upheld], [0, 1]);
    const ev = events(r.logs).filter((e) => e!.name === 'ChallengeResolved');
    assert.equal(ev.length, 1);
    const d = ev[0]!.data as {
      status: number;
      reason: number;
      stakeReturned: bigint;
      stakeToTreasury: bigint;
      pending: number;
    };
    assert.deepEqual(
      [d.status, d.reason, d.stakeReturned, d.stakeToTreasury, d.pending],
      [1, 1, CHALLENGE_STAKE, 0n, 0],
    );
    sendErr(
      s.w.svm,
      resolveFor(
        s.w,
        s.a,
        s.c,
        s.batchKey,
        stageEvidence(s.w, s.c.kp, s.log, s.log.at.propose, s.bytes),
        s.log,
        s.log.at.propose,
        400_000,
      ),
      [s.c.kp],
      E.NotPending,
    );
  });

  test('entry the batch does report: rejected, the challenger stake goes to the treasury', () => {
    const s = setup();
    challenge(s, s.log.at.counter);
    afterWindow(s);
    const treasury0 = tokenBalance(s.w.svm, s.w.treasury);
    sendOk(s.w.svm, resolve(s, s.log.at.counter).ixs, [s.c.kp]);
    assert.equal(tokenBalance(s.w.svm, s.c.usdc), 50n * USDC - CHALLENGE_STAKE);
    assert.equal(tokenBalance(s.w.svm, s.w.treasury), treasury0 + CHALLENGE_STAKE);
    assert.equal(tokenBalance(s.w.svm, s.w.stakeVault), 10n * USDC);
    assert.deepEqual([challengeOf(s).status, challengeOf(s).reason, countersOf(s).pending], [2, 12, 0]);
  });

  test(
    'the evidence buffer closes on resolve, its rent to the challenger ' +
      'whoever resolves; another wallet as challenger is refused',
    () => {
      const s = setup();
      challenge(s, s.log.at.counter);
      afterWindow(s);
      const { buffer, ixs } = resolve(s, s.log.at.counter);
      const rent = getAccount(s.w.svm, buffer)!.lamports;
      assert.ok(rent > 0n, 'the staged buffer holds rent');
      const resolver = fundedWallet(s.w.svm, 1);
      // The challenger account must be the Challenge's challenger (else its rent could be taken).
      const last = ixs[ixs.length - 1];
      const forged = {
        ...last,
        keys: last.keys.map((k, i) => (i === last.keys.length - 1 ? { ...k, pubkey: resolver.publicKey } : k)),
      };
      sendErr(s.w.svm, [...ixs.slice(0, -1), forged as typeof last], [resolver], E.BadAccount);
      const before = getAccount(s.w.svm, s.c.kp.publicKey)!.lamports;
      const r = sendOk(s.w.svm, ixs, [resolver]);
      assert.equal(getAccount(s.w.svm, buffer), null, 'the buffer is closed');
      assert.equal(
        getAccount(s.w.svm, s.c.kp.publicKey)!.lamports,
        before + rent,
        'the challenger got the buffer rent back, lamport-exact',
      );
      assert.ok(
        events(r.logs).some((e) => e!.name === 'BufferClosed'),
        'BufferClosed emitted',
      );
    },
  );

  test('missing TaskSelection for an ACCEPT and missing VerifierAssignment for a NOTARIZE_ASSIGN: upheld', () => {
    const t = setup((b) => ({ ...b, taskSelections: [] }));
    challenge(t, t.log.at.accept);
    afterWindow(t);
    sendOk(t.w.svm, resolve(t, t.log.at.accept).ixs, [t.c.kp]);
    assert.deepEqual([challengeOf(t).status, challengeOf(t).reason], [1, 2]);
    const v = setup((b) => ({ ...b, verifierIds: [] }), false); // no stake locked: upheld without a slash
    challenge(v, v.log.at.assign);
    afterWindow(v);
    sendOk(v.w.svm, resolve(v, v.log.at.assign).ixs, [v.c.kp]);
    assert.deepEqual([challengeOf(v).status, challengeOf(v).reason], [1, 3]);
    assert.equal(tokenBalance(v.w.svm, v.c.usdc), 50n * USDC);
  });

  test(
    'entries that cannot contradict: a non-NEG1 PROPOSE is ' + 'rejected; a received message cannot be authenticated',
    () => {
      const s = setup();
      challenge(s, s.log.at.plain);
      afterWindow(s);
      sendOk(s.w.svm, resolve(s, s.log.at.plain).ixs, [s.c.kp]);
      assert.deepEqual([challengeOf(s).status, challengeOf(s).reason], [2, 11]);
      // a message the agent received is signed by its sender, not by the batch signer
      const t = setup();
      const i = t.log.at.received;
      challenge(t, i);
      afterWindow(t);
      const buffer = stageEvidence(t.w, t.c.kp, t.log, i, t.bytes);
      const ixs = resolveFor(
        t.w,
        t.a,
        t.c,
        t.batchKey,
        buffer,
        t.log,
        i,
        400_000,
        publicKeyFromSeed(new Uint8Array(32).fill(0x42)),
      );
      sendErr(t.w.svm, ixs, [t.c.kp], E.BadEntrySignature);
      assert.equal(challengeOf(t).status, 0);
    },
  );

  test('overflowed batch with the bid array at the cap: void, stake returned', () => {
    const s = setup((b) => ({
      ...b,
      bidValues: Array.from({ length: 1000 }, (_, i) => ({ ...b.bidValues[1], slot: BigInt(i) })),
      overflow: true,
    }));
    challenge(s, s.log.at.propose);
    afterWindow(s);
    sendOk(s.w.svm, resolve(s, s.log.at.propose, s.bytes, {}, 1_400_000).ixs, [s.c.kp]);
    assert.deepEqual([challengeOf(s).status, challengeOf(s).reason], [3, 20]);
    assert.equal(tokenBalance(s.w.svm, s.c.usdc), 50n * USDC);
    assert.equal(tokenBalance(s.w.svm, s.w.stakeVault), 10n * USDC);
  });

  test('bad proof, wrong leaf, tampered buffer, wrong payload, no Ed25519 check: errors, nothing moves', () => {
    const s = setup(withoutBid(0));
    const i = s.log.at.propose;
    challenge(s, i);
    afterWindow(s);
    // bad proof: wrong siblings, or the right siblings at another index
    const badSiblings = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2), new Uint8Array(32).fill(3)];
    sendErr(s.w.svm, resolve(s, i, s.bytes, { siblings: badSiblings }).ixs, [s.c.kp], E.BadProof);
    sendErr(s.w.svm, resolve(s, i, s.bytes, { proofIndex: i + 1 }).ixs, [s.c.kp], E.BadProof);
    // tampered buffer: one batch byte changed
    const tampered = s.bytes.slice();
    tampered[40] ^= 1;
    sendErr(s.w.svm, resolve(s, i, tampered).ixs, [s.c.kp], E.BufferHashMismatch);
    // payload that is not the entry's
    sendErr(s.w.svm, resolve(s, i, s.bytes, { payload: Uint8Array.of(1, 2, 3) }).ixs, [s.c.kp], E.PayloadMismatch);
    // evidence of another entry than the committed leaf
    const other = stageEvidence(s.w, s.c.kp, s.log, s.log.at.counter, s.bytes);
    sendErr(
      s.w.svm,
      resolveFor(s.w, s.a, s.c, s.batchKey, other, s.log, s.log.at.counter, 400_000),
      [s.c.kp],
      E.LeafMismatch,
    );
    // no Ed25519 instruction for the entry's signature
    const { ixs } = resolve(s, i);
    sendErr(s.w.svm, [ixs[0], ixs[2]], [s.c.kp], E.BadEntrySignature);
    // a buffer of someone else
    const stranger = fundedWallet(s.w.svm, 10);
    const foreign = stageEvidence(s.w, stranger, s.log, i, s.bytes);
    sendErr(s.w.svm, resolveFor(s.w, s.a, s.c, s.batchKey, foreign, s.log, i, 400_000), [stranger], E.BufferAuthority);
    assert.equal(tokenBalance(s.w.svm, findVaultPda()[0]), CHALLENGE_STAKE);
    assert.equal(countersOf(s).pending, 1);
    assert.equal(challengeOf(s).status, 0);
  });

  test('expire_challenge: only after 2 windows, stake to the treasury', () => {
    const s = setup();
    challenge(s, 0);
    const ix = ch.expireChallengeInstruction({
      challenge: findChallengePda(s.batchKey, s.c.kp.publicKey)[0],
      agentChallenges: findAgentPda(s.a.agent)[0],
      vault: findVaultPda()[0],
      treasury: s.w.treasury,
    });
    setEpoch(s.w.svm, BATCH_EPOCH + 4n, EPOCH_SECONDS);
    sendErr(s.w.svm, [ix], [s.c.kp], E.NotExpired);
    setEpoch(s.w.svm, BATCH_EPOCH + 5n, EPOCH_SECONDS);
    const treasury0 = tokenBalance(s.w.svm, s.w.treasury);
    sendOk(s.w.svm, [ix], [s.c.kp]);
    assert.equal(tokenBalance(s.w.svm, s.w.treasury), treasury0 + CHALLENGE_STAKE);
    assert.deepEqual([challengeOf(s).status, challengeOf(s).reason, countersOf(s).pending], [4, 30, 0]);
    sendErr(s.w.svm, [ix], [s.c.kp], E.NotPending);
  });
});

/**
 * Compute units of every Challenge instruction on litesvm (run by `npm run bench:programs`),
 * including resolve_challenge on a batch with 1,000 entries in every array in its worst case:
 * the bid is missing, so every array is read to the end, then stake_lock.slash runs.
 * Targets: 200,000 CU per instruction; the 1,000-entry resolve 1,400,000 CU (it requests that
 * budget with a ComputeBudget instruction).
 */
import { Keypair, SystemProgram } from '@solana/web3.js';
import { challenge as ch } from '../../lib/chain/programs';
import type { BehaviorBatch } from '../../lib/protocol/batch';
import { createUsdc, fundedWallet, newSvm, sendOk, setEpoch, usdcAccount } from '../testing';
import { CHUNK, closeBufferIx, findAgentPda, findChallengePda, findVaultPda, writeBufferIx } from './client';
import {
  agentLog,
  BATCH_EPOCH,
  batchOf,
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

interface Row {
  instruction: string;
  cu: bigint;
  target?: bigint;
}

/** The log's batch with its four arrays replaced by 1,000 synthetic entries each (the log's own bids left out). */
function fullBatch(b: BehaviorBatch): BehaviorBatch {
  const id = (tag: number, i: number, len: number) =>
    Uint8Array.from({ length: len }, (_, k) => (tag * 31 + i * 7 + k) & 0xff);
  const n = 1000;
  const slot = (i: number) => 400_000n + BigInt(i);
  return {
    ...b,
    bidValues: Array.from({ length: n }, (_, i) => ({
      conversationId: id(2, i, 16),
      counterparty: id(3, i, 32),
      bidValue: (BigInt(i) - 500n) * (1n << 70n),
      slot: slot(i),
    })),
    taskSelections: Array.from({ length: n }, (_, i) => ({
      conversationId: id(4, i, 16),
      counterparty: id(5, i, 32),
      slot: slot(i),
    })),
    verifierIds: Array.from({ length: n }, (_, i) => ({
      conversationId: id(6, i, 16),
      verifierId: id(7, i, 32),
      slot: slot(i),
    })),
    feedbackEvents: Array.from({ length: n }, (_, i) => ({
      conversationId: id(8, i, 16),
      fromAgent: id(9, i, 32),
      score: (i % 201) - 100,
      outcome: i % 3,
      role: i % 2,
      slot: slot(i),
      satiAttestationHash: id(10, i, 32),
    })),
  };
}

export default function benchChallenge(): Row[] {
  const rows: Row[] = [];

  // initialize, alone on a fresh chain
  {
    const svm = newSvm();
    const admin = fundedWallet(svm, 100);
    const usdc = createUsdc(svm, admin);
    const treasury = usdcAccount(svm, admin, usdc, Keypair.generate().publicKey);
    const r = sendOk(
      svm,
      [
        ch.initializeInstruction(
          { admin: admin.publicKey, usdcMint: usdc.mint, vault: findVaultPda()[0] },
          { treasury, epochSeconds: EPOCH_SECONDS },
        ),
      ],
      [admin],
    );
    rows.push({ instruction: 'initialize', cu: r.computeUnits });
  }

  const w = world();
  const { svm } = w;

  // buffers: init (the client's createAccount is a System instruction), a full chunk, close
  const auth = fundedWallet(svm, 10);
  const buf = Keypair.generate();
  const space = ch.BUFFER_SIZE + CHUNK;
  const ri = sendOk(
    svm,
    [
      SystemProgram.createAccount({
        fromPubkey: auth.publicKey,
        newAccountPubkey: buf.publicKey,
        lamports: Number(svm.minimumBalanceForRentExemption(BigInt(space))),
        space,
        programId: ch.PROGRAM_ID,
      }),
      ch.initBufferInstruction({ authority: auth.publicKey, buffer: buf.publicKey }, { len: CHUNK }),
    ],
    [auth, buf],
  );
  const systemCu = 150n; // System createAccount, reported by litesvm inside the same transaction
  rows.push({ instruction: 'init_buffer', cu: ri.computeUnits - systemCu });
  rows.push({
    instruction: `write_buffer (${CHUNK}-byte chunk)`,
    cu: sendOk(svm, [writeBufferIx(auth.publicKey, buf.publicKey, 0, new Uint8Array(CHUNK).fill(7))], [auth])
      .computeUnits,
  });
  rows.push({
    instruction: 'close_buffer',
    cu: sendOk(svm, [closeBufferIx(auth.publicKey, buf.publicKey)], [auth]).computeUnits,
  });

  // agent A: small batch omitting its PROPOSE bid; agent B: 1,000 entries per array, same omission
  const a = newAgent(w);
  lockStake(w, a);
  const logA = agentLog(a.agent, a.seed);
  const small = batchOf(a.agent, logA, (b) => ({ ...b, bidValues: b.bidValues.slice(1) }));
  const keyA = submitBatch(w, a, small);
  const b = newAgent(w);
  lockStake(w, b);
  const logB = agentLog(b.agent, b.seed);
  const full = fullBatch(batchOf(b.agent, logB));
  const fullBytes = encodeBatch(full);
  const keyB = submitBatch(w, b, full);

  const c1 = newChallenger(w);
  rows.push({
    instruction: 'submit_challenge (creates counters)',
    cu: sendOk(svm, [submitChallengeIx(c1, keyA, a.agent, logA.leaves[logA.at.propose])], [c1.kp]).computeUnits,
  });
  const c2 = newChallenger(w);
  sendOk(svm, [submitChallengeIx(c2, keyB, b.agent, logB.leaves[logB.at.propose])], [c2.kp]);
  const c3 = newChallenger(w);
  rows.push({
    instruction: 'submit_challenge',
    cu: sendOk(svm, [submitChallengeIx(c3, keyB, b.agent, logB.leaves[logB.at.counter])], [c3.kp]).computeUnits,
  });
  const c4 = newChallenger(w);
  sendOk(svm, [submitChallengeIx(c4, keyA, a.agent, logA.leaves[logA.at.counter])], [c4.kp]);

  const bufA = stageEvidence(w, c1.kp, logA, logA.at.propose, encodeBatch(small));
  const bufA4 = stageEvidence(w, c4.kp, logA, logA.at.counter, encodeBatch(small));
  const bufB = stageEvidence(w, c2.kp, logB, logB.at.propose, fullBytes);
  setEpoch(svm, BATCH_EPOCH + 3n, EPOCH_SECONDS);
  const smallLen = encodeBatch(small).length;
  rows.push({
    instruction: `resolve_challenge (upheld, slash; ${smallLen} B batch)`,
    cu: sendOk(svm, resolveFor(w, a, c1, keyA, bufA, logA, logA.at.propose, 200_000), [c1.kp]).computeUnits,
  });
  rows.push({
    instruction: `resolve_challenge (rejected; ${smallLen} B batch)`,
    cu: sendOk(svm, resolveFor(w, a, c4, keyA, bufA4, logA, logA.at.counter, 200_000), [c4.kp]).computeUnits,
  });
  rows.push({
    instruction: `resolve_challenge (1,000/array, ${fullBytes.length} B)`,
    cu: sendOk(svm, resolveFor(w, b, c2, keyB, bufB, logB, logB.at.propose, 1_400_000), [c2.kp]).computeUnits,
    target: 1_400_000n,
  });

  setEpoch(svm, BATCH_EPOCH + 5n, EPOCH_SECONDS);
  const ex = ch.expireChallengeInstruction({
    challenge: findChallengePda(keyB, c3.kp.publicKey)[0],
    agentChallenges: findAgentPda(b.agent)[0],
    vault: findVaultPda()[0],
    treasury: w.treasury,
  });
  rows.push({ instruction: 'expire_challenge', cu: sendOk(svm, [ex], [c3.kp]).computeUnits });
  void USDC;
  return rows;
}

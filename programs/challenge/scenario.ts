/**
 * A chain with the four programs initialized, and an agent whose epoch log, batch and
 * merkle tree are built with lib/protocol: the ground the challenge tests, the story test and
 * the bench stand on. Test-only.
 */
import { Keypair, type PublicKey } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import * as bl from '../../lib/chain/gen/behavior_log';
import * as ch from '../../lib/chain/gen/challenge';
import * as ls from '../../lib/chain/gen/lease';
import * as sl from '../../lib/chain/gen/stake_lock';
import { type BehaviorBatch, batchHash, encodeBatch } from '../../lib/protocol/batch';
import { buildBatchFromLog } from '../../lib/protocol/batch-build';
import { CHALLENGE_STAKE, USDC } from '../../lib/protocol/constants';
import { buildEnvelope, signingPreimage } from '../../lib/protocol/envelope';
import { leafHash, logEntryOf, merkleProof } from '../../lib/protocol/merkle';
import { encodeNeg1, type Neg1Payload } from '../../lib/protocol/neg1';
import { encodeFeedback } from '../../lib/protocol/payloads';
import { type Envelope, MsgType } from '../../lib/protocol/types';
import { seedOf, submitBatchIxs } from '../behavior_log/client';
import {
  createSatiIdentity,
  createUsdc,
  ensureSati,
  fundedWallet,
  type Identity,
  newSvm,
  SATI_PROGRAM_ID,
  satiAccountsOf,
  sendOk,
  setEpoch,
  type Usdc,
  usdcAccount,
} from '../testing';
import { evidenceBytes, findAgentPda, findChallengePda, findVaultPda, resolveIxs, stageBuffer } from './client';

export const EPOCH_SECONDS = 1000n;
export const BATCH_EPOCH = 500n;

export interface World {
  svm: LiteSVM;
  admin: Keypair;
  usdc: Usdc;
  treasury: PublicKey;
  stakeVault: PublicKey;
}

/** Every program (behavior_log, challenge, stake_lock, lease) initialized with one treasury, at BATCH_EPOCH. */
export function world(): World {
  const svm = newSvm();
  const admin = fundedWallet(svm, 1000);
  const usdc = createUsdc(svm, admin);
  const treasury = usdcAccount(svm, admin, usdc, Keypair.generate().publicKey);
  setEpoch(svm, BATCH_EPOCH, EPOCH_SECONDS, 10n);
  const stakeVault = usdcAccount(svm, admin, usdc, sl.findVaultAuthorityPda()[0]);
  ensureSati(svm, admin);
  sendOk(
    svm,
    [
      bl.initializeInstruction(
        { admin: admin.publicKey },
        { usdcMint: usdc.mint, treasury, epochSeconds: EPOCH_SECONDS },
      ),
      ch.initializeInstruction(
        { admin: admin.publicKey, usdcMint: usdc.mint, vault: ch.findVaultPda()[0] },
        { treasury, epochSeconds: EPOCH_SECONDS },
      ),
      sl.initializeInstruction(
        { admin: admin.publicKey, usdcMint: usdc.mint, treasury, vault: stakeVault },
        { epochSeconds: EPOCH_SECONDS, satiProgram: SATI_PROGRAM_ID },
      ),
      ls.initializeInstruction(
        { admin: admin.publicKey, usdcMint: usdc.mint, treasury },
        { epochSeconds: EPOCH_SECONDS },
      ),
    ],
    [admin],
  );
  return { svm, admin, usdc, treasury, stakeVault };
}

/** An agent: SATI-registered identity NFT, its owner wallet with USDC. */
export function newAgent(
  w: World,
  usdcAmount = 100n * USDC,
): Identity & { ownerUsdc: PublicKey; seed: Uint8Array; memberNumber: bigint } {
  const owner = fundedWallet(w.svm, 100);
  const id = createSatiIdentity(w.svm, w.admin, owner);
  const ownerUsdc = usdcAccount(w.svm, w.admin, w.usdc, owner.publicKey, usdcAmount);
  return { ...id, ownerUsdc, seed: seedOf(owner.secretKey) };
}

/** Locks `amount` of the agent's USDC in stake_lock. */
export function lockStake(w: World, a: ReturnType<typeof newAgent>, amount = 10n * USDC): void {
  sendOk(
    w.svm,
    [
      sl.lockStakeInstruction(
        {
          owner: a.owner.publicKey,
          stake: sl.findStakePda(a.agent)[0],
          agent: a.agent,
          identity: a.tokenAccount,
          ownerUsdc: a.ownerUsdc,
          vault: w.stakeVault,
          ...satiAccountsOf(a),
        },
        { amount },
      ),
    ],
    [a.owner],
  );
}

const neg1 = (bidValue: bigint, round: number): Neg1Payload => ({
  bidValue,
  tokenMint: new Uint8Array(32),
  serviceHash: new Uint8Array(32).fill(7),
  round,
  deadline: 0n,
  decayBps: 50,
  maxRounds: 10,
  verification: { tier: 1, testSuiteHash: new Uint8Array(0) },
  reason: 0,
  metadata: new Uint8Array(0),
});

/** The agent's epoch log: what it sent (and one message it received), with the envelopes' payloads. */
export interface Log {
  envelopes: Envelope[];
  entries: Uint8Array[];
  leaves: Uint8Array[];
  /** Indexes of notable entries. */
  at: {
    propose: number;
    counter: number;
    accept: number;
    assign: number;
    plain: number;
    received: number;
    feedback: number;
  };
}

/** Builds the agent's log for BATCH_EPOCH (counterparty and verifier are fresh ids, the counterparty signs its own). */
export function agentLog(agent: PublicKey, seed: Uint8Array, extra = 0): Log {
  const a = agent.toBytes();
  const cpSeed = new Uint8Array(32).fill(0x42);
  const cp = new Uint8Array(32).fill(0xc1);
  const verifier = new Uint8Array(32).fill(0xd2);
  const conv = Uint8Array.from({ length: 16 }, (_, i) => 0xa0 + i);
  const conv2 = Uint8Array.from({ length: 16 }, (_, i) => 0x10 + i);
  let nonce = 1n;
  const mk = (msgType: number, recipient: Uint8Array, payload: Uint8Array, c = conv, from = a, key = seed) =>
    buildEnvelope(
      {
        msgType,
        sender: from,
        recipient,
        timestamp: 1_700_000_000_000_000n + nonce * 1000n,
        blockRef: 400_000n + nonce,
        nonce: nonce++,
        conversationId: c,
        payload,
      },
      key,
    ).envelope;
  const envelopes: Envelope[] = [];
  const push = (e: Envelope) => envelopes.push(e) - 1;
  const at = {
    propose: push(mk(MsgType.PROPOSE, cp, encodeNeg1(neg1(1_500_000n, 0)))),
    received: push(mk(MsgType.COUNTER, a, encodeNeg1(neg1(1_450_000n, 1)), conv, cp, cpSeed)),
    counter: push(mk(MsgType.COUNTER, cp, encodeNeg1(neg1(-(1n << 100n), 2)))),
    accept: push(mk(MsgType.ACCEPT, cp, encodeNeg1(neg1(1_460_000n, 3)))),
    assign: push(mk(MsgType.NOTARIZE_ASSIGN, verifier, Uint8Array.of(1, 2, 3))),
    plain: push(mk(MsgType.PROPOSE, cp, new TextEncoder().encode('{"price":5}'), conv2)),
    feedback: push(
      mk(
        MsgType.FEEDBACK,
        a,
        encodeFeedback({ conversationId: conv, targetAgent: a, score: 80, outcome: 2, isDispute: false, role: 0 }),
        conv,
        cp,
        cpSeed,
      ),
    ),
  };
  for (let i = 0; i < extra; i++) push(mk(MsgType.ADVERTISE, new Uint8Array(32), Uint8Array.of(i & 0xff)));
  const entries = envelopes.map(logEntryOf);
  return { envelopes, entries, leaves: entries.map(leafHash), at };
}

/** The batch lib/protocol builds from the log, optionally edited (e.g. a bid left out). */
export function batchOf(agent: PublicKey, log: Log, edit?: (b: BehaviorBatch) => BehaviorBatch): BehaviorBatch {
  const b = buildBatchFromLog({
    agentId: agent.toBytes(),
    epochNumber: BATCH_EPOCH,
    slotStart: 400_000n,
    slotEnd: 500_000n,
    envelopes: log.envelopes,
  });
  return edit ? edit(b) : b;
}

/** Submits the batch on chain (signed by the identity owner); returns the BatchAccount address. */
export function submitBatch(w: World, a: ReturnType<typeof newAgent>, batch: BehaviorBatch): PublicKey {
  sendOk(
    w.svm,
    submitBatchIxs({
      payer: a.owner.publicKey,
      identity: a.tokenAccount,
      agent: a.agent,
      ownerSeed: a.seed,
      epoch: batch.epochNumber,
      batchHash: batchHash(batch),
      logMerkleRoot: batch.logMerkleRoot,
      counts: {
        messageCount: batch.messageCount,
        bidCount: batch.bidValues.length,
        taskCount: batch.taskSelections.length,
        verifierCount: batch.verifierIds.length,
        feedbackCount: batch.feedbackEvents.length,
        overflow: batch.overflow,
      },
    }),
    [a.owner],
  );
  return bl.findBatchPda(a.agent, batch.epochNumber)[0];
}

/** A challenger wallet with USDC. */
export function newChallenger(w: World, usdcAmount = 50n * USDC): { kp: Keypair; usdc: PublicKey } {
  const kp = fundedWallet(w.svm, 100);
  return { kp, usdc: usdcAccount(w.svm, w.admin, w.usdc, kp.publicKey, usdcAmount) };
}

/** submit_challenge instruction of `challenger` against `batch` committing to `leaf`. */
export function submitChallengeIx(
  challenger: { kp: Keypair; usdc: PublicKey },
  batch: PublicKey,
  agent: PublicKey,
  leaf: Uint8Array,
) {
  return ch.submitChallengeInstruction(
    {
      challenger: challenger.kp.publicKey,
      challengerUsdc: challenger.usdc,
      batch,
      challenge: findChallengePda(batch, challenger.kp.publicKey)[0],
      agentChallenges: findAgentPda(agent)[0],
      vault: findVaultPda()[0],
    },
    { leaf },
  );
}

/** Stages the evidence for entry `index` of the log with the batch bytes; returns the buffer. */
export function stageEvidence(
  w: World,
  challenger: Keypair,
  log: Log,
  index: number,
  batchBytes: Uint8Array,
  opts: { payload?: Uint8Array; siblings?: Uint8Array[]; proofIndex?: number } = {},
): PublicKey {
  const proof = merkleProof(log.leaves, index);
  const payload = opts.payload ?? log.envelopes[index].payload;
  return stageBuffer(
    w.svm,
    challenger,
    evidenceBytes({
      entry: log.entries[index],
      payload,
      index: opts.proofIndex ?? proof.index,
      siblings: opts.siblings ?? proof.siblings,
      batch: batchBytes,
    }),
  );
}

/** resolve_challenge transaction pieces for the entry `index` of `log`. */
export function resolveFor(
  w: World,
  a: ReturnType<typeof newAgent>,
  challenger: { kp: Keypair; usdc: PublicKey },
  batch: PublicKey,
  buffer: PublicKey,
  log: Log,
  index: number,
  computeUnits?: number,
  signer?: Uint8Array,
) {
  const e = log.envelopes[index];
  return resolveIxs({
    challenger: challenger.kp.publicKey,
    challengerUsdc: challenger.usdc,
    agent: a.agent,
    batch,
    buffer,
    treasury: w.treasury,
    stakeVault: w.stakeVault,
    signer: signer ?? a.owner.publicKey.toBytes(),
    preimage: signingPreimage(e),
    signature: e.signature,
    computeUnits,
  });
}

export { batchHash, CHALLENGE_STAKE, encodeBatch, USDC };

// The SDK's instruction builders: accounts and data equal what the generated codecs encode for
// the same accounts, and bad input is refused with a named error. No chain needed.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { getAssociatedTokenAddressSync, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Ed25519Program, Keypair, type PublicKey, SystemProgram, type TransactionInstruction } from '@solana/web3.js';
import { batchHash, encodeBatch } from '../protocol/batch';
import { buildBatchFromLog } from '../protocol/batch-build';
import { ed25519Sign } from '../protocol/crypto';
import { signingPreimage } from '../protocol/envelope';
import { leafHash, logEntryOf, merkleProof } from '../protocol/merkle';
import {
  agentIndexAddress,
  BUFFER_CHUNK,
  behaviorLog,
  bufferAccountSize,
  challenge,
  challengeAddress,
  challengeEvidence,
  claimStakeInstructions,
  createAgentIdentityInstructions,
  decodeTransactionError,
  type EconomyConfig,
  evidenceBytes,
  expireChallengeInstructions,
  IDENTITY_MINT_SIZE,
  lease,
  lockStakeInstructions,
  payLeaseInstructions,
  queueUnlockInstructions,
  registryConfigAddress,
  resolveChallengeInstructions,
  SATI_DISCRIMINATORS,
  stageBufferInstructions,
  stakeLock,
  submitBatchInstructions,
  submitBatchMessage,
  submitChallengeInstructions,
  tickLeaseInstructions,
} from './index';
import { epochLog } from './node/testing';

const key = () => Keypair.generate().publicKey;
const config: EconomyConfig = {
  usdcMint: key(),
  treasury: key(),
  stakeVault: key(),
  epochSeconds: 10n,
  satiProgram: key(),
};
const owner = Keypair.generate();
const agent = key();
const usdc = (o: PublicKey) => getAssociatedTokenAddressSync(config.usdcMint, o, true, TOKEN_PROGRAM_ID);
const idAccount = getAssociatedTokenAddressSync(agent, owner.publicKey, true, TOKEN_2022_PROGRAM_ID);
const same = (a: TransactionInstruction, b: TransactionInstruction) => {
  assert.ok(a.programId.equals(b.programId));
  assert.deepEqual(
    a.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable]),
    b.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable]),
  );
  assert.deepEqual(Uint8Array.from(a.data), Uint8Array.from(b.data));
};

describe('owner action builders', () => {
  test('lockStake: the generated lock_stake with the owner, PDAs and USDC accounts', () => {
    const [ix, ...rest] = lockStakeInstructions({
      owner: owner.publicKey,
      agent,
      amount: 12_000_000n,
      config,
      memberNumber: 7n,
    });
    assert.equal(rest.length, 0);
    same(
      ix,
      stakeLock.lockStakeInstruction(
        {
          owner: owner.publicKey,
          stake: stakeLock.findStakePda(agent)[0],
          agent,
          identity: idAccount,
          ownerUsdc: usdc(owner.publicKey),
          vault: config.stakeVault,
          satiRegistry: registryConfigAddress(config.satiProgram),
          agentIndex: agentIndexAddress(7n, config.satiProgram),
        },
        { amount: 12_000_000n },
      ),
    );
    assert.equal(stakeLock.decodeLockStakeArgs(ix.data)?.amount, 12_000_000n);
    assert.deepEqual(
      ix.keys.filter((k) => k.isSigner).map((k) => k.pubkey.toBase58()),
      [owner.publicKey.toBase58()],
    );
    assert.throws(
      () => lockStakeInstructions({ owner: owner.publicKey, agent, amount: 0n, config, memberNumber: 1n }),
      RangeError,
    );
    assert.throws(
      () => lockStakeInstructions({ owner: owner.publicKey, agent, amount: 1n, config, memberNumber: 0n }),
      /memberNumber/,
    );
    assert.throws(
      () =>
        lockStakeInstructions({ owner: owner as unknown as PublicKey, agent, amount: 1n, config, memberNumber: 1n }),
      /owner must be a PublicKey/,
    );
    assert.throws(
      () =>
        lockStakeInstructions({
          owner: owner.publicKey,
          agent,
          amount: 1n,
          config: {} as EconomyConfig,
          memberNumber: 1n,
        }),
      /config must be an EconomyConfig/,
    );
  });

  test('payLease, tickLease, queueUnlock, claimStake', () => {
    const payer = key();
    same(
      payLeaseInstructions({ payer, agent, epochs: 3, config })[0],
      lease.payLeaseInstruction(
        {
          payer,
          lease: lease.findLeasePda(agent)[0],
          agent,
          payerUsdc: usdc(payer),
          treasury: config.treasury,
        },
        { epochs: 3 },
      ),
    );
    assert.equal(lease.decodePayLeaseArgs(payLeaseInstructions({ payer, agent, config })[0].data)?.epochs, 1);
    assert.throws(() => payLeaseInstructions({ payer, agent, epochs: 0, config }), RangeError);
    same(tickLeaseInstructions({ agent })[0], lease.tickLeaseInstruction({ lease: lease.findLeasePda(agent)[0] }));
    same(
      queueUnlockInstructions({ owner: owner.publicKey, agent })[0],
      stakeLock.queueUnlockInstruction({
        owner: owner.publicKey,
        stake: stakeLock.findStakePda(agent)[0],
        identity: idAccount,
        lease: lease.findLeasePda(agent)[0],
      }),
    );
    same(
      claimStakeInstructions({ owner: owner.publicKey, agent, config })[0],
      stakeLock.claimStakeInstruction({
        owner: owner.publicKey,
        stake: stakeLock.findStakePda(agent)[0],
        identity: idAccount,
        agentChallenges: challenge.findAgentPda(agent)[0],
        vault: config.stakeVault,
        ownerUsdc: usdc(owner.publicKey),
      }),
    );
  });

  test(
    'submitBatch: Ed25519 instruction over batch_hash with ' + 'the given signature, then submit_batch with the counts',
    () => {
      const log = epochLog({ agent, seed: owner.secretKey.slice(0, 32), epoch: 7n, epochSeconds: 10n }).map(
        (b) => b.envelope,
      );
      const batch = buildBatchFromLog({
        agentId: agent.toBytes(),
        epochNumber: 7n,
        slotStart: 0n,
        slotEnd: 0n,
        envelopes: log,
      });
      const message = submitBatchMessage(batch);
      assert.deepEqual(message, batchHash(batch));
      const signature = ed25519Sign(message, owner.secretKey.slice(0, 32));
      const [ed, submit] = submitBatchInstructions({ owner: owner.publicKey, agent, batch, signature });
      same(
        ed,
        Ed25519Program.createInstructionWithPublicKey({ publicKey: owner.publicKey.toBytes(), message, signature }),
      );
      const args = behaviorLog.decodeSubmitBatchArgs(submit.data);
      assert.equal(args?.epoch, 7n);
      assert.deepEqual(Uint8Array.from(args?.batchHash ?? []), message);
      assert.equal(args?.bidCount, batch.bidValues.length);
      assert.equal(args?.bump, behaviorLog.findBatchPda(agent, 7n)[1]);
      assert.ok(submit.keys.some((k) => k.pubkey.equals(behaviorLog.findBatchPda(agent, 7n)[0])));
      assert.throws(
        () => submitBatchInstructions({ owner: owner.publicKey, agent: key(), batch, signature }),
        /batch.agentId must equal agent/,
      );
      assert.throws(
        () => submitBatchInstructions({ owner: owner.publicKey, agent, batch, signature: signature.slice(1) }),
        /64-byte/,
      );
    },
  );

  test(
    'createAgentIdentity: Token-2022 mint created, owner ' + 'ATA, 1 minted, authority removed; mint and payer sign',
    () => {
      const payer = key(),
        mint = key(),
        holder = key();
      const ixs = createAgentIdentityInstructions({ payer, owner: holder, mint, lamports: 1_000_000 });
      assert.equal(ixs.length, 5);
      assert.ok(ixs[0].programId.equals(SystemProgram.programId));
      assert.deepEqual(
        ixs[0].keys
          .filter((k) => k.isSigner)
          .map((k) => k.pubkey.toBase58())
          .sort(),
        [payer.toBase58(), mint.toBase58()].sort(),
      );
      assert.equal(IDENTITY_MINT_SIZE, 82);
      for (const ix of ixs.slice(1, 2).concat(ixs.slice(3))) assert.ok(ix.programId.equals(TOKEN_2022_PROGRAM_ID));
      const ata = getAssociatedTokenAddressSync(mint, holder, true, TOKEN_2022_PROGRAM_ID);
      assert.ok(ixs[2].keys[1].pubkey.equals(ata));
      assert.throws(() => createAgentIdentityInstructions({ payer, mint, lamports: -1 }), RangeError);
    },
  );
});

describe('challenge builders and evidence', () => {
  const log = epochLog({ agent, seed: owner.secretKey.slice(0, 32), epoch: 7n, epochSeconds: 10n, extra: 40 }).map(
    (b) => b.envelope,
  );
  const batch = buildBatchFromLog({
    agentId: agent.toBytes(),
    epochNumber: 7n,
    slotStart: 0n,
    slotEnd: 0n,
    envelopes: log,
  });

  test('challengeEvidence: leaf, buffer layout, preimage and signature of the entry', () => {
    const ev = challengeEvidence({ log, index: 3, batch });
    const entries = log.map(logEntryOf);
    assert.deepEqual(ev.leaf, leafHash(entries[3]));
    const proof = merkleProof(entries.map(leafHash), 3);
    assert.deepEqual(
      ev.bytes,
      evidenceBytes({
        entry: entries[3],
        payload: log[3].payload,
        index: 3,
        siblings: proof.siblings,
        batch: encodeBatch(batch),
      }),
    );
    const dv = new DataView(ev.bytes.buffer, ev.bytes.byteOffset);
    assert.equal(dv.getUint32(0, true), entries[3].length);
    assert.deepEqual(ev.bytes.subarray(4, 4 + entries[3].length), entries[3]);
    assert.deepEqual(ev.preimage, signingPreimage(log[3]));
    assert.deepEqual(ev.signature, log[3].signature);
    assert.throws(() => challengeEvidence({ log, index: log.length, batch }), RangeError);
    assert.throws(
      () => evidenceBytes({ entry: entries[0], index: 0, siblings: [new Uint8Array(31)], batch: new Uint8Array(1) }),
      /32 bytes/,
    );
  });

  test('stageBuffer: create + init_buffer, then write_buffer chunks that rebuild the bytes', () => {
    const authority = key(),
      buffer = key();
    const ev = challengeEvidence({ log, index: 0, batch }).bytes;
    const bytes = Uint8Array.from({ length: 2 * BUFFER_CHUNK + 345 }, (_, i) => ev[i % ev.length] ^ (i >> 8));
    const [create, ...writes] = stageBufferInstructions({ authority, buffer, bytes, lamports: 5 });
    assert.equal(writes.length, 3);
    same(create[1], challenge.initBufferInstruction({ authority, buffer }, { len: bytes.length }));
    assert.equal(bufferAccountSize(bytes.length), challenge.BUFFER_SIZE + bytes.length);
    const rebuilt = new Uint8Array(bytes.length);
    for (const [w] of writes) {
      const head = challenge.decodeWriteBufferArgs(w.data.subarray(0, 5));
      assert.ok(head && w.keys[0].pubkey.equals(authority) && w.keys[0].isSigner);
      rebuilt.set(w.data.subarray(5), head.offset);
    }
    assert.deepEqual(rebuilt, bytes);
  });

  test('submitChallenge, resolveChallenge (with the Ed25519 instruction), expireChallenge', () => {
    const challenger = key(),
      challengerUsdc = key(),
      buffer = key(),
      treasury = key(),
      stakeVault = key();
    const ev = challengeEvidence({ log, index: 0, batch });
    const [submit] = submitChallengeInstructions({ challenger, challengerUsdc, agent, epoch: 7n, leaf: ev.leaf });
    const address = challengeAddress(agent, 7n, challenger);
    same(
      submit,
      challenge.submitChallengeInstruction(
        {
          challenger,
          challengerUsdc,
          batch: behaviorLog.findBatchPda(agent, 7n)[0],
          challenge: address,
          agentChallenges: challenge.findAgentPda(agent)[0],
        },
        { leaf: ev.leaf },
      ),
    );
    const p = {
      challenge: address,
      batch: behaviorLog.findBatchPda(agent, 7n)[0],
      agent,
      challenger,
      challengerUsdc,
      treasury,
      stakeVault,
      buffer,
      signer: owner.publicKey,
      preimage: ev.preimage,
      signature: ev.signature,
    };
    const ixs = resolveChallengeInstructions(p);
    assert.equal(ixs.length, 3);
    same(
      ixs[1],
      Ed25519Program.createInstructionWithPublicKey({
        publicKey: owner.publicKey.toBytes(),
        message: ev.preimage,
        signature: ev.signature,
      }),
    );
    same(
      ixs[2],
      challenge.resolveChallengeInstruction({
        challenge: address,
        batch: p.batch,
        buffer,
        agentChallenges: challenge.findAgentPda(agent)[0],
        challengerUsdc,
        treasury,
        stakeConfig: stakeLock.findConfigPda()[0],
        stake: stakeLock.findStakePda(agent)[0],
        stakeVault,
        stakeVaultAuthority: stakeLock.findVaultAuthorityPda()[0],
        challenger,
      }),
    );
    assert.equal(resolveChallengeInstructions({ ...p, computeUnits: 0 }).length, 2);
    same(
      expireChallengeInstructions({ challenge: address, agent, treasury })[0],
      challenge.expireChallengeInstruction({
        challenge: address,
        agentChallenges: challenge.findAgentPda(agent)[0],
        treasury,
      }),
    );
    assert.throws(
      () => submitChallengeInstructions({ challenger, challengerUsdc, agent, epoch: 7n, leaf: new Uint8Array(31) }),
      /leaf must be 32 bytes/,
    );
  });
});

test('transaction errors decode to the generated names, from the error JSON or the logs', () => {
  const code = stakeLock.ERRORS.NotIdentityOwner;
  const d = decodeTransactionError({ InstructionError: [1, { Custom: code }] });
  assert.equal(d.code, code);
  assert.equal(d.name, stakeLock.ERROR_MESSAGES[code].split(':')[0]);
  assert.match(d.message, new RegExp(`custom program error ${code} \\(`));
  const fromLogs = decodeTransactionError(null, [
    'Program x invoke [1]',
    `Program x failed: custom program error: 0x${code.toString(16)}`,
  ]);
  assert.equal(fromLogs.code, code);
  assert.deepEqual(decodeTransactionError({ InstructionError: [0, 'InvalidAccountData'] }), {
    code: null,
    name: null,
    message: '{"InstructionError":[0,"InvalidAccountData"]}',
  });
  assert.equal(decodeTransactionError({ InstructionError: [0, { Custom: 1 }] }).name, null);
});

test('SATI\'s discriminators are Anchor\'s: sha256("account:|global:|event:<name>")[0..8]', () => {
  const anchor = (s: string) => new Uint8Array(createHash('sha256').update(s).digest().subarray(0, 8));
  assert.deepEqual(SATI_DISCRIMINATORS.registryConfig, anchor('account:RegistryConfig'));
  assert.deepEqual(SATI_DISCRIMINATORS.agentIndex, anchor('account:AgentIndex'));
  assert.deepEqual(SATI_DISCRIMINATORS.initialize, anchor('global:initialize'));
  assert.deepEqual(SATI_DISCRIMINATORS.registerAgent, anchor('global:register_agent'));
  assert.deepEqual(SATI_DISCRIMINATORS.agentRegistered, anchor('event:AgentRegistered'));
});

/**
 * Transaction pieces for BehaviorLog used by the tests and the bench: the Ed25519 program
 * instruction that carries the identity owner's signature over batch_hash, followed by
 * submit_batch. (Wallet-facing builders belong to lib/chain; these use its generated builders.)
 */
import { Ed25519Program, type PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { behaviorLog } from '../../lib/chain/programs';
import { ed25519Sign, publicKeyFromSeed } from '../../lib/protocol/crypto';

export interface SubmitBatchParams {
  payer: PublicKey;
  /** Token-2022 account holding the agent's identity NFT. */
  identity: PublicKey;
  agent: PublicKey;
  /** 32-byte Ed25519 seed of the identity owner (signs batch_hash). */
  ownerSeed: Uint8Array;
  epoch: bigint;
  batchHash: Uint8Array;
  logMerkleRoot: Uint8Array;
  counts?: {
    messageCount?: bigint;
    bidCount?: number;
    taskCount?: number;
    verifierCount?: number;
    feedbackCount?: number;
    overflow?: boolean;
  };
  /** Override the signature (tests of a bad signature). */
  signature?: Uint8Array;
  /** Override the BatchAccount address (tests of a wrong PDA); the bump stays the right one. */
  batch?: PublicKey;
}

/** [Ed25519 verify of owner over batch_hash, submit_batch]. */
export function submitBatchIxs(p: SubmitBatchParams): TransactionInstruction[] {
  const signature = p.signature ?? ed25519Sign(p.batchHash, p.ownerSeed);
  const ed = Ed25519Program.createInstructionWithPublicKey({
    publicKey: publicKeyFromSeed(p.ownerSeed),
    message: p.batchHash,
    signature,
  });
  const [pda, bump] = behaviorLog.findBatchPda(p.agent, p.epoch);
  const c = p.counts ?? {};
  const submit = behaviorLog.submitBatchInstruction(
    { payer: p.payer, identity: p.identity, batch: p.batch ?? pda },
    {
      epoch: p.epoch,
      batchHash: p.batchHash,
      logMerkleRoot: p.logMerkleRoot,
      messageCount: c.messageCount ?? 0n,
      bidCount: c.bidCount ?? 0,
      taskCount: c.taskCount ?? 0,
      verifierCount: c.verifierCount ?? 0,
      feedbackCount: c.feedbackCount ?? 0,
      overflow: c.overflow ? 1 : 0,
      bump,
    },
  );
  return [ed, submit];
}

/** The 32-byte Ed25519 seed of a web3.js Keypair secret key. */
export const seedOf = (secretKey: Uint8Array): Uint8Array => secretKey.slice(0, 32);

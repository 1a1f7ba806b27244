/**
 * Compute units of the BehaviorLog instructions on litesvm (run by `npm run bench:programs`).
 * submit_batch's figure is the whole transaction: the Ed25519 program instruction is a
 * precompile and charges no compute units of its own.
 */
import { Keypair } from '@solana/web3.js';
import { behaviorLog } from '../../lib/chain/programs';
import { keccak256 } from '../../lib/protocol/crypto';
import { createIdentity, createUsdc, fundedWallet, newSvm, sendOk, setEpoch } from '../testing';
import { seedOf, submitBatchIxs } from './client';

export default function benchBehaviorLog(): { instruction: string; cu: bigint; target?: bigint }[] {
  const svm = newSvm({ programs: ['behavior_log'] });
  const admin = fundedWallet(svm, 100);
  const usdc = createUsdc(svm, admin);
  setEpoch(svm, 1000n, 86_400n);
  const init = sendOk(
    svm,
    [
      behaviorLog.initializeInstruction(
        { admin: admin.publicKey },
        { usdcMint: usdc.mint, treasury: Keypair.generate().publicKey, epochSeconds: 86_400n },
      ),
    ],
    [admin],
  );
  const owner = fundedWallet(svm, 10);
  const id = createIdentity(svm, admin, owner);
  const submit = sendOk(
    svm,
    submitBatchIxs({
      payer: owner.publicKey,
      identity: id.tokenAccount,
      agent: id.agent,
      ownerSeed: seedOf(owner.secretKey),
      epoch: 999n,
      batchHash: keccak256(Uint8Array.of(1)),
      logMerkleRoot: keccak256(Uint8Array.of(2)),
      counts: { messageCount: 4000n, bidCount: 1000, taskCount: 1000, verifierCount: 1000, feedbackCount: 1000 },
    }),
    [owner],
  );
  return [
    { instruction: 'initialize', cu: init.computeUnits },
    { instruction: 'submit_batch (+ Ed25519 verify)', cu: submit.computeUnits },
  ];
}

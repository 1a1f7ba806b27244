/** Compute units of every lease instruction (npm run bench:programs -- lease). */
import { lease } from '../../lib/chain/programs';
import { EPOCH_SECONDS, newAgent, payLeaseIx, setupStake } from '../stake_lock/stake-env';
import { createUsdc, fundedWallet, newSvm, sendOk, setEpoch, usdcAccount } from '../testing';
import type { BenchRow } from '../tools/bench';

export default function bench(): BenchRow[] {
  const svm = newSvm();
  const admin = fundedWallet(svm);
  const usdc = createUsdc(svm, admin);
  const treasury = usdcAccount(svm, admin, usdc, admin.publicKey);
  const init = sendOk(
    svm,
    [
      lease.initializeInstruction(
        { admin: admin.publicKey, usdcMint: usdc.mint, treasury },
        { epochSeconds: EPOCH_SECONDS },
      ),
    ],
    [admin],
  );
  const env = setupStake(); // a second chain for the agent flows
  const a = newAgent(env, 100n * 1_000_000n);
  const first = sendOk(env.svm, [payLeaseIx(env, a, 1)], [a.owner]);
  const again = sendOk(env.svm, [payLeaseIx(env, a, 5)], [a.owner]);
  setEpoch(env.svm, 120n, EPOCH_SECONDS);
  const tick = sendOk(env.svm, [lease.tickLeaseInstruction({ lease: lease.findLeasePda(a.agent)[0] })], [a.owner]);
  return [
    { instruction: 'initialize', cu: init.computeUnits },
    { instruction: 'pay_lease (creates the Lease)', cu: first.computeUnits },
    { instruction: 'pay_lease (existing, 5 epochs)', cu: again.computeUnits },
    { instruction: 'tick_lease', cu: tick.computeUnits },
  ];
}

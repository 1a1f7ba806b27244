/** Compute units of every stake_lock instruction (npm run bench:programs -- stake_lock). */
import { stakeLock } from '../../lib/chain/programs';
import {
  createUsdc,
  fundedWallet,
  kitAddress,
  newSvm,
  PROGRAM_IDS,
  SATI_PROGRAM_ID,
  sendOk,
  tokenAccount,
  usdcAccount,
  warpSlots,
} from '../testing';
import type { BenchRow } from '../tools/bench';
import { toolchainAvailable } from '../tools/build';
import {
  claimIx,
  deactivateLease,
  lockIx,
  newAgent,
  queueIx,
  setupStake,
  slasherFixture,
  USDC,
  viaSlasherFixture,
} from './stake-env';

export default function bench(): BenchRow[] {
  const svm = newSvm({ programs: ['lease', 'stake_lock'] });
  const withFixture = toolchainAvailable();
  if (withFixture) svm.addProgram(kitAddress(PROGRAM_IDS.challenge), slasherFixture());
  const env = setupStake(svm);
  const a = newAgent(env, 50n * USDC);
  const lock = sendOk(svm, [lockIx(env, a, 10n * USDC)], [a.owner]);
  deactivateLease(env, a);
  const queue = sendOk(svm, [queueIx(a)], [a.owner]);
  warpSlots(svm, 432_000n);
  const claim = sendOk(svm, [claimIx(env, a)], [a.owner]);
  const rows: BenchRow[] = [
    { instruction: 'lock_stake (creates the Stake)', cu: lock.computeUnits },
    { instruction: 'queue_unlock', cu: queue.computeUnits },
    { instruction: 'claim_stake', cu: claim.computeUnits },
  ];
  // initialize alone (setupStake initializes lease and stake_lock in one transaction).
  const svm2 = newSvm({ programs: ['stake_lock'] });
  const env2Admin = fundedWallet(svm2);
  const usdc = createUsdc(svm2, env2Admin);
  const treasury = usdcAccount(svm2, env2Admin, usdc, env2Admin.publicKey);
  const vault = tokenAccount(svm2, env2Admin, usdc.mint, stakeLock.findVaultAuthorityPda()[0]);
  const init = sendOk(
    svm2,
    [
      stakeLock.initializeInstruction(
        { admin: env2Admin.publicKey, usdcMint: usdc.mint, treasury, vault },
        { epochSeconds: 86_400n, satiProgram: SATI_PROGRAM_ID },
      ),
    ],
    [env2Admin],
  );
  rows.unshift({ instruction: 'initialize', cu: init.computeUnits });
  if (withFixture) {
    const b = newAgent(env, 50n * USDC);
    sendOk(svm, [lockIx(env, b, 10n * USDC)], [b.owner]);
    const challenger = fundedWallet(svm);
    const cUsdc = usdcAccount(svm, env.admin, env.usdc, challenger.publicKey);
    const slash = viaSlasherFixture(PROGRAM_IDS.challenge, {
      stake: stakeLock.findStakePda(b.agent)[0],
      vault: env.vault,
      challengerUsdc: cUsdc,
      treasury: env.treasury,
    });
    const r = sendOk(svm, [slash], [challenger]);
    const inner = r.logs.find((l) => l.startsWith(`Program ${PROGRAM_IDS.stake_lock.toBase58()} consumed`));
    rows.push({ instruction: 'slash (inside the CPI)', cu: BigInt(/consumed (\d+)/.exec(inner ?? '')?.[1] ?? '0') });
    rows.push({ instruction: 'slash (whole tx incl. caller)', cu: r.computeUnits });
  }
  return rows;
}

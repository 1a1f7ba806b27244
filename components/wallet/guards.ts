/**
 * The owner's guards before the wallet: what the forms of "My agents" check and propose before an
 * action is built, so a payment that would buy time already past, a stake below the program's
 * minimum or above what the wallet holds, never reaches the simulation or the wallet; and what a
 * challenge is expected to pay, from the target's real stake. The figures come from the
 * constants the programs are compiled with (lib/protocol/constants.ts generates their
 * include/gen/constants.h: MIN_STAKE, LEASE_COST_PER_EPOCH, CHALLENGE_STAKE,
 * CHALLENGE_REWARD_BPS) and the programs' own rules (lease.c pay_lease, resolve.c, stake_lock.c
 * slash). Pure: unit-tested in guards.test.ts.
 */
import { CHALLENGE_REWARD_BPS, CHALLENGE_STAKE, LEASE_COST_PER_EPOCH, MIN_STAKE } from '../../lib/protocol/constants';
import { expiryText, usdc } from './format';

/** pay_lease refuses more epochs than this in one payment (lease.c MAX_EPOCHS_PER_PAYMENT). */
export const MAX_LEASE_EPOCHS_PER_PAYMENT = 1000n;

/**
 * A form's verdict: enabled, or refused with the sentence shown beside the button (and the amounts it names, base
 * units).
 */
export type Guard = { ok: true; note?: string } | { ok: false; reason: string; held?: bigint; need?: bigint };

/**
 * Seconds between a lease figure being shown and the payment landing (reading the preview,
 * signing, confirming): a minute, but at most half an epoch, so a short development epoch is not
 * skipped whole.
 */
export function landingMarginSec(epochSeconds: bigint): number {
  return Math.min(60, Math.floor(Number(epochSeconds) / 2));
}

const epochAt = (sec: number, S: bigint) => BigInt(Math.floor(sec)) / S;

export interface LeasePlan {
  epochs: bigint;
  /** USDC base units moved to the treasury. */
  cost: bigint;
  /**
   * paid_through_epoch after the payment if it lands now: a first payment starts at the epoch it
   * lands in (paid through that epoch + epochs − 1), a later one adds to paid_through_epoch.
   */
  paidThrough: bigint;
  /** Unix seconds at which the paid time ends (the end of `paidThrough`). */
  untilSec: number;
  /** Whole epochs paid after the epoch the payment lands in, should it land as late as the margin allows. */
  wholeFutureEpochs: bigint;
}

/** What paying `epochs` buys, per pay_lease's rule. `paidThroughEpoch` null: no lease yet. */
export function leasePlan(
  paidThroughEpoch: bigint | null,
  epochSeconds: bigint,
  nowSec: number,
  epochs: bigint,
): LeasePlan {
  const S = epochSeconds;
  const current = epochAt(nowSec, S);
  const latest = epochAt(nowSec + landingMarginSec(S), S);
  const paidThrough = paidThroughEpoch === null ? current + epochs - 1n : paidThroughEpoch + epochs;
  // A first payment lands in the epoch it lands in, whichever that is: epochs − 1 whole ones follow it.
  const future = paidThroughEpoch === null ? epochs - 1n : paidThrough - latest;
  return {
    epochs,
    cost: LEASE_COST_PER_EPOCH * epochs,
    paidThrough,
    untilSec: Number((paidThrough + 1n) * S),
    wholeFutureEpochs: future > 0n ? future : 0n,
  };
}

/** The fewest epochs whose paid time ends after the payment can land (a back-lease included). */
export function minLeaseEpochs(paidThroughEpoch: bigint | null, epochSeconds: bigint, nowSec: number): bigint {
  const S = epochSeconds;
  const current = epochAt(nowSec, S);
  const latest = epochAt(nowSec + landingMarginSec(S), S);
  const k = paidThroughEpoch === null ? latest - current + 1n : latest - paidThroughEpoch;
  return k > 1n ? k : 1n;
}

/**
 * The epochs the lease form proposes: every unpaid epoch, the one the payment lands in, and one
 * whole epoch after it. A first payment always covers the epoch it lands in (which may be about
 * to end), so it pays two.
 */
export function defaultLeaseEpochs(paidThroughEpoch: bigint | null, epochSeconds: bigint, nowSec: number): bigint {
  const S = epochSeconds;
  if (paidThroughEpoch === null) return 2n;
  const latest = epochAt(nowSec + landingMarginSec(S), S);
  const k = latest + 1n - paidThroughEpoch;
  return k > 1n ? k : 1n;
}

const plural = (n: bigint, one: string, many = `${one}s`) => `${n} ${n === 1n ? one : many}`;

/**
 * What the wallet holds against what an action moves: refused with both amounts when short; unknown balance lets the
 * simulation decide.
 */
export function checkUsdcHeld(need: bigint, held: bigint | null, what: string): Guard {
  if (held === null || held >= need) return { ok: true };
  return {
    ok: false,
    reason: `this wallet holds ${usdc(held)} USDC; ${usdc(need)} USDC needed for ${what} (${usdc(need - held)} more)`,
    held,
    need,
  };
}

/**
 * The lease form: epochs a whole number in pay_lease's range, a paid time that ends after the
 * payment can land (never time already past), and the USDC for it in the wallet.
 */
export function checkLeaseForm(
  text: string,
  paidThroughEpoch: bigint | null,
  epochSeconds: bigint,
  nowSec: number,
  held: bigint | null,
): Guard & { plan: LeasePlan | null } {
  const t = text.trim();
  if (!/^\d{1,4}$/.test(t) || BigInt(t) < 1n || BigInt(t) > MAX_LEASE_EPOCHS_PER_PAYMENT) {
    return { ok: false, reason: `epochs must be a whole number 1..${MAX_LEASE_EPOCHS_PER_PAYMENT}`, plan: null };
  }
  const epochs = BigInt(t);
  const plan = leasePlan(paidThroughEpoch, epochSeconds, nowSec, epochs);
  const margin = landingMarginSec(epochSeconds);
  if (plan.untilSec <= nowSec + margin) {
    const min = minLeaseEpochs(paidThroughEpoch, epochSeconds, nowSec);
    const when =
      plan.untilSec <= nowSec ? 'time already past' : `time that ends within ${margin} s, before the payment can land`;
    return {
      ok: false,
      reason: `${plural(epochs, 'epoch')} would pay through epoch ${plan.paidThrough}, ending ${expiryText(
        BigInt(plan.untilSec),
        nowSec,
      )}: only ${when}. Pay at least ${plural(min, 'epoch')}.`,
      plan,
    };
  }
  const money = checkUsdcHeld(plan.cost, held, `${plural(epochs, 'epoch')} of lease`);
  if (!money.ok) return { ...money, plan };
  return plan.wholeFutureEpochs === 0n
    ? {
        ok: true,
        plan,
        note: `buys no whole epoch after the current one: the lease is due again ${expiryText(
          BigInt(plan.untilSec),
          nowSec,
        )}`,
      }
    : { ok: true, plan };
}

/** The stake form: an amount, at least stake_lock's MIN_STAKE, at most what the wallet holds. */
export function checkStakeAmount(amount: bigint | null, held: bigint | null): Guard {
  if (amount === null) return { ok: false, reason: 'enter a USDC amount (up to 6 decimals)' };
  if (amount < MIN_STAKE) {
    const wallet =
      held === null
        ? ''
        : held < MIN_STAKE
          ? ` (this wallet holds ${usdc(held)} USDC: ${usdc(MIN_STAKE - held)} more needed)`
          : ` (this wallet holds ${usdc(held)} USDC)`;
    return {
      ok: false,
      reason:
        `below the minimum stake: ${usdc(amount)} USDC entered; ` +
        `stake_lock takes at least ${usdc(MIN_STAKE)} USDC${wallet}`,
      held: held ?? undefined,
      need: MIN_STAKE,
    };
  }
  return checkUsdcHeld(amount, held, 'this stake');
}

/** The target's Stake account as read for a challenge: absent, decoded, or unreadable (with why). */
export type TargetStake = { amount: bigint; status: number } | null | { error: string };

export interface ChallengeOutcome {
  /** What slash would take now (base units); null when unknown. */
  slashable: bigint | null;
  /** The challenger's share of it if upheld (CHALLENGE_REWARD_BPS, rounded down as the program does). */
  reward: bigint | null;
  /** What the challenger is expected to get back in total at resolution; null when unknown. */
  gets: bigint | null;
  /** The verdict the observatory expects: upheld when the batch contradicts the entry, rejected when it reports it. */
  expected: 'upheld' | 'rejected';
  stakeText: string;
  outcomeText: string;
}

const STAKE_NAMES: Record<number, string> = { 1: 'locked', 2: 'unlocking', 3: 'claimed', 4: 'slashed' };

/**
 * A challenge's expected outcome from the target's stake now: upheld pays back the challenge
 * stake plus CHALLENGE_REWARD_BPS of a locked or unlocking stake (resolve.c slashes only those);
 * rejected forfeits the challenge stake. The stake may change before resolution (another
 * upheld challenge slashes it first), which the text says.
 */
export function challengeOutcome(contradicted: boolean, stake: TargetStake): ChallengeOutcome {
  const pct = `${Number(CHALLENGE_REWARD_BPS) / 100}%`;
  const expected = contradicted ? 'upheld' : 'rejected';
  if (stake !== null && 'error' in stake) {
    const stakeText = `The agent's stake: unknown (its Stake account could not be read: ${stake.error}).`;
    return contradicted
      ? {
          slashable: null,
          reward: null,
          gets: null,
          expected,
          stakeText,
          outcomeText:
            `Expected outcome: upheld; what you get is unknown: ${usdc(CHALLENGE_STAKE)}` +
            ` USDC back plus ${pct} of a stake that could not be read.`,
        }
      : {
          slashable: null,
          reward: null,
          gets: 0n,
          expected,
          stakeText,
          outcomeText:
            `Expected outcome: rejected (the batch reports this entry): you get ` +
            `0.00 USDC; your ${usdc(CHALLENGE_STAKE)} USDC goes to the treasury.`,
        };
  }
  const slashable = stake && (stake.status === 1 || stake.status === 2) && stake.amount > 0n ? stake.amount : 0n;
  const reward = (slashable * CHALLENGE_REWARD_BPS) / 10_000n;
  const stakeText = !stake
    ? "The agent's stake: 0.00 USDC (it never locked one): an upheld challenge slashes nothing."
    : slashable === 0n
      ? `The agent's stake: 0.00 USDC (${STAKE_NAMES[stake.status] ?? `status ${stake.status}`}` +
        `): an upheld challenge slashes nothing.`
      : `The agent's stake: ${usdc(slashable)} USDC (${STAKE_NAMES[stake.status]}); upheld, ` +
        `${pct} of it (${usdc(reward)} USDC) is the challenger's, the rest the treasury's.`;
  if (!contradicted) {
    return {
      slashable,
      reward,
      gets: 0n,
      expected,
      stakeText,
      outcomeText:
        `Expected outcome: rejected (the batch reports this entry): you get ` +
        `0.00 USDC; your ${usdc(CHALLENGE_STAKE)} USDC goes to the treasury.`,
    };
  }
  const gets = CHALLENGE_STAKE + reward;
  const outcomeText =
    reward === 0n
      ? `Expected outcome: upheld (the batch leaves this entry out): you get ${usdc(gets)} ` +
        `USDC, your challenge stake back and nothing more, since the agent has no stake to slash.`
      : `Expected outcome: upheld (the batch leaves this entry out): you get ${usdc(gets)} ` +
        `USDC = your ${usdc(CHALLENGE_STAKE)} USDC back + ${usdc(reward)} USDC of the agent's ` +
        `stake (${usdc(reward)} USDC gained), if the stake is still there at resolution.`;
  return { slashable, reward, gets, expected, stakeText, outcomeText };
}

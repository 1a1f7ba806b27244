/**
 * What an owner can do for one agent right now, and why not: the same rules the programs
 * enforce (docs/protocol.md §10; programs/lease, programs/stake_lock, programs/challenge), read
 * from the agent's Stake and Lease accounts and the current epoch and slot, so a button that
 * cannot act is disabled with its reason instead of failing on chain. Pure (unit-tested).
 */
import { CHALLENGE_WINDOW_EPOCHS, GRACE_PERIOD_EPOCHS, UNLOCK_DELAY_SLOTS } from '../../lib/protocol/constants';
import { defaultLeaseEpochs } from './guards';

export const LEASE_STATUS_NAMES = ['active', 'grace', 'deactivated'] as const;
export const STAKE_STATUS_NAMES: Record<number, string> = { 1: 'locked', 2: 'unlocking', 3: 'claimed', 4: 'slashed' };

export interface AgentNow {
  stake: { amount: bigint; status: number; unlockRequestedSlot: bigint } | null;
  lease: { paidThroughEpoch: bigint; status: number } | null;
  epoch: bigint;
  slot: bigint;
}

/** Enabled, or disabled with the reason shown next to the button. */
export type Can = { ok: true } | { ok: false; reason: string };
const yes: Can = { ok: true };
const no = (reason: string): Can => ({ ok: false, reason });

export interface OwnerActions {
  lockStake: Can;
  payLease: Can;
  tickLease: Can;
  queueUnlock: Can;
  claimStake: Can;
}

/** The lease in words: status, next due epoch, and when grace turns into deactivation. */
export function leaseSummary(n: AgentNow): string {
  const l = n.lease;
  if (!l) return 'no lease yet (pay the first epoch to start it)';
  const status = LEASE_STATUS_NAMES[l.status] ?? `status ${l.status}`;
  const next = l.paidThroughEpoch + 1n;
  const deactivates = l.paidThroughEpoch + GRACE_PERIOD_EPOCHS + 1n;
  if (l.status === 2) return `deactivated (paid through epoch ${l.paidThroughEpoch}); pay the back-lease to reactivate`;
  const grace =
    n.epoch > l.paidThroughEpoch
      ? `, unpaid since epoch ${next}: deactivated at the first tick from epoch ${deactivates}`
      : '';
  return `${status}, paid through epoch ${l.paidThroughEpoch}, next due epoch ${next}${grace}`;
}

export function ownerActions(n: AgentNow): OwnerActions {
  const s = n.stake;
  const l = n.lease;
  const lockStake = s && s.status !== 3 ? no(`stake already ${STAKE_STATUS_NAMES[s.status] ?? s.status}`) : yes;
  const tickLease = l ? yes : no('no lease yet: pay the first epoch');
  let queueUnlock: Can = yes;
  if (!s) queueUnlock = no('no stake locked');
  else if (s.status !== 1) queueUnlock = no(`stake is ${STAKE_STATUS_NAMES[s.status] ?? s.status}, not locked`);
  else if (!l) queueUnlock = no('unlock needs the lease deactivated: no lease yet (pay one epoch, then let it lapse)');
  else if (l.status !== 2) {
    const from = l.paidThroughEpoch + GRACE_PERIOD_EPOCHS + 1n;
    queueUnlock = no(
      `unlock needs the lease deactivated: paid through epoch ` +
        `${l.paidThroughEpoch} (a tick from epoch ${from} deactivates it)`,
    );
  }
  let claimStake: Can = yes;
  if (s?.status !== 2) {
    const name = s ? (STAKE_STATUS_NAMES[s.status] ?? `in status ${s.status}`) : '';
    claimStake = no(
      !s
        ? 'no stake locked'
        : s.status === 1
          ? 'stake is locked: queue the unlock first'
          : `stake is ${name}: nothing left to claim`,
    );
  } else if (n.slot < s.unlockRequestedSlot + UNLOCK_DELAY_SLOTS) {
    claimStake = no(`unlock delay: claimable from slot ${s.unlockRequestedSlot + UNLOCK_DELAY_SLOTS} (now ${n.slot})`);
  }
  return { lockStake, payLease: yes, tickLease, queueUnlock, claimStake };
}

/** A challenge's window: open through epoch e + window, resolvable after it, expirable after twice that. */
export function challengeWindow(
  epoch: bigint,
  now: bigint,
): { phase: 'open' | 'resolvable' | 'expirable'; resolveFrom: bigint; expireFrom: bigint } {
  const resolveFrom = epoch + CHALLENGE_WINDOW_EPOCHS + 1n;
  const expireFrom = epoch + 2n * CHALLENGE_WINDOW_EPOCHS + 1n;
  return {
    phase: now >= expireFrom ? 'expirable' : now >= resolveFrom ? 'resolvable' : 'open',
    resolveFrom,
    expireFrom,
  };
}

export type LeaseState = 'none' | 'ok' | 'due-soon' | 'grace' | 'lapsed';

export interface LeaseHealth {
  state: LeaseState;
  /**
   * Unix seconds: the start of the first unpaid epoch (the due date), and the start of the epoch from which a tick
   * deactivates.
   */
  dueAt: number | null;
  deactivatesAt: number | null;
  /** Epochs to pay so the lease is paid through the current epoch (0 when it is). */
  backEpochs: bigint;
  /**
   * Epochs a one-click reactivation pays (guards.ts defaultLeaseEpochs): the back-lease, the epoch
   * the payment lands in and one whole epoch after it, so it never buys only time already past.
   */
  reactivateEpochs: bigint;
}

/**
 * The lease in clock time: epoch e runs from e × epochSeconds (unix, the Clock's timestamp) for
 * epochSeconds. Paid through epoch p: due at the start of p + 1, in grace from then, deactivated
 * by a tick from the start of p + GRACE + 1 (docs/protocol.md §10). The stored status moves only
 * with a tick or a payment, so the state here comes from the epochs, not from it, except that a
 * deactivated lease stays lapsed until its back-lease is paid.
 */
export function leaseHealth(n: AgentNow, epochSeconds: bigint, nowSec: number): LeaseHealth {
  const l = n.lease;
  if (!l) return { state: 'none', dueAt: null, deactivatesAt: null, backEpochs: 0n, reactivateEpochs: 0n };
  const S = Number(epochSeconds);
  const dueAt = Number(l.paidThroughEpoch + 1n) * S;
  const deactivatesAt = Number(l.paidThroughEpoch + GRACE_PERIOD_EPOCHS + 1n) * S;
  const back = n.epoch > l.paidThroughEpoch ? n.epoch - l.paidThroughEpoch : 0n;
  let state: LeaseState;
  if (l.status === 2 || n.epoch > l.paidThroughEpoch + GRACE_PERIOD_EPOCHS) state = 'lapsed';
  else if (n.epoch > l.paidThroughEpoch) state = 'grace';
  else if (n.epoch === l.paidThroughEpoch) state = 'due-soon';
  else state = 'ok';
  const reactivateEpochs =
    state === 'lapsed' || state === 'grace' ? defaultLeaseEpochs(l.paidThroughEpoch, epochSeconds, nowSec) : 0n;
  return { state, dueAt, deactivatesAt, backEpochs: back, reactivateEpochs };
}

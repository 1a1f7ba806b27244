/**
 * An agent's economy series (lib/wire EconomyView): stake, lease and challenges per epoch, derived
 * from its indexed chain events and ending on its indexed stake and lease accounts. One function
 * per figure (stake, lease, the event marks), all amounts bigint.
 *
 * Where each event goes: every event lands in the epoch its transaction ran in. Lease events carry
 * that epoch; stake and challenge events carry a slot, so they go by their block time (the chain
 * clock the programs compute epochs from: epoch = unix time / epoch length).
 *
 * What the stake was before the first indexed event follows from the program (stake_lock.c): a
 * lock sets the amount (the account held 0 before: new, claimed or slashed), an unlock keeps it,
 * a claim and a slash take the whole amount they name. So an event window that starts late (the
 * chain's history ring evicted the lock, or the window is the newest 5,000 events) still starts
 * on the right amount, and with no stake event at all the stake is the account's throughout.
 */

import type { EconomyPoint, EconomyView } from '../wire/history';
import { STAKE_STATUS_NAMES } from './json';

/** An indexed chain event (lib/store agentChainEvents). */
export interface EconomyEvent {
  slot: bigint;
  blockTime: Date | null;
  name: string;
  data: Record<string, unknown>;
}
/** The agent's indexed accounts (lib/store agentAccounts). */
export interface EconomyAccounts {
  stake: { amount: bigint; status: string; slot: bigint } | null;
  lease: { paidThroughEpoch: bigint; active: boolean; slot: bigint } | null;
}

/** The events the series reads. */
export const ECONOMY_EVENT_NAMES = [
  'StakeLocked',
  'UnlockQueued',
  'StakeClaimed',
  'StakeSlashed',
  'LeasePaid',
  'LeaseTicked',
  'ChallengeSubmitted',
  'ChallengeResolved',
] as const;

const big = (v: unknown): bigint | null => {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  return typeof v === 'string' && /^\d+$/.test(v) ? BigInt(v) : null;
};

/**
 * The epoch an event happened in: its own `epoch` for lease events, else its block time's; null when neither is known.
 */
export function eventEpoch(ev: EconomyEvent, epochSeconds: bigint): bigint | null {
  if (ev.name === 'LeasePaid' || ev.name === 'LeaseTicked') return big(ev.data.epoch);
  if (!ev.blockTime || epochSeconds <= 0n) return null;
  return BigInt(Math.floor(ev.blockTime.getTime() / 1000)) / epochSeconds;
}

/** Every event with its epoch; an event of unknown time takes its predecessor's (its successor's at the start). */
export function placeEvents(
  events: readonly EconomyEvent[],
  epochSeconds: bigint,
): { ev: EconomyEvent; epoch: bigint }[] {
  const raw = events.map((ev) => eventEpoch(ev, epochSeconds));
  const out: { ev: EconomyEvent; epoch: bigint }[] = [];
  let last: bigint | null = raw.find((e) => e !== null) ?? null;
  events.forEach((ev, i) => {
    const e = raw[i] ?? last;
    if (e === null) return;
    // Chain order: an epoch never goes back (a block time read off the chain's clock may lag a lease's own epoch).
    if (last === null || e > last) last = e;
    out.push({ ev, epoch: last });
  });
  return out;
}

type StakeState = { amount: bigint; status: string };

/** The stake before `first` (the earliest indexed stake event), from what the program lets that event follow. */
function stakeBefore(first: EconomyEvent): StakeState {
  const amount = big(first.data.amount) ?? 0n;
  switch (first.name) {
    case 'StakeLocked':
      return { amount: 0n, status: 'none' };
    case 'StakeClaimed':
      return { amount, status: 'unlocking' };
    default:
      return { amount, status: 'locked' }; // UnlockQueued, StakeSlashed
  }
}

/** The stake after one event. */
function stakeAfter(s: StakeState, ev: EconomyEvent): StakeState {
  const amount = big(ev.data.amount) ?? 0n;
  switch (ev.name) {
    case 'StakeLocked':
      return { amount, status: STAKE_STATUS_NAMES[1] };
    case 'UnlockQueued':
      return { amount: s.amount, status: STAKE_STATUS_NAMES[2] };
    case 'StakeClaimed':
      return { amount: 0n, status: STAKE_STATUS_NAMES[3] };
    case 'StakeSlashed':
      return { amount: 0n, status: STAKE_STATUS_NAMES[4] };
    default:
      return s;
  }
}

const isStake = (n: string) =>
  n === 'StakeLocked' || n === 'UnlockQueued' || n === 'StakeClaimed' || n === 'StakeSlashed';
const isLease = (n: string) => n === 'LeasePaid' || n === 'LeaseTicked';

/** The stake at the end of each epoch with a stake event, starting from the state before the window. */
export function stakeSeries(
  placed: readonly { ev: EconomyEvent; epoch: bigint }[],
  accounts: EconomyAccounts,
): { start: StakeState; steps: Map<bigint, StakeState>; end: StakeState } {
  const stakes = placed.filter((p) => isStake(p.ev.name));
  const start = stakes.length
    ? stakeBefore(stakes[0].ev)
    : accounts.stake
      ? { amount: accounts.stake.amount, status: accounts.stake.status }
      : { amount: 0n, status: 'none' };
  const steps = new Map<bigint, StakeState>();
  let s = start;
  for (const p of stakes) {
    s = stakeAfter(s, p.ev);
    steps.set(p.epoch, s);
  }
  return { start, steps, end: s };
}

type LeaseState = { paidThroughEpoch: bigint | null; active: boolean | null };

/** The lease at the end of each epoch with a lease event (status 2 is deactivated, lease.c). */
export function leaseSeries(
  placed: readonly { ev: EconomyEvent; epoch: bigint }[],
  accounts: EconomyAccounts,
): { start: LeaseState; steps: Map<bigint, LeaseState>; end: LeaseState } {
  const leases = placed.filter((p) => isLease(p.ev.name));
  const start: LeaseState =
    leases.length === 0 && accounts.lease
      ? { paidThroughEpoch: accounts.lease.paidThroughEpoch, active: accounts.lease.active }
      : { paidThroughEpoch: null, active: null };
  const steps = new Map<bigint, LeaseState>();
  let l = start;
  for (const p of leases) {
    const status = Number(p.ev.data.status);
    l = {
      paidThroughEpoch: big(p.ev.data.paidThroughEpoch) ?? l.paidThroughEpoch,
      active: Number.isInteger(status) ? status !== 2 : l.active,
    };
    steps.set(p.epoch, l);
  }
  return { start, steps, end: l };
}

/** What an event is called on the chart (slashes, deactivations and challenges are the marks). */
export function eventMark(ev: EconomyEvent): string {
  const d = ev.data;
  switch (ev.name) {
    case 'StakeLocked':
      return 'stake locked';
    case 'UnlockQueued':
      return 'unlock queued';
    case 'StakeClaimed':
      return 'stake claimed';
    case 'StakeSlashed':
      return 'slashed';
    case 'LeasePaid':
      return 'lease paid';
    case 'LeaseTicked':
      return Number(d.status) === 2 && Number(d.prevStatus) !== 2 ? 'deactivated' : 'lease ticked';
    case 'ChallengeSubmitted':
      return 'challenged';
    case 'ChallengeResolved':
      return `challenge ${['pending', 'upheld', 'rejected', 'void', 'expired'][Number(d.status)] ?? 'resolved'}`;
    default:
      return ev.name;
  }
}

/**
 * The series: one point per epoch with an event and one for `currentEpoch`, each the state at
 * the epoch's end. The last point is the indexed accounts; `historyNote` says when the events
 * do not lead to them (an event not indexed yet) rather than hiding it.
 */
export function economySeries(p: {
  agent: string;
  events: readonly EconomyEvent[];
  accounts: EconomyAccounts;
  epochSeconds: bigint;
  currentEpoch: bigint;
}): EconomyView {
  const placed = placeEvents(p.events, p.epochSeconds);
  const stake = stakeSeries(placed, p.accounts);
  const lease = leaseSeries(placed, p.accounts);
  const epochs = [...new Set(placed.map((x) => x.epoch))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let s = stake.start;
  let l = lease.start;
  const points: EconomyPoint[] = epochs.map((e) => {
    s = stake.steps.get(e) ?? s;
    l = lease.steps.get(e) ?? l;
    return point(
      e,
      s,
      l,
      placed.filter((x) => x.epoch === e).map((x) => eventMark(x.ev)),
    );
  });
  const acc = p.accounts;
  const nowStake: StakeState = acc.stake ? { amount: acc.stake.amount, status: acc.stake.status } : stake.end;
  const nowLease: LeaseState = acc.lease
    ? { paidThroughEpoch: acc.lease.paidThroughEpoch, active: acc.lease.active }
    : lease.end;
  const notes: string[] = [];
  if (nowStake.amount !== stake.end.amount || nowStake.status !== stake.end.status)
    notes.push(
      `the indexed stake events end on ${stake.end.amount} (${stake.end.status}` +
        `), the stake account holds ${nowStake.amount} (${nowStake.status})`,
    );
  if (acc.lease && (lease.end.paidThroughEpoch !== nowLease.paidThroughEpoch || lease.end.active !== nowLease.active))
    notes.push(
      `the indexed lease events end paid through ${lease.end.paidThroughEpoch ?? 'none'}` +
        `, the lease account through ${nowLease.paidThroughEpoch}`,
    );
  const lastEpoch = epochs.length ? epochs[epochs.length - 1] : null;
  const end = lastEpoch !== null && lastEpoch >= p.currentEpoch ? points.pop()! : null;
  points.push(point(end ? BigInt(end.epoch) : p.currentEpoch, nowStake, nowLease, end?.events ?? []));
  return {
    agent: p.agent,
    known: true,
    reason: null,
    epochSeconds: Number(p.epochSeconds),
    currentEpoch: Number(p.currentEpoch),
    points,
    accounts: {
      stake: acc.stake
        ? { amount: acc.stake.amount.toString(), status: acc.stake.status, slot: acc.stake.slot.toString() }
        : null,
      lease: acc.lease
        ? {
            paidThroughEpoch: acc.lease.paidThroughEpoch.toString(),
            active: acc.lease.active,
            slot: acc.lease.slot.toString(),
          }
        : null,
    },
    historyNote: notes.length ? `${notes.join('; ')}: the last point shows the accounts` : null,
  };
}

function point(epoch: bigint, s: StakeState, l: LeaseState, events: string[]): EconomyPoint {
  return {
    epoch: Number(epoch),
    stake: s.amount.toString(),
    stakeStatus: s.status,
    paidThroughEpoch: l.paidThroughEpoch === null ? null : Number(l.paidThroughEpoch),
    leaseActive: l.active,
    events,
  };
}

/** The reads the series needs (lib/store Store satisfies it). */
export interface EconomyStore {
  agentChainEvents(agentBase58: string, names: readonly string[], limit?: number): Promise<EconomyEvent[]>;
  agentAccounts(agentId: Uint8Array): Promise<EconomyAccounts>;
}

/**
 * The agent's series from the store, `nowMs` placing the current epoch; from its newest `events` events (default
 * 5,000).
 */
export async function readEconomy(
  store: EconomyStore,
  agent: { bytes: Uint8Array; base58: string },
  epochSeconds: bigint,
  nowMs = Date.now(),
  events?: number,
): Promise<EconomyView> {
  const [list, accounts] = await Promise.all([
    store.agentChainEvents(agent.base58, ECONOMY_EVENT_NAMES, events),
    store.agentAccounts(agent.bytes),
  ]);
  return economySeries({
    agent: agent.base58,
    events: list,
    accounts,
    epochSeconds,
    currentEpoch: BigInt(Math.floor(nowMs / 1000)) / epochSeconds,
  });
}

/** The series where the chain is not known, with the reason. */
export function unknownEconomy(agent: string, reason: string): EconomyView {
  return {
    agent,
    known: false,
    reason,
    epochSeconds: null,
    currentEpoch: null,
    points: [],
    accounts: { stake: null, lease: null },
    historyNote: null,
  };
}

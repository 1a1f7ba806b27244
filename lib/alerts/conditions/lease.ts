/**
 * The lease conditions, from the chain's lease rows: `lease_due` (the paid-through epoch ends
 * within the rule's hours), `lease_grace` (unpaid epochs, debounced: kinds.ts
 * LEASE_GRACE_HYSTERESIS) and `deactivated`.
 */
import { toHex } from '../../protocol/hex';
import { LEASE_GRACE_HYSTERESIS } from '../kinds';
import { keyOf, type Status } from '../tick-write';
import { watchers } from '../watch-set';
import { type ConditionInput, iso, status } from './input';

/** Unpaid epochs a lease may have before the tick deactivates it (lib/chain lease program). */
export const LEASE_GRACE_EPOCHS = 3n;

export interface LeaseRow {
  agent: Uint8Array;
  paidThrough: bigint;
  active: boolean;
}

/** The end of the paid-through epoch (the start of grace), ms. */
const leaseEnd = (r: LeaseRow, es: number) => Number(r.paidThrough + 1n) * es * 1000;

export function leaseDue(r: LeaseRow, x: ConditionInput): Status[] {
  const a = toHex(r.agent);
  const pt = r.paidThrough;
  const endMs = leaseEnd(r, x.es);
  const out: Status[] = [];
  for (const { l, p } of watchers(x.watch, 'lease_due', a)) {
    const hours = (endMs - x.t) / 3_600_000;
    const limit = p.hours as number;
    const firing = r.active && hours <= limit;
    out.push(
      status(l.id, a, 'lease_due', '', firing, () =>
        firing
          ? `lease of ${x.name(a)} is paid through epoch ${pt}, which ends at ` +
            `${iso(endMs)} (${hours >= 0 ? `in ${hours.toFixed(2)} h` : `${(-hours).toFixed(2)} h ago`}` +
            `; the rule alerts within ${limit} h)`
          : r.active
            ? `lease of ${x.name(a)} paid through epoch ${pt}, ending ${iso(endMs)}, in ${hours.toFixed(2)} h`
            : `lease of ${x.name(a)} is deactivated (paid through epoch ${pt})`,
      ),
    );
  }
  return out;
}

/**
 * `graceLong`: lease_grace keys → the last evaluation that saw the lease in grace past the open
 * threshold. Updated in place: the caller passes its own copy (leaseConditions does).
 */
export function leaseGrace(r: LeaseRow, x: ConditionInput, graceLong: Map<string, number>): Status[] {
  const { t, cur, es } = x;
  const a = toHex(r.agent);
  const pt = r.paidThrough;
  const unpaid = cur > pt ? cur - pt : 0n;
  const openAfterS = LEASE_GRACE_HYSTERESIS.openAfterEpochs * es;
  const quietAfterS = LEASE_GRACE_HYSTERESIS.quietEpochs * es;
  // In grace since the start of epoch pt + 1.
  const inGraceS = (t - leaseEnd(r, es)) / 1000;
  const long = r.active && unpaid > 0n && inGraceS >= openAfterS;
  const out: Status[] = [];
  for (const { l } of watchers(x.watch, 'lease_grace', a)) {
    const k = keyOf(l.id, a, 'lease_grace', '');
    const isOpen = x.open.has(k);
    if (long) graceLong.set(k, t);
    else if (!isOpen) graceLong.delete(k);
    else if (!graceLong.has(k)) graceLong.set(k, t); // opened before a restart: hold from now
    const quietS = (t - (graceLong.get(k) ?? t)) / 1000;
    const firing = long ? true : !isOpen || !r.active || pt > cur || quietS >= quietAfterS ? false : 'hold';
    if (firing === false) graceLong.delete(k);
    out.push(
      status(l.id, a, 'lease_grace', '', firing, () =>
        long
          ? `lease of ${x.name(a)} is paid through epoch ${pt} and the current epoch ` +
            `is ${cur}: ${unpaid} unpaid epoch${unpaid === 1n ? '' : 's'} in grace ` +
            `for ${inGraceS.toFixed(0)} s (deactivated after ${LEASE_GRACE_EPOCHS})`
          : !r.active
            ? `lease of ${x.name(a)} left grace deactivated (paid through epoch ${pt}, current epoch ${cur})`
            : pt > cur
              ? `lease of ${x.name(a)} paid through epoch ${pt} (current epoch ${cur})`
              : `lease of ${x.name(a)} paid through epoch ${pt} (current epoch ${cur}), ` +
                `not in grace for ${openAfterS} s or more during the last ${quietAfterS} s`,
      ),
    );
  }
  return out;
}

export function deactivated(r: LeaseRow, x: ConditionInput): Status[] {
  const a = toHex(r.agent);
  const pt = r.paidThrough;
  const unpaid = x.cur > pt ? x.cur - pt : 0n;
  return [...watchers(x.watch, 'deactivated', a)].map(({ l }) =>
    status(l.id, a, 'deactivated', '', !r.active, () =>
      !r.active
        ? `lease of ${x.name(a)} is deactivated on chain (paid through ` +
          `epoch ${pt}, current epoch ${x.cur}, ${unpaid} unpaid)`
        : `lease of ${x.name(a)} is active again, paid through epoch ${pt}`,
    ),
  );
}

/** The three lease conditions over the tick's lease rows, row by row; `graceLong` is returned anew. */
export function leaseConditions(
  leases: readonly LeaseRow[],
  x: ConditionInput,
  graceLong: ReadonlyMap<string, number>,
): { statuses: Status[]; graceLong: Map<string, number> } {
  const next = new Map(graceLong);
  const statuses: Status[] = [];
  for (const r of leases) statuses.push(...leaseDue(r, x), ...leaseGrace(r, x, next), ...deactivated(r, x));
  return { statuses, graceLong: next };
}

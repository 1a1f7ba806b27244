/**
 * The batch conditions, from the chain's batch rows of the last epochs: `batch_mismatch` (a
 * submitted batch that does not match the agent's uploaded epoch log) and `batch_missing` (an
 * epoch the agent paid for, ended after it was watched, with no batch past the rule's grace).
 */
import { fromHex, toHex } from '../../protocol/hex';
import { keyOf, type Status } from '../tick-write';
import { watchers } from '../watch-set';
import { type ConditionInput, iso, status } from './input';
import type { LeaseRow } from './lease';

export interface BatchRow {
  agent: Uint8Array;
  epoch: bigint;
  status: string;
  slot: bigint;
}

/**
 * Which batches a tick reads: every watched agent's from epoch `from` on, and `also` the older
 * epochs of open batch alerts (so that they can clear).
 */
export function batchQuery(
  open: ReadonlyMap<string, unknown>,
  cur: bigint,
): { from: bigint; also: Array<{ agent: Uint8Array; epoch: bigint }> } {
  const from = cur - 4n;
  const also: Array<{ agent: Uint8Array; epoch: bigint }> = [];
  for (const k of open.keys()) {
    const [, agent, kind, subject] = k.split('|');
    if ((kind === 'batch_missing' || kind === 'batch_mismatch') && BigInt(subject) < from)
      also.push({ agent: fromHex(agent), epoch: BigInt(subject) });
  }
  return { from, also };
}

export function batchMismatch(batches: readonly BatchRow[], x: ConditionInput): Status[] {
  const out: Status[] = [];
  for (const b of batches) {
    const a = toHex(b.agent);
    for (const { l, addedAt } of watchers(x.watch, 'batch_mismatch', a)) {
      // A batch of an epoch that ended before the agent was watched: only to clear an open alert.
      if (
        Number(b.epoch + 1n) * x.es * 1000 < addedAt &&
        !x.open.has(keyOf(l.id, a, 'batch_mismatch', String(b.epoch)))
      )
        continue;
      out.push(
        status(l.id, a, 'batch_mismatch', String(b.epoch), b.status === 'mismatch', () =>
          b.status === 'mismatch'
            ? `the batch ${x.name(a)} submitted for epoch ${b.epoch} (slot ${b.slot}) ` +
              `does not match its uploaded epoch log: the merkle root or the counts differ`
            : `the batch of epoch ${b.epoch} is now ${b.status}`,
        ),
      );
    }
  }
  return out;
}

/** The epochs one list checks for an agent: the last three ended ones, and those of its open alerts. */
function epochsToCheck(x: ConditionInput, wl: string, a: string): Set<bigint> {
  const epochs = new Set<bigint>();
  for (let e = x.cur - 3n; e < x.cur; e++) if (e >= 0n) epochs.add(e);
  for (const k of x.open.keys()) {
    const [kwl, agent, kind, subject] = k.split('|');
    if (kwl === wl && agent === a && kind === 'batch_missing') epochs.add(BigInt(subject));
  }
  return epochs;
}

/** Per agent with a lease (the last row of an agent counts), per list watching it for the kind. */
export function batchMissing(leases: readonly LeaseRow[], batches: readonly BatchRow[], x: ConditionInput): Status[] {
  const { t, es } = x;
  const leaseOf = new Map(leases.map((r) => [toHex(r.agent), r]));
  const batchOf = new Map(batches.map((b) => [`${toHex(b.agent)}|${b.epoch}`, b]));
  const out: Status[] = [];
  for (const [a, lease] of leaseOf) {
    for (const { l, p, addedAt } of watchers(x.watch, 'batch_missing', a)) {
      const grace = (p.graceSeconds as number | undefined) ?? Math.max(30, es);
      for (const e of epochsToCheck(x, l.id, a)) {
        const endMs = Number(e + 1n) * es * 1000;
        const b = batchOf.get(`${a}|${e}`);
        if (b) {
          out.push(
            status(
              l.id,
              a,
              'batch_missing',
              String(e),
              false,
              () => `${x.name(a)} submitted the batch of epoch ${e} (slot ${b.slot}, ${b.status})`,
            ),
          );
          continue;
        }
        if (x.open.has(keyOf(l.id, a, 'batch_missing', String(e)))) continue;
        // Only epochs the agent paid for, that ended after it was watched, past their grace.
        if (e > lease.paidThrough || endMs < addedAt || t < endMs + grace * 1000) continue;
        out.push(
          status(
            l.id,
            a,
            'batch_missing',
            String(e),
            true,
            () =>
              `${x.name(a)} submitted no batch for epoch ${e}, which ended at ` +
              `${iso(endMs)}, ${((t - endMs) / 1000).toFixed(0)} s ago (grace ${grace} s)`,
          ),
        );
      }
    }
  }
  return out;
}

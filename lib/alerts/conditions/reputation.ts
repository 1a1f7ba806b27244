/** `reputation_drop`: reliability fell by more than the rule's points within its window (samples from the live bus). */
import type { Status } from '../tick-write';
import { watchers } from '../watch-set';
import { type ConditionInput, fixed, status } from './input';

/** [time ms, reliability score in fixed point] */
export type ReputationSample = [number, bigint];

/** Samples kept per agent: a week, and always the latest. */
const KEEP_MS = 7 * 86_400_000;

/** `samples`: per agent (hex), oldest first, never empty. Returned anew with samples older than a week dropped. */
export function reputationDrop(
  samples: ReadonlyMap<string, readonly ReputationSample[]>,
  x: ConditionInput,
): { statuses: Status[]; samples: Map<string, ReputationSample[]> } {
  const statuses: Status[] = [];
  const kept = new Map<string, ReputationSample[]>();
  for (const [a, s] of samples) {
    for (const { l, p } of watchers(x.watch, 'reputation_drop', a)) {
      const since = x.t - (p.windowMinutes as number) * 60_000;
      let max = -1n;
      for (const [at, v] of s) if (at >= since && v > max) max = v;
      const curv = s[s.length - 1][1];
      const fell = max - curv;
      const limit = BigInt(Math.round((p.drop as number) * 1e6)); // points to fixed point (at most 6 decimals)
      statuses.push(
        status(l.id, a, 'reputation_drop', '', fell > limit, () =>
          fell > limit
            ? `reliability of ${x.name(a)} fell from ${fixed(max)} to ${fixed(curv)} ` +
              `within ${p.windowMinutes} min (by ${fixed(fell)}, more than ${fixed(limit)})`
            : `reliability of ${x.name(a)} is ${fixed(curv)}, within ` +
              `${fixed(limit)} of its ${p.windowMinutes}-min high ${fixed(max)}`,
        ),
      );
    }
    let drop = 0;
    while (drop < s.length - 1 && s[drop][0] < x.t - KEEP_MS) drop++;
    kept.set(a, drop ? s.slice(drop) : (s as ReputationSample[]));
  }
  return { statuses, samples: kept };
}

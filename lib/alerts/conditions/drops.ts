/** `drops_rate`: envelopes from the agent dropped by validation in the last minute, above the rule's rate. */
import type { Status } from '../tick-write';
import { watchers } from '../watch-set';
import { type ConditionInput, status } from './input';

/** `dropped`: per agent (hex), envelopes dropped in the minute before the tick (the evaluator's drop windows). */
export function dropsRate(dropped: ReadonlyMap<string, number>, x: ConditionInput): Status[] {
  const out: Status[] = [];
  for (const [a, n] of dropped) {
    for (const { l, p } of watchers(x.watch, 'drops_rate', a)) {
      const limit = p.perMinute as number;
      out.push(
        status(l.id, a, 'drops_rate', '', n > limit, () =>
          n > limit
            ? `${n} envelopes from ${x.name(a)} were dropped by validation ` +
              `in the last minute (the rule alerts above ${limit})`
            : `${n} envelopes from ${x.name(a)} dropped in the last minute (at or under ${limit})`,
        ),
      );
    }
  }
  return out;
}

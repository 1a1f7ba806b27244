/** `offline`: no envelope from a watched agent for the rule's minutes (the in-memory last-seen times). */
import type { Status } from '../tick-write';
import { watchers } from '../watch-set';
import { type ConditionInput, iso, status } from './input';

/** `seen`: last envelope time per agent (hex), ms; NaN for a watched agent never seen (no alert until it speaks). */
export function offline(seen: ReadonlyMap<string, number>, x: ConditionInput): Status[] {
  const out: Status[] = [];
  for (const [a, last] of seen) {
    if (Number.isNaN(last)) continue;
    for (const { l, p } of watchers(x.watch, 'offline', a)) {
      const mins = (x.t - last) / 60_000;
      const limit = p.minutes as number;
      out.push(
        status(l.id, a, 'offline', '', mins >= limit, () =>
          mins >= limit
            ? `no envelope from ${x.name(a)} for ${mins.toFixed(1)} min ` +
              `(last at ${iso(last)}); the rule alerts after ${limit} min`
            : `${x.name(a)} sent an envelope at ${iso(last)}, ${mins.toFixed(1)} min ago (under ${limit} min)`,
        ),
      );
    }
  }
  return out;
}

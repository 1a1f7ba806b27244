/**
 * What every alert condition is given: the tick's time, the watch set, the keys of the open
 * alerts and the agents' names. A condition is a pure function of this, the rows the evaluator
 * read for the tick and its own remembered state; it returns statuses (tick-write.ts `Status`:
 * firing, not firing, or holding an open alert) and, if it remembers anything, its new state.
 * The evaluator (evaluator.ts) reconciles the statuses with the open alerts (reconcile.ts).
 */
import { scorePoints } from '../../wire/score';
import type { AlertKind } from '../kinds';
import type { Status } from '../tick-write';
import type { WatchSet } from '../watch-set';

export interface ConditionInput {
  /** The evaluation's time, ms. */
  t: number;
  /** Epoch length, s. */
  es: number;
  /** The current epoch: ⌊t / 1000 / es⌋. */
  cur: bigint;
  watch: WatchSet;
  /** The open alerts, by key (tick-write.ts `keyOf`). */
  open: ReadonlyMap<string, unknown>;
  /** The name every page shows for an agent (hex). */
  name(agentHex: string): string;
}

export const status = (
  wl: string,
  agent: string,
  kind: AlertKind,
  subject: string,
  firing: Status['firing'],
  why: () => string,
): Status => ({ wl, agent, kind, subject, firing, why });

export const iso = (ms: number) => new Date(ms).toISOString();
export const fixed = (v: bigint | number) => scorePoints(BigInt(v), 3);

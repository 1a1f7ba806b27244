/**
 * A tick's decisions, from the conditions' statuses and the open alerts: which alerts to open
 * (firing, not open, and for an event kind never opened before for its subject) and which to
 * clear (open and no longer firing, or whose rule was turned off or agent no longer watched).
 * Pure: the evaluator (evaluator.ts) writes the decisions (tick-write.ts).
 */
import { type AlertKind, EVENT_KINDS } from './kinds';
import { type ClearAlert, keyOf, type OpenAlert, type Status, whyOf } from './tick-write';
import type { WatchSet } from './watch-set';

export interface ReconcileInput {
  open: ReadonlyMap<string, OpenAlert>;
  /** Keys of event alerts ever opened. */
  eventKeys: ReadonlySet<string>;
  watch: WatchSet;
  name(agentHex: string): string;
}

/** Statuses in order: for one key, the first firing one wins over a later clearing one. */
export function reconcile(statuses: readonly Status[], m: ReconcileInput): { fresh: Status[]; clear: ClearAlert[] } {
  const { open, eventKeys } = m;
  const fresh: Status[] = [];
  const clear: ClearAlert[] = [];
  const firingNow = new Set<string>();
  const clearing = new Set<string>();
  for (const s of statuses) {
    const k = keyOf(s.wl, s.agent, s.kind, s.subject);
    if (s.firing === 'hold') {
      if (open.has(k)) firingNow.add(k);
      continue;
    }
    if (s.firing) {
      if (firingNow.has(k)) continue;
      firingNow.add(k);
      if (!open.has(k) && !(EVENT_KINDS.has(s.kind) && eventKeys.has(k))) fresh.push(s);
    } else {
      const a = open.get(k);
      if (a && !firingNow.has(k) && !clearing.has(k)) {
        clearing.add(k);
        clear.push({ key: k, id: a.id, why: whyOf(s), kind: s.kind, throttled: a.throttled });
      }
    }
  }
  // Alerts whose rule was turned off or whose agent is no longer watched clear too.
  for (const [k, a] of open) {
    if (firingNow.has(k) || clearing.has(k)) continue;
    const [wl, agent, kind] = k.split('|');
    const l = m.watch.lists.get(wl);
    const ruleOn = l?.rules.has(kind as AlertKind);
    const watched = l && (l.allAgents || l.agents.has(agent) || (kind === 'dispute' && l.convs.size > 0));
    if (!ruleOn || !watched)
      clear.push({
        key: k,
        id: a.id,
        why: !ruleOn ? `the ${kind} rule was turned off` : `${m.name(agent)} is no longer watched`,
        kind,
        throttled: a.throttled,
      });
  }
  return { fresh, clear };
}

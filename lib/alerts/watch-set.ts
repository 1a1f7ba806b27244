/**
 * The evaluator's watch set: the enabled rules and watched items of every watchlist, indexed per
 * agent so that a tick is O(watched pairs). Built from the store's rows (`watchState`) by a pure
 * function; the alert conditions (conditions/) ask it which lists watch an agent for a kind.
 */
import { toHex } from '../protocol/hex';
import { type AlertKind, isAlertKind, ruleParams } from './kinds';

export interface WatchList {
  id: string;
  allAgents: boolean;
  rules: Map<AlertKind, Record<string, unknown>>;
  /** Watched agents (hex) → when they were added, ms. */
  agents: Map<string, number>;
  /** Watched conversations (hex) → when they were added, ms. */
  convs: Map<string, number>;
}

export interface WatchSet {
  lists: Map<string, WatchList>;
  /** Lists per watched agent (hex). */
  byAgent: Map<string, WatchList[]>;
  /** The lists that watch every agent. */
  allLists: WatchList[];
  /** Some list watches every agent. */
  watchAll: boolean;
  /** Agents (hex) some list names. */
  named: Set<string>;
}

/** The rows of the store's `watchState` this needs (plain rows in tests). */
export interface WatchRows {
  lists: ReadonlyArray<{ id: string; allAgents: boolean }>;
  rules: ReadonlyArray<{ watchlistId: string; kind: string; params: unknown }>;
  items: ReadonlyArray<{ watchlistId: string; kind: string; target: Uint8Array; addedAt: Date }>;
}

export function buildWatchSet(st: WatchRows): WatchSet {
  const lists = new Map<string, WatchList>();
  for (const l of st.lists)
    lists.set(l.id, { id: l.id, allAgents: l.allAgents, rules: new Map(), agents: new Map(), convs: new Map() });
  for (const r of st.rules)
    if (isAlertKind(r.kind)) lists.get(r.watchlistId)?.rules.set(r.kind, ruleParams(r.kind, r.params));
  for (const i of st.items) {
    const l = lists.get(i.watchlistId);
    if (!l) continue;
    (i.kind === 'agent' ? l.agents : l.convs).set(toHex(i.target), i.addedAt.getTime());
  }
  const byAgent = new Map<string, WatchList[]>();
  const named = new Set<string>();
  for (const l of lists.values()) {
    for (const a of l.agents.keys()) {
      named.add(a);
      const x = byAgent.get(a);
      if (x) x.push(l);
      else byAgent.set(a, [l]);
    }
  }
  const allLists = [...lists.values()].filter((l) => l.allAgents);
  return { lists, byAgent, allLists, watchAll: allLists.length > 0, named };
}

export const EMPTY_WATCH_SET: WatchSet = buildWatchSet({ lists: [], rules: [], items: [] });

/**
 * Every list that watches `agent` with a rule of `kind`, with the rule's params and when the agent was added (0: the
 * list watches every agent).
 */
export function* watchers(
  ws: WatchSet,
  kind: AlertKind,
  agent: string,
): Generator<{ l: WatchList; p: Record<string, unknown>; addedAt: number }> {
  for (const l of ws.byAgent.get(agent) ?? []) {
    const p = l.rules.get(kind);
    if (p) yield { l, p, addedAt: l.agents.get(agent)! };
  }
  for (const l of ws.allLists) {
    const p = l.rules.get(kind);
    if (p && !l.agents.has(agent)) yield { l, p, addedAt: 0 };
  }
}

/** Every list that watches `agent`, whatever its rules. */
export const watchedBy = (ws: WatchSet, agent: string): WatchList[] => [
  ...(ws.byAgent.get(agent) ?? []),
  ...ws.allLists.filter((l) => !l.agents.has(agent)),
];

/** Some list has a rule of one of `kinds`. */
export const anyRule = (ws: WatchSet, ...kinds: AlertKind[]) =>
  [...ws.lists.values()].some((l) => kinds.some((k) => l.rules.has(k)));

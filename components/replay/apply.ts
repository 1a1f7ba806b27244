/**
 * Replayed envelopes into the overview's state: the same result as applying each `message`
 * event with live-state's applyEvent, one after another, but a batch at a time. A replay at 100×
 * hands out thousands of envelopes a second; applyEvent copies the agent, node and link arrays
 * for every envelope, which on a 2,000-agent graph costs far more than a frame. Here each array
 * is copied once per batch and found through maps. Pure, and checked against applyEvent by
 * components/replay/replay.test.ts.
 *
 * One difference: `pulses` holds only the pairs this batch pulsed, each set to the batch's
 * sequence (the state's liveCount after it). The graph flashes a pair whose value changed, so a
 * batch flashes exactly its own pairs; carrying every pair ever pulsed (20,000 on a big mesh)
 * would copy and scan them all ten times a second.
 */
import type { AgentView, GraphView, OverviewSnapshot } from '../../lib/wire';
import type { ReplayEvent } from '../../lib/wire/replay';
import { isBroadcast } from '../format';
import { envelopeFromEvent, FEED_SIZE, initialState, type OverviewState } from '../live-state';
import { pairKey } from '../pair';

/** The state a replay starts from: nothing seen yet, the observer's own facts kept. */
export function emptyReplayState(live: Pick<OverviewSnapshot, 'mesh' | 'database'>): OverviewState {
  return initialState({
    stats: { byType: {}, drops: {} } as OverviewSnapshot['stats'],
    envelopes: [],
    agents: [],
    graph: { nodes: [], links: [] },
    mesh: live.mesh,
    database: live.database,
    chain: null,
  });
}

/**
 * Id → index maps of the arrays a batch returned, kept for the next batch: on a 2,000-agent,
 * 20,000-link graph, rebuilding or even copying them (and the links' pair keys) every tick costs
 * more than applying the batch. A batch only appends to an array or replaces an element by one
 * with the same key, so the array it returns shares its input's map, extended. An older state
 * applied again (a branch) may have written other indexes into that shared map: every hit is
 * checked against the array, and a stale map is rebuilt from the array.
 */
const indexes = new WeakMap<object, Map<string, number>>();
class Index<T> {
  private map: Map<string, number>;
  constructor(
    private list: readonly T[],
    private key: (x: T) => string,
  ) {
    let m = indexes.get(list);
    if (!m) {
      m = new Map(list.map((x, i) => [key(x), i]));
      indexes.set(list, m);
    }
    this.map = m;
  }
  /** Where `id` is in `list` (the input array or its copy, same prefix). */
  get(id: string, list: readonly T[]): number | undefined {
    const i = this.map.get(id);
    if (i === undefined || (i < list.length && this.key(list[i]) === id)) return i;
    // Stale: another branch wrote this key. Rebuild from the input array (what `list` starts with).
    this.map = new Map(this.list.map((x, j) => [this.key(x), j]));
    for (let j = this.list.length; j < list.length; j++) this.map.set(this.key(list[j]), j);
    return this.map.get(id);
  }
  set(id: string, i: number): void {
    this.map.set(id, i);
  }
  /** Registers the returned array under the (extended) map. */
  keep(list: readonly T[]): void {
    indexes.set(list, this.map);
  }
}

export function applyReplayBatch(state: OverviewState, events: readonly ReplayEvent[]): OverviewState {
  if (events.length === 0) return state;
  let agents: AgentView[] | null = null;
  let nodes: GraphView['nodes'] | null = null;
  let links: GraphView['links'] | null = null;
  const agentAt = new Index(state.agents, (a) => a.id);
  const nodeAt = new Index(state.graph.nodes, (n) => n.id);
  let linkAt: Index<GraphView['links'][number]> | null = null;
  const byType = { ...state.stats.byType };
  const pulsedKeys: string[] = [];
  const recent = new Set(state.envelopes.map((e) => e.id));
  const fresh: OverviewState['envelopes'] = [];
  let applied = 0;

  const touch = (id: string, at: number) => {
    const list = agents ?? state.agents;
    const i = agentAt.get(id, list);
    if (i !== undefined) {
      const a = list[i];
      if (a.online && (a.lastSeenMs ?? 0) >= at) return;
      agents ??= state.agents.slice();
      agents[i] = { ...a, online: true, lastSeenMs: Math.max(a.lastSeenMs ?? 0, at) };
      return;
    }
    agents ??= state.agents.slice();
    agentAt.set(id, agents.length);
    agents.push({ id, name: null, firstSeenMs: at, lastSeenMs: at, online: true, envelopes: null, reputation: null });
  };
  const addNode = (id: string) => {
    const i = nodeAt.get(id, nodes ?? state.graph.nodes);
    if (i === undefined) {
      nodes ??= state.graph.nodes.slice();
      nodeAt.set(id, nodes.length);
      nodes.push({ id, online: true });
    } else if (!(nodes ?? state.graph.nodes)[i].online) {
      nodes ??= state.graph.nodes.slice();
      nodes[i] = { ...nodes[i], online: true };
    }
  };

  for (const ev of events) {
    const env = envelopeFromEvent(ev);
    if (recent.has(env.id)) continue;
    recent.add(env.id);
    applied++;
    fresh.push(env);
    byType[env.type] = (byType[env.type] ?? 0) + 1;
    touch(env.sender, env.receivedAtMs ?? env.timestampMs);
    addNode(env.sender);
    if (!isBroadcast(env.recipient) && env.recipient !== env.sender) {
      addNode(env.recipient);
      // applyEvent adds a recipient it has not seen as an agent last seen at 0.
      if (agentAt.get(env.recipient, agents ?? state.agents) === undefined) touch(env.recipient, 0);
      const key = pairKey(env.sender, env.recipient);
      linkAt ??= new Index(state.graph.links, (l) => pairKey(l.source, l.target));
      links ??= state.graph.links.slice();
      const i = linkAt.get(key, links);
      if (i === undefined) {
        linkAt.set(key, links.length);
        links.push({ source: env.sender, target: env.recipient, messages: 1 });
      } else links[i] = { ...links[i], messages: links[i].messages + 1 };
      pulsedKeys.push(key);
    }
  }
  if (applied === 0) return state;
  if (agents) agentAt.keep(agents);
  if (nodes) nodeAt.keep(nodes);
  if (links && linkAt) linkAt.keep(links);
  const liveCount = state.liveCount + applied;
  const pulses: Record<string, number> = {};
  for (const k of pulsedKeys) pulses[k] = liveCount;
  const graph = nodes || links ? { nodes: nodes ?? state.graph.nodes, links: links ?? state.graph.links } : state.graph;
  return {
    ...state,
    envelopes: [...fresh.reverse(), ...state.envelopes].slice(0, FEED_SIZE),
    stats: { ...state.stats, byType },
    agents: agents ?? state.agents,
    graph,
    pulses: pulsedKeys.length ? pulses : state.pulses,
    liveCount,
  };
}

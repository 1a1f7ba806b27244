/**
 * Replayed envelopes into the overview's state: the same result as applying each `message`
 * event with live-state's applyEvent, one after another, but a batch at a time. A replay at 100×
 * hands out thousands of envelopes a second; applyEvent copies the agent, node and link arrays
 * for every envelope, which on a 2,000-agent graph costs far more than a frame. Here each array
 * is copied once per batch and found through maps. Pure, and checked against applyEvent by
 * components/replay/replay.test.ts.
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
 * 20,000-link graph, rebuilding them (and the links' pair keys) every tick costs more than
 * applying the batch. A map is only found again for the very array it indexes.
 */
const indexes = new WeakMap<object, Map<string, number>>();
function indexOf<T>(list: readonly T[], key: (x: T) => string): Map<string, number> {
  let m = indexes.get(list);
  if (!m) {
    m = new Map(list.map((x, i) => [key(x), i]));
    indexes.set(list, m);
  }
  return m;
}

export function applyReplayBatch(state: OverviewState, events: readonly ReplayEvent[]): OverviewState {
  if (events.length === 0) return state;
  let agents: AgentView[] | null = null;
  let nodes: GraphView['nodes'] | null = null;
  let links: GraphView['links'] | null = null;
  // Copies: the maps of the state's arrays stay valid for those arrays.
  const agentAt = new Map(indexOf(state.agents, (a) => a.id));
  const nodeAt = new Map(indexOf(state.graph.nodes, (n) => n.id));
  let linkAt: Map<string, number> | null = null;
  const byType = { ...state.stats.byType };
  const pulses = { ...state.pulses };
  let pulsed = false;
  const recent = new Set(state.envelopes.map((e) => e.id));
  const fresh: OverviewState['envelopes'] = [];
  let applied = 0;

  const touch = (id: string, at: number) => {
    const i = agentAt.get(id);
    const list = agents ?? state.agents;
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
    const i = nodeAt.get(id);
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
      if (!agentAt.has(env.recipient)) touch(env.recipient, 0);
      const key = pairKey(env.sender, env.recipient);
      linkAt ??= new Map(indexOf(state.graph.links, (l) => pairKey(l.source, l.target)));
      links ??= state.graph.links.slice();
      const i = linkAt.get(key);
      if (i === undefined) {
        linkAt.set(key, links.length);
        links.push({ source: env.sender, target: env.recipient, messages: 1 });
      } else links[i] = { ...links[i], messages: links[i].messages + 1 };
      pulses[key] = (pulses[key] ?? 0) + 1;
      pulsed = true;
    }
  }
  if (applied === 0) return state;
  if (agents) indexes.set(agents, agentAt);
  if (nodes) indexes.set(nodes, nodeAt);
  if (links && linkAt) indexes.set(links, linkAt);
  const graph = nodes || links ? { nodes: nodes ?? state.graph.nodes, links: links ?? state.graph.links } : state.graph;
  return {
    ...state,
    envelopes: [...fresh.reverse(), ...state.envelopes].slice(0, FEED_SIZE),
    stats: { ...state.stats, byType },
    agents: agents ?? state.agents,
    graph,
    pulses: pulsed ? pulses : state.pulses,
    liveCount: state.liveCount + applied,
  };
}

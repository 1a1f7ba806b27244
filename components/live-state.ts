/**
 * Pure state updates of the live overview: a snapshot (from the server) plus the live events
 * that arrive after it (already checked against lib/wire's schema by useLiveStream). No React,
 * no DOM, so it is unit-tested on its own.
 */
import {
  type AgentView,
  type EnvelopeView,
  FEED_SIZE,
  isChainEvent,
  type LiveEvent,
  type LiveEventOf,
  msgTypeName,
  type OverviewSnapshot,
} from '../lib/wire';
import { applyChainEvent } from './chain-state';
import { eventText } from './event-text';
import { isBroadcast } from './format';
import { pairKey } from './pair';

export { FEED_SIZE };

export interface OverviewState extends OverviewSnapshot {
  /** Envelopes that arrived over the stream since the page opened. */
  liveCount: number;
  /** Pair key → bumps, for edge flashes. */
  pulses: Record<string, number>;
  /** Latest non-message events (notary, verdicts, reputation, disputes, joins). */
  activity: ActivityItem[];
}

export interface ActivityItem {
  key: string;
  type: string;
  at: number;
  /** The event as a sentence about `agent` (components/event-text.ts). */
  summary: string;
  agent: string | null;
  conversationId: string | null;
  /** The event's own fields, shown on request. */
  fields: Record<string, unknown>;
}

/** The envelope carried by a `message` event, as the feed shows it (envelope timestamps are µs). */
export function envelopeFromEvent(event: LiveEventOf<'message'>): EnvelopeView {
  const d = event.data;
  return {
    id: d.id,
    msgType: d.msgType,
    type: msgTypeName(d.msgType),
    sender: d.sender,
    recipient: d.recipient,
    conversationId: d.conversationId,
    timestampMs: Number(BigInt(d.timestamp) / 1000n),
    receivedAtMs: d.receivedAt,
    source: d.source,
    topic: d.topic,
    nonce: d.nonce,
    payloadLen: d.payloadLen,
  };
}

export function initialState(snapshot: OverviewSnapshot): OverviewState {
  return {
    ...snapshot,
    liveCount: 0,
    pulses: {},
    activity: [],
  };
}

/**
 * Replaces server-derived parts after a resync, keeping the live counters. The snapshot's drop
 * counts are the stored totals; drop events after it add their `count` on top.
 */
export function resync(state: OverviewState, snapshot: OverviewSnapshot): OverviewState {
  return { ...state, ...snapshot };
}

function touchAgent(agents: AgentView[], id: string, at: number): AgentView[] {
  const i = agents.findIndex((a) => a.id === id);
  if (i >= 0) {
    const a = agents[i];
    if (a.online && (a.lastSeenMs ?? 0) >= at) return agents;
    const copy = agents.slice();
    copy[i] = { ...a, online: true, lastSeenMs: Math.max(a.lastSeenMs ?? 0, at) };
    return copy;
  }
  return [
    ...agents,
    { id, name: null, firstSeenMs: at, lastSeenMs: at, online: true, envelopes: null, reputation: null },
  ];
}

function applyMessage(state: OverviewState, env: EnvelopeView): OverviewState {
  if (state.envelopes.some((e) => e.id === env.id)) return state;
  const byType = { ...state.stats.byType, [env.type]: (state.stats.byType[env.type] ?? 0) + 1 };
  let agents = touchAgent(state.agents, env.sender, env.receivedAtMs ?? env.timestampMs);
  let { nodes, links } = state.graph;
  const addNode = (id: string) => {
    if (!nodes.some((n) => n.id === id)) nodes = [...nodes, { id, online: true }];
    else if (nodes.some((n) => n.id === id && !n.online))
      nodes = nodes.map((n) => (n.id === id ? { ...n, online: true } : n));
  };
  addNode(env.sender);
  let pulses = state.pulses;
  if (!isBroadcast(env.recipient) && env.recipient !== env.sender) {
    addNode(env.recipient);
    agents = state.agents.some((a) => a.id === env.recipient) ? agents : touchAgent(agents, env.recipient, 0);
    const key = pairKey(env.sender, env.recipient);
    const i = links.findIndex((l) => pairKey(l.source, l.target) === key);
    if (i < 0) links = [...links, { source: env.sender, target: env.recipient, messages: 1 }];
    else links = links.map((l, j) => (j === i ? { ...l, messages: l.messages + 1 } : l));
    pulses = { ...pulses, [key]: (pulses[key] ?? 0) + 1 };
  }
  const graph = nodes !== state.graph.nodes || links !== state.graph.links ? { nodes, links } : state.graph;
  return {
    ...state,
    envelopes: [env, ...state.envelopes].slice(0, FEED_SIZE),
    stats: { ...state.stats, byType },
    agents,
    graph,
    pulses,
    liveCount: state.liveCount + 1,
  };
}

function summarize(event: LiveEvent): ActivityItem {
  const t = eventText(event);
  return {
    key: `${event.type}:${event.at}:${Math.random().toString(36).slice(2, 8)}`,
    type: event.type,
    at: event.at,
    summary: t.text,
    agent: t.agent,
    conversationId: t.conversationId,
    fields: (event.data ?? {}) as Record<string, unknown>,
  };
}

/** Applies one live event; a missing event leaves the state unchanged. */
export function applyEvent(state: OverviewState, event: LiveEvent): OverviewState {
  if (!event || typeof event.type !== 'string') return state;
  switch (event.type) {
    case 'message':
      return applyMessage(state, envelopeFromEvent(event));
    case 'drop': {
      // One event per reason per flush (about every 250 ms), carrying how many were dropped since
      // the previous one: add them all, not one per event.
      const { reason, count } = event.data;
      return {
        ...state,
        stats: { ...state.stats, drops: { ...state.stats.drops, [reason]: (state.stats.drops[reason] ?? 0) + count } },
      };
    }
    case 'agent_joined': {
      const id = event.data.agent;
      const next = { ...state, activity: [summarize(event), ...state.activity].slice(0, 20) };
      const agents = touchAgent(state.agents, id, event.at);
      const nodes = state.graph.nodes.some((n) => n.id === id)
        ? state.graph.nodes
        : [...state.graph.nodes, { id, online: true }];
      return { ...next, agents, graph: nodes === state.graph.nodes ? state.graph : { ...state.graph, nodes } };
    }
    default: {
      const next = { ...state, activity: [summarize(event), ...state.activity].slice(0, 20) };
      return isChainEvent(event) && state.chain ? { ...next, chain: applyChainEvent(state.chain, event) } : next;
    }
  }
}

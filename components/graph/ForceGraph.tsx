'use client';
/**
 * Live force-directed graph of agents on a canvas (d3-force layout, d3-zoom, hit-testing over a
 * quadtree; components/graph/engine.ts). Nodes are agents (hollow when offline), an edge joins
 * two agents that exchanged bilateral envelopes, thicker with more messages. Positions survive
 * updates, so the layout moves, never jumps. `pulses` maps a pair key (components/pair.ts) to a
 * counter; a change flashes that edge.
 *
 * Hover shows the agent id, a click opens the agent, drag moves a node, wheel or pinch zooms, and
 * "Find agent" centres on an agent and highlights its links. A canvas has no DOM per node, so the
 * agents are also a visually hidden list of links (role=list), for screen readers and tests.
 */
import { type FormEvent, memo, useEffect, useMemo, useRef, useState } from 'react';
import type { GraphView } from '../../lib/wire';
import { count, shortHex } from '../format';
import { agentDisplayName, shortBase58 } from '../names/label';
import { useSite } from '../site';
import { GraphEngine } from './engine';
import { findAgents, type GraphNode, sameShape } from './model';

export interface ForceGraphProps {
  graph: GraphView;
  pulses?: Record<string, number>;
  height?: number;
  /**
   * Opens an agent's page. The default is a full navigation to /agents/<id>, as a link's would
   * be: a client-side navigation is a React transition, which a live page's stream of urgent
   * updates can hold back for as long as the stream is busy.
   */
  onOpen?: (id: string) => void;
}

interface Tip {
  node: GraphNode;
  x: number;
  y: number;
}

export function ForceGraph({ graph, pulses = {}, height = 420, onOpen }: ForceGraphProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const engineRef = useRef<GraphEngine | null>(null);
  const { names } = useSite();
  const seenPulses = useRef<Record<string, number>>({});
  const openRef = useRef(onOpen);
  openRef.current = onOpen;
  const [tip, setTip] = useState<Tip | null>(null);
  const [query, setQuery] = useState('');
  const [focused, setFocused] = useState<GraphNode | null>(null);
  const [miss, setMiss] = useState('');
  // The hidden agent list shows agents, online flags and link counts, not message counts: it is
  // handed the previous view while only counts moved, so a replay does not re-render 2,000 items
  // ten times a second.
  const listRef = useRef(graph);
  if (!sameShape(listRef.current, graph, true)) listRef.current = graph;

  // One engine for the component's life; it follows the wrapper's width.
  useEffect(() => {
    const engine = new GraphEngine(canvasRef.current!, height, {
      onHover: (node, x, y) => setTip(node ? { node, x, y } : null),
      onOpen: (node) => (openRef.current ? openRef.current(node.id) : window.location.assign(`/agents/${node.id}`)),
    });
    engineRef.current = engine;
    const wrap = wrapRef.current!;
    const ro = new ResizeObserver(() => engine.resize(wrap.clientWidth, height));
    ro.observe(wrap);
    engine.resize(wrap.clientWidth, height);
    // The palette comes from CSS custom properties: redraw when the theme switches.
    const retheme = () => engine.retheme();
    window.addEventListener('themechange', retheme);
    const media = window.matchMedia('(prefers-color-scheme: light)');
    media.addEventListener('change', retheme);
    return () => {
      ro.disconnect();
      window.removeEventListener('themechange', retheme);
      media.removeEventListener('change', retheme);
      engine.destroy();
      engineRef.current = null;
    };
  }, [height]);

  useEffect(() => {
    engineRef.current?.setGraph(graph);
    setFocused((f) => (f && engineRef.current?.nodes.some((n) => n.id === f.id) ? f : null));
  }, [graph, height]);

  useEffect(() => {
    const seen = seenPulses.current;
    const changed: string[] = [];
    for (const k in pulses) {
      if (pulses[k] === seen[k]) continue;
      seen[k] = pulses[k];
      changed.push(k);
    }
    if (changed.length) engineRef.current?.pulse(changed);
  }, [pulses]);

  const suggestions = useMemo(
    () => (query.trim().length >= 2 && engineRef.current ? findAgents(engineRef.current.nodes, query) : []),
    [query, graph],
  );

  const find = (e: FormEvent) => {
    e.preventDefault();
    const engine = engineRef.current;
    if (!engine || !query.trim()) return;
    const [hit] = findAgents(engine.nodes, query, 1);
    setMiss(hit ? '' : `No agent matches “${query.trim()}”.`);
    setFocused(hit ?? null);
    engine.focus(hit);
  };
  const clear = () => {
    setFocused(null);
    setMiss('');
    setQuery('');
    engineRef.current?.focus(undefined);
  };
  const focusedLinks = focused
    ? (engineRef.current?.links.filter((l) => l.source === focused || l.target === focused).length ?? 0)
    : 0;

  return (
    <div className="force-graph-wrap" ref={wrapRef}>
      <form
        className="graph-tools"
        role="search"
        aria-label="Find an agent in the graph"
        onSubmit={find}
        onKeyDown={(e) => e.key === 'Escape' && clear()}
      >
        <input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Find agent (base58 or hex)"
          aria-label="Find agent"
          list="graph-find-suggestions"
          data-testid="graph-find"
          spellCheck={false}
          autoComplete="off"
        />
        <datalist id="graph-find-suggestions">
          {suggestions.map((n) => (
            <option key={n.id} value={n.b58} />
          ))}
        </datalist>
        <button type="submit">Find</button>
        <button
          type="button"
          onClick={() => {
            clear();
            engineRef.current?.fit();
          }}
          title="Fit the whole graph in view"
        >
          Fit
        </button>
      </form>
      {focused || miss ? (
        <p className="graph-focus small" data-testid="graph-focus" data-agent={focused?.id} role="status">
          {focused ? (
            <>
              <a href={`/agents/${focused.id}`} title={focused.b58}>
                {agentDisplayName(focused.id, names[focused.id])}{' '}
                <span className="mono">{shortHex(focused.b58, 5, 4)}</span>
              </a>{' '}
              <span className="muted">
                {focused.online ? 'online' : 'offline'}, {count(focusedLinks)} conversation link
                {focusedLinks === 1 ? '' : 's'}
              </span>{' '}
              <button type="button" className="linkish" onClick={clear} aria-label="Clear the highlight">
                ×
              </button>
            </>
          ) : (
            <span className="muted">{miss}</span>
          )}
        </p>
      ) : null}
      <canvas
        ref={canvasRef}
        className="force-graph"
        role="img"
        aria-label={`Agent graph: ${graph.nodes.length} agents, ${graph.links.length} conversation links`}
        data-nodes={graph.nodes.length}
      />
      {tip ? (
        <div
          className="graph-tip"
          role="tooltip"
          data-testid="graph-tooltip"
          data-agent={tip.node.id}
          style={{ left: tip.x, top: tip.y }}
        >
          <div>{agentDisplayName(tip.node.id, names[tip.node.id])}</div>
          <div className="mono">{tip.node.b58}</div>
          <div className="muted small">
            {tip.node.online ? 'online' : 'offline'} · {count(tip.node.degree)} conversation link
            {tip.node.degree === 1 ? '' : 's'} · click to open
          </div>
        </div>
      ) : null}
      <AgentList graph={listRef.current} />
    </div>
  );
}

/** Every agent of the graph as a link, hidden from sight but not from assistive technology. */
const AgentList = memo(function AgentList({ graph }: { graph: GraphView }) {
  const { names: stored } = useSite();
  const names = useRef(new Map<string, string>());
  /** The agent's name as every page gives it, with its id shortened (a screen reader's user may need both). */
  const name = (id: string) => {
    let b = names.current.get(id);
    if (b === undefined) names.current.set(id, (b = `${agentDisplayName(id, stored[id])} (${shortBase58(id)})`));
    return b;
  };
  const degree = useMemo(() => {
    const d = new Map<string, number>();
    for (const l of graph.links) {
      if (l.source === l.target) continue;
      d.set(l.source, (d.get(l.source) ?? 0) + 1);
      d.set(l.target, (d.get(l.target) ?? 0) + 1);
    }
    return d;
  }, [graph.links]);
  return (
    <ul role="list" className="visually-hidden" aria-label="Agents in the graph" data-testid="graph-agents">
      {graph.nodes.map((n) => (
        <li key={n.id}>
          <a href={`/agents/${n.id}`} data-agent={n.id} data-links={degree.get(n.id) ?? 0}>
            {name(n.id)}
          </a>{' '}
          {n.online ? 'online' : 'offline'}, {degree.get(n.id) ?? 0} conversation links
        </li>
      ))}
    </ul>
  );
});

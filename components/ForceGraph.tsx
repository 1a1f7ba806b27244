'use client';
/**
 * Live force-directed graph of agents (d3-force). Nodes are agents (SVG circles carrying
 * `data-agent`), an edge joins two agents that exchanged bilateral envelopes (a conversation
 * pair), thicker with more messages.
 * Data comes in as props; positions survive updates, so the layout moves, never jumps.
 * `pulses` maps a pair key (components/pair.ts) to a counter; a change flashes that edge.
 */
import { useEffect, useRef } from 'react';
import {
  drag,
  forceCenter,
  forceCollide,
  forceLink,
  forceManyBody,
  forceSimulation,
  forceX,
  forceY,
  select,
  type Simulation,
  type SimulationLinkDatum,
  type SimulationNodeDatum,
} from 'd3';
import type { GraphView } from '../lib/wire';
import { shortHex } from './format';
import { pairKey } from './pair';

interface Node extends SimulationNodeDatum {
  id: string;
  online: boolean;
}
interface Link extends SimulationLinkDatum<Node> {
  key: string;
  messages: number;
}

export interface ForceGraphProps {
  graph: GraphView;
  pulses?: Record<string, number>;
  height?: number;
}

const WIDTH = 640;

export function ForceGraph({ graph, pulses = {}, height = 420 }: ForceGraphProps) {
  const svgRef = useRef<SVGSVGElement>(null);
  const simRef = useRef<Simulation<Node, Link> | null>(null);
  const nodesRef = useRef(new Map<string, Node>());
  const seenPulses = useRef<Record<string, number>>({});

  // One simulation for the component's life.
  useEffect(() => {
    const svg = select(svgRef.current!);
    svg.append('g').attr('class', 'fg-links');
    svg.append('g').attr('class', 'fg-nodes');
    const sim = forceSimulation<Node, Link>()
      .force('charge', forceManyBody<Node>().strength(-260))
      .force('center', forceCenter(WIDTH / 2, height / 2))
      .force('x', forceX<Node>(WIDTH / 2).strength(0.05))
      .force('y', forceY<Node>(height / 2).strength(0.07))
      .force('collide', forceCollide<Node>(22))
      .on('tick', () => {
        const r = 14;
        svg
          .select('.fg-links')
          .selectAll<SVGLineElement, Link>('line')
          .attr('x1', (d) => (d.source as Node).x ?? 0)
          .attr('y1', (d) => (d.source as Node).y ?? 0)
          .attr('x2', (d) => (d.target as Node).x ?? 0)
          .attr('y2', (d) => (d.target as Node).y ?? 0);
        svg
          .select('.fg-nodes')
          .selectAll<SVGGElement, Node>('g.fg-node')
          .attr('transform', (d) => {
            d.x = Math.max(r, Math.min(WIDTH - r, d.x ?? 0));
            d.y = Math.max(r, Math.min(height - r, d.y ?? 0));
            return `translate(${d.x},${d.y})`;
          });
      });
    simRef.current = sim;
    return () => {
      sim.stop();
      svg.selectAll('*').remove();
    };
  }, [height]);

  // Data join on every graph change; existing nodes keep their positions and velocities.
  useEffect(() => {
    const sim = simRef.current;
    const svgEl = svgRef.current;
    if (!sim || !svgEl) return;
    const svg = select(svgEl);
    const prev = nodesRef.current;
    const next = new Map<string, Node>();
    for (const n of graph.nodes) {
      const old = prev.get(n.id);
      next.set(
        n.id,
        old
          ? Object.assign(old, { online: n.online })
          : { id: n.id, online: n.online, x: WIDTH / 2 + (Math.random() - 0.5) * 80, y: height / 2 + (Math.random() - 0.5) * 80 },
      );
    }
    nodesRef.current = next;
    const nodes = [...next.values()];
    const links: Link[] = graph.links
      .filter((l) => next.has(l.source) && next.has(l.target) && l.source !== l.target)
      .map((l) => ({ key: pairKey(l.source, l.target), source: l.source, target: l.target, messages: l.messages }));

    svg
      .select('.fg-links')
      .selectAll<SVGLineElement, Link>('line')
      .data(links, (d) => d.key)
      .join('line')
      .attr('data-pair', (d) => d.key)
      .attr('stroke-width', (d) => Math.min(1 + Math.log2(1 + d.messages) * 0.9, 8));

    const nodeSel = svg
      .select('.fg-nodes')
      .selectAll<SVGGElement, Node>('g.fg-node')
      .data(nodes, (d) => d.id)
      .join((enter) => {
        const g = enter.append('g').attr('class', 'fg-node');
        const a = g.append('a').attr('href', (d) => `/agents/${d.id}`);
        a.append('circle').attr('r', 12);
        a.append('text').attr('dy', 28).attr('text-anchor', 'middle');
        a.append('title');
        return g;
      });
    nodeSel.classed('offline', (d) => !d.online);
    nodeSel.select('circle').attr('data-agent', (d) => d.id);
    nodeSel.select('text').text((d) => shortHex(d.id, 6, 0));
    nodeSel.select('title').text((d) => `${d.id}${d.online ? '' : ' (offline)'}`);
    nodeSel.call(
      drag<SVGGElement, Node>()
        .on('start', (event, d) => {
          if (!event.active) sim.alphaTarget(0.3).restart();
          d.fx = d.x;
          d.fy = d.y;
        })
        .on('drag', (event, d) => {
          d.fx = event.x;
          d.fy = event.y;
        })
        .on('end', (event, d) => {
          if (!event.active) sim.alphaTarget(0);
          d.fx = null;
          d.fy = null;
        }),
    );

    sim.nodes(nodes);
    sim.force(
      'link',
      forceLink<Node, Link>(links)
        .id((d) => d.id)
        .distance(150)
        .strength(0.4),
    );
    sim.alpha(Math.max(sim.alpha(), 0.3)).restart();
  }, [graph, height]);

  // Flash edges whose pulse counter moved.
  useEffect(() => {
    const svgEl = svgRef.current;
    if (!svgEl) return;
    const changed = Object.keys(pulses).filter((k) => pulses[k] !== seenPulses.current[k]);
    seenPulses.current = { ...pulses };
    for (const key of changed) {
      const line = svgEl.querySelector<SVGLineElement>(`line[data-pair="${CSS.escape(key)}"]`);
      if (!line) continue;
      line.classList.remove('pulse');
      void line.getBBox(); // restart the CSS animation
      line.classList.add('pulse');
    }
  }, [pulses]);

  return (
    <svg
      ref={svgRef}
      className="force-graph"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-label={`Agent graph: ${graph.nodes.length} agents, ${graph.links.length} conversation links`}
      data-nodes={graph.nodes.length}
    />
  );
}

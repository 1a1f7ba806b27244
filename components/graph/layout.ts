/**
 * The graph's force layout (d3-force), as run in a Web Worker by layout.worker.ts: at mesh scale
 * a tick (Barnes–Hut charge over thousands of agents, tens of thousands of links) takes longer
 * than a frame, so it must not share the main thread with painting, zooming and input.
 *
 * The main thread sends the graph as agent ids, start positions and link index pairs; the layout
 * keeps each agent's position and velocity by id across updates, ticks at most once per
 * {@link TICK_MS} while warm, and posts every tick's positions back (a transferred array).
 * Plain functions over a `post` callback, so the same code runs in a test without a worker.
 */
import { forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY, type SimulationNodeDatum } from 'd3';
import type { forceParams } from './model';

export type ForceParams = ReturnType<typeof forceParams>;

export type ToLayout =
  | {
      type: 'graph';
      version: number;
      ids: string[];
      /** Start positions for agents the layout does not know yet; NaN: let d3 place them. */
      x: Float64Array;
      y: Float64Array;
      /** Link endpoints as index pairs into `ids`. */
      links: Uint32Array;
      params: ForceParams;
      /** Heat the layout to at least this alpha (0: a repaint-only change). */
      heat: number;
    }
  | { type: 'pin'; id: string; x: number; y: number }
  | { type: 'unpin'; id: string }
  | { type: 'stop' };

export interface Positions {
  type: 'positions';
  version: number;
  /** x0, y0, x1, y1, … in the order of the last graph's ids. */
  xy: Float64Array;
  running: boolean;
}

/** Pace of the layout: about one tick per display frame, as d3's own timer would. */
export const TICK_MS = 16;

interface LNode extends SimulationNodeDatum {
  id: string;
}

export function createLayout(
  post: (msg: Positions, transfer: Transferable[]) => void,
  schedule: (fn: () => void, ms: number) => unknown = setTimeout,
) {
  const sim = forceSimulation<LNode>().stop();
  let nodes: LNode[] = [];
  let byId = new Map<string, LNode>();
  let version = 0;
  let loop = false;
  let stopped = false;

  const send = (running: boolean) => {
    const xy = new Float64Array(nodes.length * 2);
    nodes.forEach((n, i) => {
      xy[2 * i] = n.x!;
      xy[2 * i + 1] = n.y!;
    });
    post({ type: 'positions', version, xy, running }, [xy.buffer]);
  };

  const step = () => {
    loop = false;
    if (stopped) return;
    if (sim.alpha() < sim.alphaMin() && sim.alphaTarget() === 0) return send(false);
    const started = performance.now();
    sim.tick();
    send(true);
    loop = true;
    schedule(step, Math.max(0, TICK_MS - (performance.now() - started)));
  };
  const start = () => {
    if (!loop && !stopped) {
      loop = true;
      schedule(step, 0);
    }
  };

  return function handle(msg: ToLayout): void {
    switch (msg.type) {
      case 'graph': {
        version = msg.version;
        const next = new Map<string, LNode>();
        nodes = msg.ids.map((id, i) => {
          const known = byId.get(id);
          if (known) return (next.set(id, known), known);
          const n: LNode = { id };
          if (Number.isFinite(msg.x[i]) && Number.isFinite(msg.y[i])) {
            n.x = msg.x[i];
            n.y = msg.y[i];
          }
          next.set(id, n);
          return n;
        });
        byId = next;
        const links = [];
        for (let i = 0; i + 1 < msg.links.length; i += 2)
          links.push({ source: msg.links[i], target: msg.links[i + 1] });
        const p = msg.params;
        sim
          .nodes(nodes)
          .force('charge', forceManyBody<LNode>().strength(p.charge).theta(p.theta))
          .force('link', forceLink<LNode, { source: number; target: number }>(links).distance(p.linkDistance))
          .force('x', forceX<LNode>(0).strength(p.gravity))
          .force('y', forceY<LNode>(0).strength(p.gravity * 1.6))
          .force('collide', forceCollide<LNode>(p.collide));
        if (msg.heat > 0) sim.alpha(Math.max(sim.alpha(), msg.heat));
        send(sim.alpha() >= sim.alphaMin());
        start();
        return;
      }
      case 'pin': {
        const n = byId.get(msg.id);
        if (!n) return;
        n.fx = msg.x;
        n.fy = msg.y;
        sim.alphaTarget(0.3);
        start();
        return;
      }
      case 'unpin': {
        const n = byId.get(msg.id);
        if (n) n.fx = n.fy = null;
        sim.alphaTarget(0);
        return;
      }
      case 'stop':
        stopped = true;
        sim.stop();
    }
  };
}

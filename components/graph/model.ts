/**
 * The agent graph's pure parts (no DOM, no clock): nodes and links merged from a GraphView with
 * positions kept, force parameters by graph size, edge widths, hit-testing over a quadtree,
 * agent search, and the zoom transforms that fit the graph or focus one agent.
 * World coordinates are centred on (0, 0); a transform {k, x, y} maps world to screen as
 * `screen = world * k + (x, y)`, as d3-zoom's does.
 */
import { type Quadtree, quadtree, type SimulationLinkDatum, type SimulationNodeDatum } from 'd3';
import type { GraphView } from '../../lib/wire';
import { base58 } from '../format';
import { pairKey } from '../pair';

export interface GraphNode extends SimulationNodeDatum {
  id: string;
  /** The id as the rest of the app shows it. */
  b58: string;
  online: boolean;
  /** How many links touch this agent. */
  degree: number;
}

export interface GraphLink extends SimulationLinkDatum<GraphNode> {
  key: string;
  source: GraphNode;
  target: GraphNode;
  messages: number;
}

export interface Transform {
  k: number;
  x: number;
  y: number;
}

/** Node radius in world units; the zoom scales it. */
export const NODE_RADIUS = 12;
export const MIN_ZOOM = 0.02;
export const MAX_ZOOM = 8;
/** The scale a fit never exceeds (a three-agent mesh stays at a natural size) and a focus reaches. */
export const FIT_MAX_ZOOM = 1.5;
export const FOCUS_ZOOM = 1.6;

/** Edge stroke width in world units: thicker with more messages, capped. */
export function linkWidth(messages: number): number {
  return Math.min(1 + Math.log2(1 + Math.max(0, messages)) * 0.9, 8);
}

/**
 * Forces by graph size: a few agents spread wide as before; thousands with a mean degree of
 * tens pull in (shorter links, weaker charge), else the layout would span tens of screens.
 */
export function forceParams(nodes: number, links: number) {
  const meanDegree = nodes > 0 ? (2 * links) / nodes : 0;
  const dense = Math.max(1, Math.sqrt(meanDegree / 2));
  return {
    charge: -260 / dense,
    linkDistance: Math.max(40, 150 / dense),
    collide: NODE_RADIUS + 10,
    /** Barnes–Hut accuracy: coarser for big graphs, where the exact figure is invisible anyway. */
    theta: nodes > 500 ? 1.2 : 0.9,
    gravity: nodes > 500 ? 0.02 : 0.06,
  };
}

/**
 * Merges a GraphView into the previous nodes: a known agent keeps its object (position and
 * velocity), a new one starts next to a linked known agent, or at the centre when it has none
 * (unplaced nodes of a first load get d3's phyllotaxis start). Self-links and links to unknown
 * agents are dropped.
 */
export function mergeGraph(prev: ReadonlyMap<string, GraphNode>, graph: GraphView, random: () => number = Math.random) {
  const byId = new Map<string, GraphNode>();
  for (const n of graph.nodes) {
    const old = prev.get(n.id);
    if (old) {
      old.online = n.online;
      old.degree = 0;
      byId.set(n.id, old);
    } else {
      byId.set(n.id, { id: n.id, b58: base58(n.id), online: n.online, degree: 0 });
    }
  }
  const links: GraphLink[] = [];
  const seen = new Set<string>();
  for (const l of graph.links) {
    const s = byId.get(l.source);
    const t = byId.get(l.target);
    if (!s || !t || s === t) continue;
    const key = pairKey(l.source, l.target);
    if (seen.has(key)) continue;
    seen.add(key);
    s.degree++;
    t.degree++;
    links.push({ key, source: s, target: t, messages: l.messages });
  }
  if (prev.size > 0) {
    for (const l of links) {
      for (const [a, b] of [
        [l.source, l.target],
        [l.target, l.source],
      ]) {
        if (a.x === undefined && b.x !== undefined) {
          a.x = b.x + (random() - 0.5) * 60;
          a.y = (b.y ?? 0) + (random() - 0.5) * 60;
        }
      }
    }
    for (const n of byId.values()) {
      if (n.x === undefined) {
        n.x = (random() - 0.5) * 80;
        n.y = (random() - 0.5) * 80;
      }
    }
  }
  return { byId, nodes: [...byId.values()], links };
}

/**
 * Whether two graph views have the same agents and the same links in the same order (message
 * counts aside; online flags too when `online`). A replay hands the graph a new view ten times a
 * second in which usually only counts moved: telling that apart in one pass over the arrays
 * spares a merge of every node and link and a new layout.
 */
export function sameShape(a: GraphView, b: GraphView, online = false): boolean {
  if (a === b) return true;
  if (a.nodes.length !== b.nodes.length || a.links.length !== b.links.length) return false;
  for (let i = 0; i < a.nodes.length; i++) {
    const x = a.nodes[i],
      y = b.nodes[i];
    if (x.id !== y.id || (online && x.online !== y.online)) return false;
  }
  for (let i = 0; i < a.links.length; i++) {
    const x = a.links[i],
      y = b.links[i];
    if (x.source !== y.source || x.target !== y.target) return false;
  }
  return true;
}

/** Screen point → world point under transform `t`. */
export function invert(t: Transform, px: number, py: number): [number, number] {
  return [(px - t.x) / t.k, (py - t.y) / t.k];
}

/** A quadtree of the nodes' current positions, for hit-testing. */
export function nodeIndex(nodes: readonly GraphNode[]): Quadtree<GraphNode> {
  return quadtree<GraphNode>()
    .x((d) => d.x ?? 0)
    .y((d) => d.y ?? 0)
    .addAll(nodes as GraphNode[]);
}

/**
 * The node under screen point (px, py): the nearest centre within its radius plus `slopPx`
 * screen pixels (small nodes at a far zoom stay clickable), else undefined.
 */
export function hitTest(
  index: Quadtree<GraphNode>,
  t: Transform,
  px: number,
  py: number,
  slopPx = 4,
): GraphNode | undefined {
  const [wx, wy] = invert(t, px, py);
  return index.find(wx, wy, NODE_RADIUS + slopPx / t.k);
}

/**
 * Agents matching a search: exact id (hex or base58) first, then base58 prefixes, hex prefixes,
 * then base58 substrings; `limit` results. Base58 is case-sensitive, hex is not.
 */
export function findAgents(nodes: readonly GraphNode[], query: string, limit = 8): GraphNode[] {
  const q = query.trim();
  if (!q) return [];
  const hex = q.toLowerCase();
  const isHex = /^[0-9a-f]+$/.test(hex);
  const rank = (n: GraphNode): number => {
    if (n.b58 === q || n.id === hex) return 0;
    if (n.b58.startsWith(q)) return 1;
    if (isHex && n.id.startsWith(hex)) return 2;
    if (q.length >= 3 && n.b58.includes(q)) return 3;
    return -1;
  };
  return nodes
    .map((n) => [rank(n), n] as const)
    .filter(([r]) => r >= 0)
    .sort((a, b) => a[0] - b[0] || a[1].b58.localeCompare(b[1].b58))
    .slice(0, limit)
    .map(([, n]) => n);
}

/** The transform that puts world point (wx, wy) at the centre of a width×height view at scale k. */
export function focusTransform(wx: number, wy: number, width: number, height: number, k = FOCUS_ZOOM): Transform {
  const kk = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));
  return { k: kk, x: width / 2 - wx * kk, y: height / 2 - wy * kk };
}

/** The transform that shows every node inside a width×height view with `pad` pixels around. */
export function fitTransform(nodes: readonly GraphNode[], width: number, height: number, pad = 24): Transform {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const n of nodes) {
    const x = n.x ?? NaN,
      y = n.y ?? NaN;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue; // not placed yet
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  if (x0 > x1) return { k: 1, x: width / 2, y: height / 2 };
  const r = NODE_RADIUS * 2;
  const w = x1 - x0 + 2 * r,
    h = y1 - y0 + 2 * r;
  const k = Math.max(MIN_ZOOM, Math.min(FIT_MAX_ZOOM, (width - 2 * pad) / w, (height - 2 * pad) / h));
  return focusTransform((x0 + x1) / 2, (y0 + y1) / 2, width, height, k);
}

/** Steps `from` toward `to` by `f` (0..1); scale moves geometrically so zooming feels even. */
export function approach(from: Transform, to: Transform, f: number): Transform {
  const k = from.k * (to.k / from.k) ** f;
  return { k, x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f };
}

/** The links touching node `id`. */
export function linksOf(links: readonly GraphLink[], id: string): GraphLink[] {
  return links.filter((l) => l.source.id === id || l.target.id === id);
}

/**
 * The agent graph's moving parts on one canvas: the force layout in a Web Worker
 * (layout.worker.ts), d3-zoom (pan, wheel and pinch zoom), d3-drag of a node, pointer
 * hit-testing over a quadtree, and one requestAnimationFrame loop that paints the latest
 * positions. The loop runs only while something moves (new positions, a pulse fading, a zoom
 * transition) and sleeps otherwise, so a settled graph costs nothing.
 *
 * The layout ticks in the worker at its own pace: a slow tick (thousands of agents) slows the
 * layout's motion, never panning, zooming or the pulses.
 */
import { drag, type Quadtree, type Selection, select, type ZoomBehavior, zoom, zoomIdentity } from 'd3';
import type { GraphView } from '../../lib/wire';
import { drawScene, readTheme, type Theme } from './draw';
import type { Positions, ToLayout } from './layout';
import {
  approach,
  fitTransform,
  focusTransform,
  forceParams,
  type GraphLink,
  type GraphNode,
  hitTest,
  invert,
  MAX_ZOOM,
  MIN_ZOOM,
  mergeGraph,
  nodeIndex,
  sameShape,
  type Transform,
} from './model';

export interface EngineEvents {
  /** The pointer entered a node (its screen position) or left all nodes. */
  onHover(node: GraphNode | undefined, x: number, y: number): void;
  /** A click (not a drag or a pan) on a node. */
  onOpen(node: GraphNode): void;
}

const FOCUS_MS = 650;
/** Edges flashing at once, at most. */
export const PULSE_CAP = 400;

export class GraphEngine {
  nodes: GraphNode[] = [];
  links: GraphLink[] = [];
  private byId = new Map<string, GraphNode>();
  /** The last view merged, and where each of its links went in `links` (−1: dropped). */
  private view: GraphView | null = null;
  private linkOf: Int32Array = new Int32Array(0);
  private worker: Worker;
  private version = 0;
  /** The layout is still moving (the worker's last word). */
  private running = false;
  /** New positions arrived since the last frame. */
  private moved = false;
  private zoom: ZoomBehavior<HTMLCanvasElement, unknown>;
  private sel: Selection<HTMLCanvasElement, unknown, null, undefined>;
  private ctx: CanvasRenderingContext2D;
  private theme: Theme;
  private t: Transform = { k: 1, x: 0, y: 0 };
  private width = 0;
  private dpr = 1;
  private raf = 0;
  private pulses = new Map<string, number>();
  private hover: GraphNode | undefined;
  private highlight: GraphNode | undefined;
  /** Follow the layout with a fitting view until the user pans or zooms. */
  private autoFit = true;
  /** The first fit jumps; later ones glide after the moving layout. */
  private fitted = false;
  /** Keep the searched agent centred until the user pans or zooms. */
  private follow = false;
  private transitioning = false;
  private index: Quadtree<GraphNode> | undefined;
  private dragging = false;
  /** The hovered agent moved on screen since its tooltip was placed. */
  private tipMoved = false;

  constructor(
    private canvas: HTMLCanvasElement,
    private height: number,
    private events: EngineEvents,
  ) {
    this.ctx = canvas.getContext('2d')!;
    this.theme = readTheme(canvas);
    this.worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e: MessageEvent<Positions>) => this.positions(e.data);
    this.sel = select(canvas);
    this.zoom = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([MIN_ZOOM, MAX_ZOOM])
      .on('zoom', (e) => {
        if (e.sourceEvent) this.autoFit = this.follow = false;
        const { k, x, y } = e.transform;
        // A pan or zoom by the user moves the agent from under the pointer: drop the tooltip until
        // the pointer moves. A fit or a focus gliding along keeps it, next to its agent.
        if (this.hover && e.sourceEvent) this.setHover(undefined);
        else if (this.hover && (k !== this.t.k || x !== this.t.x || y !== this.t.y)) this.tipMoved = true;
        this.t = { k, x, y };
        this.invalidate();
      });
    // Drag is registered first: on a node it takes the gesture; elsewhere zoom pans.
    this.sel
      .call(
        drag<HTMLCanvasElement, unknown, { node: GraphNode; x: number; y: number } | undefined>()
          .container(canvas)
          .subject((e) => {
            const node = hitTest(this.nodeIndex(), this.t, e.x, e.y);
            return node && { node, x: node.x! * this.t.k + this.t.x, y: node.y! * this.t.k + this.t.y };
          })
          .on('start', (e) => {
            this.dragging = true;
            this.pin(e.subject.node, e.subject.node.x!, e.subject.node.y!);
          })
          .on('drag', (e) => {
            const [wx, wy] = invert(this.t, e.x, e.y);
            this.pin(e.subject.node, wx, wy);
          })
          .on('end', (e) => {
            this.dragging = false;
            e.subject.node.fx = e.subject.node.fy = null;
            this.send({ type: 'unpin', id: e.subject.node.id });
          }),
      )
      .call(this.zoom)
      .on('dblclick.zoom', null)
      .on('pointermove.hover', (e: PointerEvent) => this.pointer(e))
      .on('pointerleave.hover', () => this.setHover(undefined))
      .on('click.open', (e: MouseEvent) => {
        if (e.defaultPrevented) return;
        const node = hitTest(this.nodeIndex(), this.t, e.offsetX, e.offsetY);
        if (node) this.events.onOpen(node);
      });
  }

  setGraph(graph: GraphView): void {
    if (this.view && sameShape(this.view, graph)) {
      // Only counts or online flags moved: update in place and repaint; the layout is unchanged.
      this.view = graph;
      for (const n of graph.nodes) {
        const node = this.byId.get(n.id);
        if (node) node.online = n.online;
      }
      graph.links.forEach((l, i) => {
        const j = this.linkOf[i];
        if (j >= 0) this.links[j].messages = l.messages;
      });
      this.invalidate();
      return;
    }
    const before = { nodes: this.nodes.length, links: this.links.length };
    const first = this.nodes.length === 0;
    const { byId, nodes, links } = mergeGraph(this.byId, graph);
    const changed =
      first ||
      nodes.length !== before.nodes ||
      links.length !== before.links ||
      nodes.some((n) => !this.byId.has(n.id));
    this.byId = byId;
    this.nodes = nodes;
    this.links = links;
    this.view = graph;
    this.linkOf = linkPositions(graph, links);
    if (this.highlight && !byId.has(this.highlight.id)) this.highlight = undefined;
    if (this.hover && !byId.has(this.hover.id)) this.setHover(undefined);
    // A new agent or link moves the layout; a message count alone only repaints.
    const index = new Map(nodes.map((n, i) => [n.id, i]));
    const pairs = new Uint32Array(links.length * 2);
    links.forEach((l, i) => {
      pairs[2 * i] = index.get(l.source.id)!;
      pairs[2 * i + 1] = index.get(l.target.id)!;
    });
    this.send({
      type: 'graph',
      version: ++this.version,
      ids: nodes.map((n) => n.id),
      x: Float64Array.from(nodes, (n) => n.x ?? NaN),
      y: Float64Array.from(nodes, (n) => n.y ?? NaN),
      links: pairs,
      params: forceParams(nodes.length, links.length),
      heat: first ? 1 : changed ? 0.3 : 0,
    });
    this.index = undefined;
    this.canvas.dataset.links = String(links.length);
    this.invalidate();
  }

  /**
   * Flashes the edges with these pair keys. At most {@link PULSE_CAP} flash at once, the newest:
   * a replay at 100× pulses thousands of pairs a second, and stroking them all each frame costs
   * more than the frame while the eye tells no more from them than from a few hundred.
   */
  pulse(keys: Iterable<string>): void {
    const now = performance.now();
    for (const k of keys) {
      this.pulses.delete(k);
      this.pulses.set(k, now);
    }
    for (const k of this.pulses.keys()) {
      if (this.pulses.size <= PULSE_CAP) break;
      this.pulses.delete(k);
    }
    this.invalidate();
  }

  /** Centres and zooms on `node` and highlights it and its links; undefined clears. */
  focus(node: GraphNode | undefined): void {
    this.highlight = node;
    this.follow = false;
    if (!node) {
      this.invalidate();
      return;
    }
    this.autoFit = false;
    const to = focusTransform(node.x ?? 0, node.y ?? 0, this.width, this.height, Math.max(this.t.k, 1.6));
    this.transitioning = true;
    this.sel
      .transition()
      .duration(FOCUS_MS)
      .call(this.zoom.transform, zoomIdentity.translate(to.x, to.y).scale(to.k))
      .on('end interrupt', () => {
        this.transitioning = false;
        this.follow = this.highlight === node;
        this.invalidate();
      });
  }

  /** Back to a view that fits the whole graph and follows the layout. */
  fit(): void {
    this.autoFit = true;
    this.follow = false;
    this.invalidate();
  }

  resize(width: number, height: number): void {
    this.dpr = Math.min(2, window.devicePixelRatio || 1);
    this.width = width;
    this.height = height;
    this.canvas.width = Math.round(width * this.dpr);
    this.canvas.height = Math.round(height * this.dpr);
    this.canvas.style.height = `${height}px`;
    this.theme = readTheme(this.canvas);
    this.fitted = false;
    this.invalidate();
  }

  /** Re-reads the palette (the page switched between light and dark) and redraws. */
  retheme(): void {
    this.theme = readTheme(this.canvas);
    this.invalidate();
  }

  destroy(): void {
    cancelAnimationFrame(this.raf);
    this.send({ type: 'stop' });
    this.worker.terminate();
    this.sel.interrupt().on('.zoom', null).on('.drag', null).on('.hover', null).on('.open', null);
  }

  private invalidate(): void {
    if (!this.raf) this.raf = requestAnimationFrame((now) => this.frame(now));
  }

  private frame(now: number): void {
    this.raf = 0;
    let busy = this.transitioning;
    const moved = this.moved;
    this.moved = false;
    this.canvas.dataset.layout = this.running ? 'running' : 'settled';
    if (this.autoFit && this.width > 0) {
      const target = fitTransform(this.nodes, this.width, this.height);
      const next = this.fitted ? approach(this.t, target, 0.2) : target;
      this.fitted = this.nodes.length > 0;
      this.setTransform(next);
      if (Math.abs(next.k / target.k - 1) > 0.01 || Math.abs(next.x - target.x) > 1 || Math.abs(next.y - target.y) > 1)
        busy = true;
    } else if (this.follow && this.highlight && moved) {
      this.setTransform(focusTransform(this.highlight.x!, this.highlight.y!, this.width, this.height, this.t.k));
    }
    // The tooltip follows its agent while the layout or the view moves it.
    if ((moved || this.tipMoved) && this.hover)
      this.events.onHover(this.hover, this.hover.x! * this.t.k + this.t.x, this.hover.y! * this.t.k + this.t.y);
    this.tipMoved = false;
    const fading = drawScene(
      this.ctx,
      { nodes: this.nodes, links: this.links, pulses: this.pulses, highlight: this.highlight, hover: this.hover },
      this.t,
      this.width,
      this.height,
      this.dpr,
      this.theme,
      now,
    );
    if (!fading) this.pulses.clear();
    if (busy || fading) this.invalidate();
  }

  private send(msg: ToLayout): void {
    this.worker.postMessage(msg);
  }

  /** Positions from the layout, for the graph version they were computed for. */
  private positions(msg: Positions): void {
    if (msg.version !== this.version) return;
    const { xy } = msg;
    this.nodes.forEach((n, i) => {
      if (n.fx != null) return; // held by a drag: the pointer wins over a tick in flight
      n.x = xy[2 * i];
      n.y = xy[2 * i + 1];
    });
    this.running = msg.running;
    this.moved = true;
    this.index = undefined;
    this.invalidate();
  }

  private pin(node: GraphNode, x: number, y: number): void {
    node.fx = node.x = x;
    node.fy = node.y = y;
    this.index = undefined;
    this.send({ type: 'pin', id: node.id, x, y });
    this.invalidate();
  }

  /** Sets the zoom state without a user gesture (the zoom handler repaints). */
  private setTransform(t: Transform): void {
    this.zoom.transform(this.sel, zoomIdentity.translate(t.x, t.y).scale(t.k));
  }

  private nodeIndex(): Quadtree<GraphNode> {
    return (this.index ??= nodeIndex(this.nodes));
  }

  private pointer(e: PointerEvent): void {
    if (this.dragging || e.buttons) return;
    this.setHover(hitTest(this.nodeIndex(), this.t, e.offsetX, e.offsetY));
  }

  private setHover(node: GraphNode | undefined): void {
    if (node === this.hover) return;
    this.hover = node;
    this.canvas.style.cursor = node ? 'pointer' : '';
    const x = node ? node.x! * this.t.k + this.t.x : 0;
    const y = node ? node.y! * this.t.k + this.t.y : 0;
    this.events.onHover(node, x, y);
    this.invalidate();
  }
}

/** For each link of `graph`, its index in `links` (mergeGraph's output, same order), or −1. */
function linkPositions(graph: GraphView, links: readonly GraphLink[]): Int32Array {
  const at = new Int32Array(graph.links.length).fill(-1);
  let j = 0;
  graph.links.forEach((l, i) => {
    const m = links[j];
    if (m && m.source.id === l.source && m.target.id === l.target) at[i] = j++;
  });
  return at;
}

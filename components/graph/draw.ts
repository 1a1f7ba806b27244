/**
 * Paints the agent graph on a Canvas 2D context. Everything that repeats thousands of times is
 * batched into a few paths: links by width band (one stroke each), online and offline nodes (one
 * fill and one stroke each); only pulses, the highlight and labels are drawn one by one.
 */
import { shortHex } from '../format';
import { type GraphLink, type GraphNode, linkWidth, NODE_RADIUS, type Transform } from './model';

export interface Theme {
  bg: string;
  panel: string;
  text: string;
  muted: string;
  accent: string;
  accent2: string;
  link: string;
  mono: string;
}

/** The app's palette (app/globals.css), read from the canvas' CSS custom properties. */
export function readTheme(el: Element): Theme {
  const s = getComputedStyle(el);
  const v = (name: string, fallback: string) => s.getPropertyValue(name).trim() || fallback;
  return {
    bg: v('--bg', '#0d1117'),
    panel: v('--panel', '#151b23'),
    text: v('--text', '#e6edf3'),
    muted: v('--muted', '#8b98a8'),
    accent: v('--accent', '#4fb3ff'),
    accent2: v('--accent-2', '#7ee0c3'),
    link: v('--graph-link', '#3b4a5c'),
    mono: v('--mono', 'monospace'),
  };
}

export interface Scene {
  nodes: readonly GraphNode[];
  links: readonly GraphLink[];
  /** Pair key → performance.now() of its last pulse. */
  pulses: ReadonlyMap<string, number>;
  /** The hovered or searched agent: it, its links and its neighbours are drawn on top. */
  highlight: GraphNode | undefined;
  hover: GraphNode | undefined;
}

export const PULSE_MS = 1200;
/** Labels appear once a node is this many pixels wide on screen, at most this many per frame. */
const LABEL_MIN_PX = 14;
const LABEL_MAX = 250;
/** Above this many links in view, links are hairlines. */
const DENSE_LINKS = 1500;
const PULSE_STEPS = 6;
/** Width bands links are batched by. */
const BANDS = [1, 1.5, 2, 3, 4, 5.5, 8];

function band(w: number): number {
  let i = 0;
  while (i < BANDS.length - 1 && BANDS[i] < w) i++;
  return i;
}

/** Mixes two #rrggbb colours; t = 0 gives a. */
export function mix(a: string, b: string, t: number): string {
  const p = (c: string, i: number) => parseInt(c.slice(1 + 2 * i, 3 + 2 * i), 16);
  if (!/^#[0-9a-f]{6}$/i.test(a) || !/^#[0-9a-f]{6}$/i.test(b)) return t < 0.5 ? a : b;
  const ch = (i: number) =>
    Math.round(p(a, i) + (p(b, i) - p(a, i)) * t)
      .toString(16)
      .padStart(2, '0');
  return `#${ch(0)}${ch(1)}${ch(2)}`;
}

/**
 * Draws one frame. `width`/`height` are CSS pixels, `dpr` the backing-store ratio, `now` the
 * frame time (for pulse fades). Returns whether a pulse is still fading (the caller keeps
 * animating).
 */
export function drawScene(
  ctx: CanvasRenderingContext2D,
  scene: Scene,
  t: Transform,
  width: number,
  height: number,
  dpr: number,
  theme: Theme,
  now: number,
): boolean {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.setTransform(dpr * t.k, 0, 0, dpr * t.k, dpr * t.x, dpr * t.y);
  // The visible world rectangle, padded by a node: off-screen nodes and labels are skipped.
  const pad = NODE_RADIUS * 2;
  const vx0 = -t.x / t.k - pad,
    vy0 = -t.y / t.k - pad;
  const vx1 = (width - t.x) / t.k + pad,
    vy1 = (height - t.y) / t.k + pad;
  const visible = (n: GraphNode) => n.x! >= vx0 && n.x! <= vx1 && n.y! >= vy0 && n.y! <= vy1;

  // Links, skipping those wholly off one side of the view. Where many are in view they are drawn
  // at most a screen pixel wide: a canvas strokes such hairlines with their width as coverage
  // (so thickness still reads as weight), at a fraction of the cost of rasterising thousands of
  // wide strokes, which is what holds the frame rate at tens of thousands of links.
  const hl = scene.highlight;
  const ex0 = vx0 + pad,
    ey0 = vy0 + pad,
    ex1 = vx1 - pad,
    ey1 = vy1 - pad;
  const offView = (a: GraphNode, b: GraphNode) =>
    (a.x! < ex0 && b.x! < ex0) ||
    (a.x! > ex1 && b.x! > ex1) ||
    (a.y! < ey0 && b.y! < ey0) ||
    (a.y! > ey1 && b.y! > ey1);
  const paths = BANDS.map(() => new Path2D());
  let inView = 0;
  for (const l of scene.links) {
    if (offView(l.source, l.target)) continue;
    inView++;
    const p = paths[band(linkWidth(l.messages))];
    p.moveTo(l.source.x!, l.source.y!);
    p.lineTo(l.target.x!, l.target.y!);
  }
  const dense = inView > DENSE_LINKS;
  const hair = 0.95 / t.k;
  const minW = 0.5 / t.k;
  // Zoomed in, a heavy link stays under 4 screen pixels, so it does not bury the agents.
  const strokeWidth = (w: number) => (dense ? Math.min(w, hair) : Math.min(Math.max(minW, w), 4 / t.k));
  ctx.lineCap = 'round';
  ctx.strokeStyle = theme.link;
  ctx.globalAlpha = hl ? 0.4 : dense ? 0.8 : 1;
  BANDS.forEach((w, i) => {
    ctx.lineWidth = strokeWidth(w);
    ctx.stroke(paths[i]);
  });

  // Pulses: the edge flashes accent-2 and fades back over PULSE_MS, batched by age step.
  let fading = false;
  if (scene.pulses.size > 0) {
    const steps = Array.from({ length: PULSE_STEPS }, () => new Path2D());
    let maxW = 0;
    for (const l of scene.links) {
      const at = scene.pulses.get(l.key);
      if (at === undefined) continue;
      const age = (now - at) / PULSE_MS;
      if (age >= 1 || age < 0) continue;
      fading = true;
      maxW = Math.max(maxW, linkWidth(l.messages));
      const p = steps[Math.floor(age * PULSE_STEPS)];
      p.moveTo(l.source.x!, l.source.y!);
      p.lineTo(l.target.x!, l.target.y!);
    }
    ctx.strokeStyle = theme.accent2;
    ctx.lineWidth = Math.max(1.5 / t.k, Math.min(maxW + 1.5, 3 / t.k));
    steps.forEach((p, i) => {
      ctx.globalAlpha = 1 - i / PULSE_STEPS;
      ctx.stroke(p);
    });
  }
  ctx.globalAlpha = 1;

  // The highlighted agent's links and neighbours.
  const near = new Set<GraphNode>();
  if (hl) {
    ctx.strokeStyle = theme.accent2;
    ctx.beginPath();
    for (const l of scene.links) {
      if (l.source !== hl && l.target !== hl) continue;
      near.add(l.source === hl ? l.target : l.source);
      ctx.moveTo(l.source.x!, l.source.y!);
      ctx.lineTo(l.target.x!, l.target.y!);
    }
    ctx.lineWidth = Math.max(1.5 / t.k, 2);
    ctx.stroke();
  }

  // Nodes: online filled with the accent, offline hollow and dashed (as the SVG graph was).
  const r = NODE_RADIUS;
  const on = new Path2D(),
    off = new Path2D();
  for (const n of scene.nodes) {
    if (!visible(n)) continue;
    const p = n.online ? on : off;
    p.moveTo(n.x! + r, n.y!);
    p.arc(n.x!, n.y!, r, 0, 2 * Math.PI);
  }
  const ring = Math.max(2, 1 / t.k);
  ctx.lineWidth = ring;
  ctx.fillStyle = theme.accent;
  ctx.strokeStyle = theme.bg;
  ctx.fill(on);
  if (t.k * r >= 4) ctx.stroke(on);
  ctx.fillStyle = theme.panel;
  ctx.strokeStyle = theme.muted;
  ctx.setLineDash(t.k * r >= 4 ? [3, 2] : []);
  ctx.fill(off);
  ctx.stroke(off);
  ctx.setLineDash([]);

  for (const n of [...near, hl, scene.hover]) {
    if (!n) continue;
    ctx.beginPath();
    ctx.arc(n.x!, n.y!, n === hl ? r + 4 / t.k + 2 : r, 0, 2 * Math.PI);
    ctx.fillStyle = n === hl || n === scene.hover ? theme.accent2 : n.online ? theme.accent : theme.panel;
    ctx.fill();
    ctx.lineWidth = Math.max(2, 2 / t.k);
    ctx.strokeStyle = n === hl ? theme.text : theme.accent2;
    ctx.stroke();
  }

  // Labels in screen space (constant size), only where nodes are big enough to be told apart.
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = `10px ${theme.mono}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  ctx.fillStyle = theme.muted;
  const label = (n: GraphNode, color: string) => {
    ctx.fillStyle = color;
    ctx.fillText(shortHex(n.b58, 6, 0), n.x! * t.k + t.x, n.y! * t.k + t.y + r * t.k + 4);
  };
  if (t.k * r * 2 >= LABEL_MIN_PX) {
    let shown = 0;
    for (const n of scene.nodes) {
      if (shown >= LABEL_MAX) break;
      if (n === hl || n === scene.hover || !visible(n)) continue;
      label(n, theme.muted);
      shown++;
    }
  }
  for (const n of [hl, scene.hover]) if (n) label(n, theme.text);
  return fading;
}

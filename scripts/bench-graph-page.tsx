/**
 * The browser side of `npm run bench:graph`: the real overview graph component
 * (components/graph/ForceGraph.tsx) fed a synthetic mesh of AGENTS agents in communities and
 * LINKS conversation links, bundled by scripts/bench-graph.ts. The page's `__bench` object is
 * the driver's remote control: frame-rate probes, pulse bursts, a reheat of the layout.
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ForceGraph } from '../components/graph/ForceGraph';
import { initialState, type OverviewState } from '../components/live-state';
import { pairKey } from '../components/pair';
import { applyReplayBatch } from '../components/replay/apply';
import {
  eventMs,
  REPLAY_MAX_PAGES,
  REPLAY_PAGE_SIZE,
  type ReplayFetch,
  ReplayPlayer,
  type ReplaySpeed,
} from '../components/replay/player';
import type { GraphView } from '../lib/wire';
import type { ReplayEvent } from '../lib/wire/replay';

const params = new URLSearchParams(location.search);
const AGENTS = Number(params.get('agents') ?? 2000);
const LINKS = Number(params.get('links') ?? 20000);
const COMMUNITY = 100;

/** mulberry32: a seeded generator, so every run lays out the same mesh. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function synthetic(agents: number, links: number, random: () => number): GraphView {
  const hex = () =>
    Array.from({ length: 32 }, () =>
      Math.floor(random() * 256)
        .toString(16)
        .padStart(2, '0'),
    ).join('');
  const nodes = Array.from({ length: agents }, () => ({ id: hex(), online: random() < 0.8 }));
  const seen = new Set<string>();
  const out: GraphView['links'] = [];
  const max = (agents * (agents - 1)) / 2;
  while (out.length < Math.min(links, max)) {
    // Most conversations stay inside a community of COMMUNITY agents; some cross.
    const a = Math.floor(random() * agents);
    const base = a - (a % COMMUNITY);
    const b =
      random() < 0.85 ? Math.min(agents - 1, base + Math.floor(random() * COMMUNITY)) : Math.floor(random() * agents);
    if (a === b) continue;
    const key = pairKey(nodes[a].id, nodes[b].id);
    if (seen.has(key)) continue;
    seen.add(key);
    // Message counts are skewed: most pairs exchange a handful, a few hundreds.
    out.push({ source: nodes[a].id, target: nodes[b].id, messages: Math.max(1, Math.floor(random() ** 4 * 400)) });
  }
  return { nodes, links: out };
}

export interface Probe {
  fps: number;
  frames: number;
  seconds: number;
  p50: number;
  p95: number;
  worst: number;
  /** Display refreshes (16.7 ms at 60 Hz) that passed without a new frame. */
  dropped: number;
}

/** What a replay phase measured besides frames. */
export interface ReplayProbe {
  speed: number;
  /** Envelopes per second of envelope time in the synthetic window. */
  rate: number;
  emitted: number;
  /** Envelopes due by the wall clock over the run (speed × rate × seconds). */
  due: number;
  inOrder: boolean;
  stalledMs: number;
  peakBuffered: number;
  cap: number;
  fetches: number;
  /** Wall ms per tick spent applying the batch to the state (p50, worst). */
  applyP50: number;
  applyWorst: number;
  seconds: number;
}

/** Frames per second over `ms`, counted with requestAnimationFrame, with frame-time percentiles. */
function measure(ms: number): Promise<Probe> {
  return new Promise((resolve) => {
    const times: number[] = [];
    let first = 0;
    const step = (now: number) => {
      if (!first) first = now;
      times.push(now);
      if (now - first < ms) requestAnimationFrame(step);
      else {
        const gaps = times
          .slice(1)
          .map((t, i) => t - times[i])
          .sort((a, b) => a - b);
        const q = (p: number) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))] ?? 0;
        const seconds = (now - first) / 1000;
        const dropped = gaps.reduce((n, g) => n + Math.max(0, Math.round(g / (1000 / 60)) - 1), 0);
        resolve({
          fps: gaps.length / seconds,
          frames: gaps.length,
          seconds,
          p50: q(0.5),
          p95: q(0.95),
          worst: gaps[gaps.length - 1] ?? 0,
          dropped,
        });
      }
    };
    requestAnimationFrame(step);
  });
}

const random = rng(0x01);
const initial = synthetic(AGENTS, LINKS, random);
let setPulses: (p: Record<string, number>) => void = () => undefined;
let setGraph: (g: GraphView) => void = () => undefined;
let pulseTimer: ReturnType<typeof setInterval> | undefined;

function Bench() {
  const [graph, sg] = useState(initial);
  const [pulses, sp] = useState<Record<string, number>>({});
  useEffect(() => {
    setGraph = sg;
    setPulses = sp;
  }, []);
  return (
    // The overview's graph card: the wide column of a 1,320-pixel page, the default height.
    <main style={{ maxWidth: 840, margin: '24px auto' }}>
      <section className="card graph-card">
        <h2>Agents and conversations</h2>
        <ForceGraph graph={graph} pulses={pulses} onOpen={(id) => (document.title = `open ${id}`)} />
      </section>
    </main>
  );
}

const counters: Record<string, number> = {};

/**
 * A replay into the graph as the overview runs one: the real ReplayPlayer over a synthetic window
 * of `rate` envelopes/s between the mesh's linked agents, pages of the overview's size (REPLAY_PAGE_SIZE,
 * REPLAY_MAX_PAGES at most) answered after 5 ms as a server would, ticked every 100 ms, each tick's envelopes applied
 * with applyReplayBatch and handed to the graph. Runs until stopReplay; the ids count up, so the order of what the
 * player hands out is checked as it goes.
 */
let replayRun: { stop: () => ReplayProbe } | null = null;
function startReplay(speed: ReplaySpeed, rate: number): void {
  const T0 = 1_800_000_000_000;
  const env = (i: number): ReplayEvent => {
    const l = initial.links[(i * 7919) % initial.links.length];
    const ts = T0 * 1000 + Math.floor((i * 1_000_000) / rate);
    const data = {
      id: i.toString(16).padStart(64, '0'),
      msgType: 3,
      type: 'PROPOSE',
      sender: l.source,
      recipient: l.target,
      conversationId: (i % 5000).toString(16).padStart(32, '0'),
      nonce: String(i),
      timestamp: String(ts),
      blockRef: '0',
      payloadLen: 64,
      source: 'stream' as const,
      topic: null,
      receivedAt: Math.floor(ts / 1000) + 30,
    };
    return { type: 'message', at: data.receivedAt, data };
  };
  const total = rate * 3600;
  const fetchPage: ReplayFetch = (after, limit) =>
    new Promise((resolve) =>
      setTimeout(() => {
        const start = after === null ? 0 : parseInt(after.split(':')[1], 16) + 1;
        const events = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, k) => env(start + k));
        const last = events.at(-1);
        resolve({ events, next: events.length === limit && last ? `${last.data.timestamp}:${last.data.id}` : null });
      }, 5),
    );
  const t0 = performance.now();
  const player = new ReplayPlayer({
    fromMs: T0,
    toMs: T0 + 3_600_000,
    fetchPage,
    pageSize: REPLAY_PAGE_SIZE,
    maxPages: REPLAY_MAX_PAGES,
    speed,
    now: t0,
  });
  let state: OverviewState = initialState({
    stats: { byType: {}, drops: {} },
    envelopes: [],
    agents: [],
    graph: initial,
    mesh: null,
    database: null,
  });
  let next = 0;
  let inOrder = true;
  const applyMs: number[] = [];
  const timer = setInterval(() => {
    const events = player.tick(performance.now());
    for (const e of events) {
      if (parseInt(e.data.id.slice(-12), 16) !== next++ || eventMs(e) > player.position) inOrder = false;
    }
    if (!events.length) return;
    const a = performance.now();
    state = applyReplayBatch(state, events);
    applyMs.push(performance.now() - a);
    setGraph(state.graph);
    setPulses(state.pulses);
  }, 100);
  replayRun = {
    stop() {
      clearInterval(timer);
      const seconds = (performance.now() - t0) / 1000;
      applyMs.sort((x, y) => x - y);
      return {
        speed,
        rate,
        emitted: player.emitted,
        due: Math.floor(speed * rate * seconds),
        inOrder,
        stalledMs: player.stalledMs,
        peakBuffered: player.peakBuffered,
        cap: player.cap,
        fetches: player.fetches,
        applyP50: applyMs[Math.floor(applyMs.length / 2)] ?? 0,
        applyWorst: applyMs.at(-1) ?? 0,
        seconds,
      };
    },
  };
}
Object.assign(window, {
  __bench: {
    agents: initial.nodes.map((n) => n.id),
    measure,
    /** Flashes `perTick` random links every `everyMs`, through the component's `pulses` prop. */
    startPulses(perTick: number, everyMs: number) {
      pulseTimer = setInterval(() => {
        for (let i = 0; i < perTick; i++) {
          const l = initial.links[Math.floor(random() * initial.links.length)];
          const k = pairKey(l.source, l.target);
          counters[k] = (counters[k] ?? 0) + 1;
        }
        setPulses({ ...counters });
      }, everyMs);
    },
    stopPulses: () => clearInterval(pulseTimer),
    startReplay,
    stopReplay: () => replayRun?.stop(),
    /** A new agent joins with one link: the layout heats up again, as on the live overview. */
    reheat() {
      const id =
        'ff'.repeat(31) +
        Math.floor(random() * 256)
          .toString(16)
          .padStart(2, '0');
      setGraph({
        nodes: [...initial.nodes, { id, online: true }],
        links: [...initial.links, { source: id, target: initial.nodes[0].id, messages: 1 }],
      });
    },
  },
});

createRoot(document.getElementById('root')!).render(<Bench />);

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { base58 } from '../format';
import { pairKey } from '../pair';
import {
  approach,
  FIT_MAX_ZOOM,
  findAgents,
  fitTransform,
  focusTransform,
  type GraphNode,
  hitTest,
  invert,
  linkWidth,
  MAX_ZOOM,
  mergeGraph,
  NODE_RADIUS,
  nodeIndex,
  sameShape,
  type Transform,
} from './model';

const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);
const C = 'cc'.repeat(32);
const D = '0d'.repeat(32);
const screen = (t: Transform, n: GraphNode): [number, number] => [n.x! * t.k + t.x, n.y! * t.k + t.y];
const placed = (id: string, x: number, y: number): GraphNode => ({
  id,
  b58: base58(id),
  online: true,
  degree: 0,
  x,
  y,
});

describe('mergeGraph', () => {
  test('keeps known agents (object, position, velocity) and counts links once per pair', () => {
    const first = mergeGraph(new Map(), {
      nodes: [
        { id: A, online: true },
        { id: B, online: true },
      ],
      links: [{ source: A, target: B, messages: 3 }],
    });
    assert.equal(first.nodes[0].x, undefined, 'a first load leaves placement to d3');
    Object.assign(first.byId.get(A)!, { x: 10, y: 20, vx: 1, vy: 2 });
    Object.assign(first.byId.get(B)!, { x: -10, y: -20 });
    const next = mergeGraph(
      first.byId,
      {
        nodes: [
          { id: A, online: false },
          { id: B, online: true },
          { id: C, online: true },
        ],
        links: [
          { source: B, target: A, messages: 5 },
          { source: A, target: B, messages: 5 }, // the same pair the other way round
          { source: C, target: C, messages: 9 }, // a self-link
          { source: C, target: D, messages: 1 }, // an unknown agent
          { source: C, target: B, messages: 2 },
        ],
      },
      () => 0.5,
    );
    const a = next.byId.get(A)!;
    assert.equal(a, first.byId.get(A), 'the same object');
    assert.deepEqual([a.x, a.y, a.vx, a.vy, a.online], [10, 20, 1, 2, false]);
    assert.deepEqual(
      next.links.map((l) => [l.key, l.messages]),
      [
        [pairKey(A, B), 5],
        [pairKey(B, C), 2],
      ],
    );
    assert.deepEqual(
      next.nodes.map((n) => n.degree),
      [1, 2, 1],
    );
    // The newcomer starts next to the agent it talks to, not somewhere random.
    const c = next.byId.get(C)!;
    assert.deepEqual([c.x, c.y], [-10, -20]);
    assert.equal(c.b58, base58(C));
  });

  test('an agent that left is gone, with its links', () => {
    const first = mergeGraph(new Map(), {
      nodes: [
        { id: A, online: true },
        { id: B, online: true },
      ],
      links: [{ source: A, target: B, messages: 1 }],
    });
    const next = mergeGraph(first.byId, {
      nodes: [{ id: A, online: true }],
      links: [{ source: A, target: B, messages: 1 }],
    });
    assert.deepEqual([...next.byId.keys()], [A]);
    assert.deepEqual(next.links, []);
  });
});

test('linkWidth grows with messages and is capped', () => {
  const w = [0, 1, 3, 10, 100, 1e6].map(linkWidth);
  for (let i = 1; i < w.length; i++) assert.ok(w[i] >= w[i - 1]);
  assert.equal(w[0], 1);
  assert.ok(w[2] > w[1]);
  assert.equal(w[5], 8);
});

describe('hitTest', () => {
  const nodes = [placed(A, 0, 0), placed(B, 100, 0), placed(C, 0, 100)];
  const index = nodeIndex(nodes);

  test('finds the agent under a screen point at any zoom, and nothing between agents', () => {
    for (const t of [
      { k: 1, x: 0, y: 0 },
      { k: 2.5, x: 300, y: -40 },
      { k: 0.3, x: 50, y: 60 },
    ]) {
      for (const n of nodes) {
        const [px, py] = screen(t, n);
        assert.equal(hitTest(index, t, px + 3, py - 2)?.id, n.id, `k ${t.k}`);
      }
      const [mx, my] = screen(t, placed(D, 50, 50));
      assert.equal(hitTest(index, t, mx, my), undefined, `k ${t.k}: between agents`);
    }
  });

  test('a far zoom keeps tiny agents clickable by a few screen pixels of slop', () => {
    const t = { k: 0.05, x: 0, y: 0 };
    const [px, py] = screen(t, nodes[1]);
    // NODE_RADIUS * 0.05 is 0.6 px on screen; 3 px off still hits, 10 px off does not.
    assert.equal(hitTest(index, t, px + 3, py)?.id, B);
    assert.equal(hitTest(index, t, px, py + 3)?.id, B);
    assert.equal(hitTest(index, t, px + 10, py + 6), undefined);
  });

  test('invert undoes the transform', () => {
    const t = { k: 1.7, x: 12, y: -30 };
    assert.deepEqual(
      invert(t, ...screen(t, nodes[2])).map((v) => Math.round(v * 1e9) / 1e9),
      [0, 100],
    );
  });
});

describe('findAgents', () => {
  const nodes = [A, B, C, D].map((id, i) => placed(id, i, i));

  test('matches a full or partial id in base58 or hex, exact matches first', () => {
    assert.deepEqual(
      findAgents(nodes, base58(B)).map((n) => n.id),
      [B],
    );
    assert.deepEqual(
      findAgents(nodes, `  ${base58(C).slice(0, 6)} `).map((n) => n.id),
      [C],
    );
    assert.deepEqual(
      findAgents(nodes, 'CCCC').map((n) => n.id),
      [C],
      'hex is case-insensitive',
    );
    assert.deepEqual(
      findAgents(nodes, D).map((n) => n.id),
      [D],
    );
    assert.deepEqual(
      findAgents(nodes, base58(A).slice(5, 12)).map((n) => n.id),
      [A],
      'a base58 substring',
    );
  });

  test('nothing for no match or an empty query; base58 is case-sensitive', () => {
    assert.deepEqual(findAgents(nodes, 'zzzzzz-no'), []);
    assert.deepEqual(findAgents(nodes, '   '), []);
    const prefix = base58(A).slice(0, 8);
    const flipped = [...prefix].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    assert.notEqual(flipped, prefix);
    assert.ok(!findAgents(nodes, flipped).some((n) => n.id === A), `${flipped} does not find ${prefix}…`);
  });

  test('limit caps the answer', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      placed(`ab${i.toString(16).padStart(2, '0')}${'00'.repeat(30)}`, i, 0),
    );
    assert.equal(findAgents(many, 'ab', 8).length, 8);
    assert.equal(findAgents(many, 'ab', 100).length, 30);
  });
});

describe('zoom transforms', () => {
  test('focusTransform puts the agent at the centre at the asked scale, clamped', () => {
    const n = placed(A, 420, -77);
    const t = focusTransform(n.x!, n.y!, 800, 400, 2);
    assert.deepEqual(screen(t, n), [400, 200]);
    assert.equal(t.k, 2);
    assert.equal(focusTransform(0, 0, 800, 400, 1000).k, MAX_ZOOM);
  });

  test('fitTransform shows every placed agent inside the padded view, never zooming past the cap', () => {
    const nodes = [
      placed(A, -900, 40),
      placed(B, 1300, -600),
      placed(C, 10, 700),
      { ...placed(D, 0, 0), x: undefined, y: undefined },
    ];
    const t = fitTransform(nodes, 800, 400, 24);
    for (const n of nodes.slice(0, 3)) {
      const [x, y] = screen(t, n);
      assert.ok(x - NODE_RADIUS * t.k >= 24 - 1e-9 && x + NODE_RADIUS * t.k <= 800 - 24 + 1e-9, `x ${x}`);
      assert.ok(y - NODE_RADIUS * t.k >= 24 - 1e-9 && y + NODE_RADIUS * t.k <= 400 - 24 + 1e-9, `y ${y}`);
    }
    assert.ok(t.k < 1);
    const small = fitTransform([placed(A, 0, 0), placed(B, 30, 0)], 800, 400);
    assert.equal(small.k, FIT_MAX_ZOOM, 'two agents are not blown up to fill the view');
    assert.deepEqual(fitTransform([], 800, 400), { k: 1, x: 400, y: 200 });
  });

  test('approach moves from one transform to another', () => {
    const from = { k: 1, x: 0, y: 0 },
      to = { k: 4, x: 100, y: -100 };
    assert.deepEqual(approach(from, to, 0), from);
    assert.deepEqual(approach(from, to, 1), to);
    const mid = approach(from, to, 0.5);
    assert.equal(mid.k, 2, 'scale moves geometrically');
    assert.deepEqual([mid.x, mid.y], [50, -50]);
  });
});

describe('sameShape', () => {
  const g = {
    nodes: [
      { id: 'a', online: true },
      { id: 'b', online: true },
      { id: 'c', online: false },
    ],
    links: [
      { source: 'a', target: 'b', messages: 1 },
      { source: 'b', target: 'c', messages: 4 },
    ],
  };
  test('message counts alone keep the shape; online flags only when asked', () => {
    const counts = { nodes: g.nodes, links: g.links.map((l) => ({ ...l, messages: l.messages + 1 })) };
    assert.equal(sameShape(g, counts), true);
    const online = { nodes: g.nodes.map((n) => ({ ...n, online: true })), links: g.links };
    assert.equal(sameShape(g, online), true);
    assert.equal(sameShape(g, online, true), false);
  });
  test('an agent or a link added, removed or reordered changes it', () => {
    assert.equal(sameShape(g, { ...g, nodes: [...g.nodes, { id: 'd', online: true }] }), false);
    assert.equal(sameShape(g, { ...g, links: g.links.slice(1) }), false);
    assert.equal(sameShape(g, { ...g, links: [g.links[1], g.links[0]] }), false);
    assert.equal(sameShape(g, { ...g, links: [g.links[0], { source: 'a', target: 'c', messages: 4 }] }), false);
    assert.equal(sameShape(g, { nodes: [g.nodes[1], g.nodes[0], g.nodes[2]], links: g.links }), false);
  });
});

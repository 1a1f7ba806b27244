import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLayout, type Positions, type ToLayout } from './layout';
import { forceParams } from './model';

const ids = ['aa', 'bb', 'cc', 'dd'].map((b) => b.repeat(32));

/** The layout with a hand-cranked scheduler: `run(n)` performs n scheduled steps. */
function harness() {
  const posted: Positions[] = [];
  const queue: (() => void)[] = [];
  const handle = createLayout(
    (m) => posted.push(m),
    (fn) => queue.push(fn),
  );
  const run = (n: number) => {
    for (let i = 0; i < n && queue.length; i++) queue.shift()!();
  };
  return { posted, queue, handle, run, last: () => posted[posted.length - 1] };
}

function graph(version: number, n: number, heat: number, start: [number, number][] = []): ToLayout {
  const links = new Uint32Array(n > 1 ? [0, 1, ...(n > 2 ? [1, 2] : [])] : []);
  return {
    type: 'graph',
    version,
    ids: ids.slice(0, n),
    x: Float64Array.from(ids.slice(0, n), (_, i) => start[i]?.[0] ?? NaN),
    y: Float64Array.from(ids.slice(0, n), (_, i) => start[i]?.[1] ?? NaN),
    links,
    params: forceParams(n, links.length / 2),
    heat,
  };
}

test('the layout posts positions per tick for the current version and settles', () => {
  const h = harness();
  h.handle(graph(1, 3, 1));
  assert.equal(h.last().version, 1);
  assert.equal(h.last().xy.length, 6);
  h.run(5);
  const mid = h.last();
  assert.equal(mid.running, true);
  assert.ok([...mid.xy].every(Number.isFinite), 'd3 placed the agents');
  h.run(1000);
  assert.equal(h.queue.length, 0, 'no step scheduled once settled');
  assert.equal(h.last().running, false);
  assert.ok(h.posted.length > 100 && h.posted.length < 1000, `${h.posted.length} posts`);
  // The forces did their work: linked agents sit about a link's length apart, none on another.
  const xy = h.last().xy;
  const d = (i: number, j: number) => Math.hypot(xy[2 * i] - xy[2 * j], xy[2 * i + 1] - xy[2 * j + 1]);
  const { linkDistance, collide } = forceParams(3, 2);
  for (const [i, j] of [
    [0, 1],
    [1, 2],
  ])
    assert.ok(Math.abs(d(i, j) - linkDistance) < linkDistance / 2, `linked ${i}-${j}: ${d(i, j)}`);
  assert.ok(d(0, 2) > collide, `unlinked ${d(0, 2)}`);
});

test('known agents keep their positions across an update; a newcomer starts where it is told', () => {
  const h = harness();
  h.handle(graph(1, 3, 1));
  h.run(1000);
  const before = h.last().xy;
  h.handle(
    graph(2, 4, 0, [
      [1, 1],
      [2, 2],
      [3, 3],
      [500, -500],
    ]),
  );
  const after = h.last();
  assert.equal(after.version, 2);
  assert.deepEqual([...after.xy.slice(0, 6)], [...before], 'the start positions given for known agents are ignored');
  assert.deepEqual([...after.xy.slice(6)], [500, -500]);
  assert.equal(after.running, false, 'heat 0 (a repaint-only change) does not move the layout');
  h.handle(graph(3, 4, 0.3));
  assert.equal(h.last().running, true);
});

test('a pinned agent stays at the pin while the rest moves; unpin lets the layout cool', () => {
  const h = harness();
  h.handle(graph(1, 3, 1));
  h.run(1000);
  h.handle({ type: 'pin', id: ids[0], x: 400, y: 300 });
  h.run(20);
  const xy = h.last().xy;
  assert.deepEqual([xy[0], xy[1]], [400, 300]);
  assert.equal(h.last().running, true, 'a drag keeps the layout warm');
  h.handle({ type: 'unpin', id: ids[0] });
  h.run(2000);
  assert.equal(h.last().running, false);
  h.handle({ type: 'pin', id: 'ee'.repeat(32), x: 0, y: 0 }); // unknown: ignored
  assert.equal(h.queue.length, 0);
});

test('stop ends the loop', () => {
  const h = harness();
  h.handle(graph(1, 3, 1));
  h.run(3);
  const n = h.posted.length;
  h.handle({ type: 'stop' });
  h.run(100);
  assert.equal(h.posted.length, n);
});

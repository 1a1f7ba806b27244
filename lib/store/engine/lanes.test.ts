import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPglite } from './db';
import { createLaneGate, inBackground, inBackgroundLane } from './lanes';

const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the background lane is carried through awaits and timers', async () => {
  assert.equal(inBackground(), false);
  await inBackgroundLane(async () => {
    await later(1);
    assert.equal(inBackground(), true);
    await new Promise<void>((r) =>
      setImmediate(() => {
        assert.equal(inBackground(), true);
        r();
      }),
    );
  });
  assert.equal(inBackground(), false);
});

test('background statements run one at a time and only while the foreground is idle', async () => {
  const gate = createLaneGate(10_000);
  const log: string[] = [];
  let release!: () => void;
  const fg = gate.foreground(async () => {
    log.push('fg start');
    await new Promise<void>((r) => {
      release = r;
    });
    log.push('fg end');
  });
  let concurrent = 0;
  let most = 0;
  const bg = [1, 2, 3].map((i) =>
    gate.background(async () => {
      concurrent++;
      most = Math.max(most, concurrent);
      log.push(`bg ${i}`);
      await later(2);
      concurrent--;
    }),
  );
  await later(20);
  assert.deepEqual(log, ['fg start'], 'no background statement runs while a foreground one does');
  assert.equal(gate.waiting, 3);
  release();
  await Promise.all([fg, ...bg]);
  assert.deepEqual(log, ['fg start', 'fg end', 'bg 1', 'bg 2', 'bg 3']);
  assert.equal(most, 1);
});

test('a background statement runs anyway after the longest wait', async () => {
  const gate = createLaneGate(30);
  let release!: () => void;
  const fg = gate.foreground(
    () =>
      new Promise<void>((r) => {
        release = r;
      }),
  );
  const t0 = performance.now();
  await gate.background(async () => undefined);
  assert.ok(performance.now() - t0 >= 25, 'it waited for the foreground first');
  release();
  await fg;
});

test('on PGlite a small read issued after queued heavy reads runs before them', async () => {
  const db = await openPglite();
  try {
    await db.query('CREATE TABLE t (n int)');
    await db.query('INSERT INTO t SELECT generate_series(1, 20000)');
    const done: string[] = [];
    const heavy = inBackgroundLane(() =>
      Array.from({ length: 4 }, (_, i) =>
        db
          .query('SELECT count(*) FROM t a, (SELECT n FROM t LIMIT 20) b WHERE a.n % 7 = b.n % 7')
          .then(() => done.push(`heavy ${i}`)),
      ),
    );
    const small = db.query('SELECT 1').then(() => done.push('small'));
    await Promise.all([...heavy, small]);
    // In arrival order (PGlite alone) the small read would finish last; with the lanes it
    // waits for at most the one heavy statement already admitted.
    assert.ok(done.indexOf('small') <= 1, `order: ${done.join(', ')}`);
  } finally {
    await db.close();
  }
});

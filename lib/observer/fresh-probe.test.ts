import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshProbe, withTimeout } from './fresh-probe';

interface Answer {
  ok: boolean;
  n: number;
}

/** A probe whose answers the test releases by hand, on a clock the test moves. */
function harness() {
  let t = 0;
  let n = 0;
  const pending: Array<(ok: boolean) => void> = [];
  const probe = freshProbe<Answer>(
    () =>
      new Promise((resolve) => {
        const k = ++n;
        pending.push((ok) => resolve({ ok, n: k }));
      }),
    {
      isOk: (a) => a.ok,
      freshMs: 2_000,
      refreshMs: 250,
      now: () => t,
    },
  );
  return {
    probe,
    started: () => n,
    answer: (ok: boolean) => pending.shift()!(ok),
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const settled = async <T>(p: Promise<T>): Promise<T | 'pending'> =>
  Promise.race([p, new Promise<'pending'>((r) => setImmediate(() => r('pending')))]);

test('the first call waits for the probe; concurrent calls share it', async () => {
  const h = harness();
  const a = h.probe.get();
  const b = h.probe.get();
  assert.equal(h.started(), 1);
  assert.equal(await settled(a), 'pending');
  h.answer(true);
  assert.deepEqual(await a, { value: { ok: true, n: 1 }, reused: false });
  assert.deepEqual(await b, { value: { ok: true, n: 1 }, reused: false });
});

test('a fresh success answers at once while the probe is stuck behind other work', async () => {
  const h = harness();
  const first = h.probe.get();
  h.answer(true);
  await first;
  h.advance(100); // younger than refreshMs: no new probe
  assert.deepEqual(await settled(h.probe.get()), { value: { ok: true, n: 1 }, reused: true });
  assert.equal(h.started(), 1);
  h.advance(400); // older than refreshMs: one background probe, the answer is still immediate
  assert.deepEqual(await settled(h.probe.get()), { value: { ok: true, n: 1 }, reused: true });
  assert.deepEqual(await settled(h.probe.get()), { value: { ok: true, n: 1 }, reused: true });
  assert.equal(h.started(), 2, 'one background probe at a time');
  h.answer(true);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(await settled(h.probe.get()), { value: { ok: true, n: 2 }, reused: true });
});

test('past freshMs, or with { wait: true }, the caller waits for a new probe', async () => {
  const h = harness();
  const first = h.probe.get();
  h.answer(true);
  await first;
  const waited = h.probe.get({ wait: true });
  assert.equal(await settled(waited), 'pending');
  h.answer(true);
  assert.deepEqual(await waited, { value: { ok: true, n: 2 }, reused: false });
  h.advance(2_000);
  const stale = h.probe.get();
  assert.equal(await settled(stale), 'pending', 'a success 2 s old is not served');
  h.answer(true);
  assert.equal((await stale).reused, false);
});

test('a failure is never remembered: the next call waits for a new probe', async () => {
  const h = harness();
  const first = h.probe.get();
  h.answer(true);
  await first;
  h.advance(300);
  await h.probe.get(); // starts a background probe…
  h.answer(false); // …which fails
  await new Promise((r) => setImmediate(r));
  const next = h.probe.get();
  assert.equal(await settled(next), 'pending');
  h.answer(false);
  assert.deepEqual(await next, { value: { ok: false, n: 3 }, reused: false });
  // A thrown probe is not remembered either.
  const throwing = freshProbe(
    async () => {
      throw new Error('down');
    },
    { isOk: () => true, freshMs: 1_000, refreshMs: 0 },
  );
  await assert.rejects(throwing.get(), /down/);
  await assert.rejects(throwing.get(), /down/);
});

test('bad windows are refused', () => {
  assert.throws(() => freshProbe(async () => 1, { isOk: () => true, freshMs: 100, refreshMs: 200 }), RangeError);
});

test('a probe that never answers is cut off, and the next call probes again', async () => {
  let calls = 0;
  const probe = freshProbe(
    () => {
      calls++;
      return withTimeout(new Promise<never>(() => {}), 20, 'the chain');
    },
    { isOk: () => true, freshMs: 1_000, refreshMs: 0 },
  );
  await assert.rejects(probe.get(), /the chain did not answer within 20 ms/);
  await assert.rejects(probe.get(), /did not answer/);
  assert.equal(calls, 2);
});

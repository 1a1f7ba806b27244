// The lease conditions on plain lease rows. lease_grace's debounce (kinds.ts
// LEASE_GRACE_HYSTERESIS, at ES = 20 s: opens after 5 s in grace, an open alert holds until a
// quiet 20 s, paid ahead or deactivated) is checked step by step with its remembered state.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyOf } from '../tick-write';
import { deactivated, type LeaseRow, leaseConditions, leaseDue, leaseGrace } from './lease';
import { brief, bytes, CUR, EPOCH_START, hex, input, watchOf, whyFor } from './testing';

const lease = (b: number, paidThrough: bigint, active = true): LeaseRow => ({ agent: bytes(b), paidThrough, active });
const watch = watchOf({
  id: 'w',
  rules: { lease_due: { hours: 1 }, lease_grace: {}, deactivated: {} },
  agents: [[0xa1], [0xb2]],
});
const K = keyOf('w', hex(0xa1), 'lease_grace', '');

test(
  'lease_due fires within the rule hours of the paid-through ' + 'epoch end, not further out, not when deactivated',
  () => {
    const x = input(watch);
    assert.deepEqual(brief(leaseDue(lease(0xa1, CUR), x)), ['w:a1:lease_due:=true']);
    assert.match(
      whyFor(leaseDue(lease(0xa1, CUR), x), 0xa1, 'lease_due'),
      /ends at .* \(in 0\.00 h; the rule alerts within 1 h\)/,
    );
    // 200 epochs of 20 s ahead: 1.1 h away.
    assert.deepEqual(brief(leaseDue(lease(0xa1, CUR + 200n), x)), ['w:a1:lease_due:=false']);
    assert.deepEqual(brief(leaseDue(lease(0xa1, CUR, false), x)), ['w:a1:lease_due:=false']);
    assert.deepEqual(brief(leaseDue(lease(0xc3, CUR), x)), [], 'an unwatched agent');
  },
);

test('deactivated follows the lease row', () => {
  const x = input(watch);
  assert.deepEqual(brief(deactivated(lease(0xa1, CUR - 4n, false), x)), ['w:a1:deactivated:=true']);
  assert.match(whyFor(deactivated(lease(0xa1, CUR - 4n, false), x), 0xa1, 'deactivated'), /4 unpaid\)$/);
  assert.deepEqual(brief(deactivated(lease(0xa1, CUR), x)), ['w:a1:deactivated:=false']);
});

test('lease_grace opens only after 5 s in grace', () => {
  const g = new Map<string, number>();
  // Unpaid since the epoch began 3 s ago: too short.
  assert.deepEqual(brief(leaseGrace(lease(0xa1, CUR - 1n), input(watch, { t: EPOCH_START + 3_000 }), g)), [
    'w:a1:lease_grace:=false',
  ]);
  assert.equal(g.size, 0);
  // 8 s: fires, and remembers when it last saw a long grace.
  const t = EPOCH_START + 8_000;
  const out = leaseGrace(lease(0xa1, CUR - 1n), input(watch, { t }), g);
  assert.deepEqual(brief(out), ['w:a1:lease_grace:=true']);
  assert.match(whyFor(out, 0xa1, 'lease_grace'), /1 unpaid epoch in grace for 8 s \(deactivated after 3\)/);
  assert.equal(g.get(K), t);
  // Two epochs unpaid: in grace since the previous epoch began, 21 s.
  assert.deepEqual(brief(leaseGrace(lease(0xa1, CUR - 2n), input(watch, { t: EPOCH_START + 1_000 }), new Map())), [
    'w:a1:lease_grace:=true',
  ]);
  // Paid through the current epoch: not in grace.
  assert.deepEqual(brief(leaseGrace(lease(0xa1, CUR), input(watch, { t }), new Map())), ['w:a1:lease_grace:=false']);
});

test(
  'lease_grace: an open alert holds through a short quiet, ' +
    'clears after a quiet epoch, when paid ahead or deactivated',
  () => {
    const open = new Map([[K, { id: 1n, throttled: false }]]);
    const t = EPOCH_START + 15_000;
    const at = (graceAt: number) => new Map([[K, graceAt]]);
    // Paid through the current epoch, last long grace 10 s ago: held.
    let g = at(t - 10_000);
    assert.deepEqual(brief(leaseGrace(lease(0xa1, CUR), input(watch, { t, open }), g)), ['w:a1:lease_grace:=hold']);
    assert.equal(g.get(K), t - 10_000);
    // 20 s quiet: cleared, and forgotten.
    g = at(t - 20_000);
    const quiet = leaseGrace(lease(0xa1, CUR), input(watch, { t, open }), g);
    assert.deepEqual(brief(quiet), ['w:a1:lease_grace:=false']);
    assert.match(whyFor(quiet, 0xa1, 'lease_grace'), /not in grace for 5 s or more during the last 20 s/);
    assert.equal(g.has(K), false);
    // Paid ahead, or deactivated: cleared at once.
    assert.deepEqual(brief(leaseGrace(lease(0xa1, CUR + 1n), input(watch, { t, open }), at(t - 1_000))), [
      'w:a1:lease_grace:=false',
    ]);
    assert.deepEqual(brief(leaseGrace(lease(0xa1, CUR, false), input(watch, { t, open }), at(t - 1_000))), [
      'w:a1:lease_grace:=false',
    ]);
    // Open but not remembered (the evaluator restarted): held from now.
    g = new Map();
    assert.deepEqual(brief(leaseGrace(lease(0xa1, CUR), input(watch, { t, open }), g)), ['w:a1:lease_grace:=hold']);
    assert.equal(g.get(K), t);
  },
);

test(
  'leaseConditions: row by row, lease_due then lease_grace ' +
    'then deactivated; the remembered state is returned anew',
  () => {
    const before = new Map([[K, 1]]);
    const r = leaseConditions(
      [lease(0xa1, CUR - 1n), lease(0xb2, CUR + 500n)],
      input(watch, { t: EPOCH_START + 8_000 }),
      before,
    );
    assert.deepEqual(brief(r.statuses), [
      'w:a1:lease_due:=true',
      'w:a1:lease_grace:=true',
      'w:a1:deactivated:=false',
      'w:b2:lease_due:=false',
      'w:b2:lease_grace:=false',
      'w:b2:deactivated:=false',
    ]);
    assert.deepEqual([...before], [[K, 1]], 'the given state is not changed');
    assert.equal(r.graceLong.get(K), EPOCH_START + 8_000);
  },
);

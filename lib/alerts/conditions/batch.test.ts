// The batch conditions on plain batch and lease rows (ES = 20 s, the tick 5 s into epoch CUR).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toHex } from '../../protocol/hex';
import { keyOf } from '../tick-write';
import { type BatchRow, batchMismatch, batchMissing, batchQuery } from './batch';
import type { LeaseRow } from './lease';
import { brief, bytes, CUR, EPOCH_START, ES, hex, input, watchOf, whyFor } from './testing';

const batch = (b: number, epoch: bigint, status = 'verified'): BatchRow => ({
  agent: bytes(b),
  epoch,
  status,
  slot: 7n,
});
const lease = (b: number, paidThrough = CUR): LeaseRow => ({ agent: bytes(b), paidThrough, active: true });
const endOf = (e: bigint) => Number(e + 1n) * ES * 1000;
const opened = (...keys: string[]) => new Map(keys.map((k, i) => [k, { id: BigInt(i + 1), throttled: false }]));

test('batchQuery: the last four epochs, and the older epochs of open batch alerts only', () => {
  const open = opened(
    keyOf('w', hex(0xa1), 'batch_missing', String(CUR - 10n)),
    keyOf('w', hex(0xb2), 'batch_mismatch', String(CUR - 9n)),
    keyOf('w', hex(0xa1), 'batch_missing', String(CUR - 2n)),
    keyOf('w', hex(0xa1), 'challenged', 'addr'),
  );
  const q = batchQuery(open, CUR);
  assert.equal(q.from, CUR - 4n);
  assert.deepEqual(
    q.also.map((a) => `${toHex(a.agent).slice(0, 2)}:${CUR - a.epoch}`),
    ['a1:10', 'b2:9'],
  );
});

test(
  'batch_mismatch fires on a mismatching batch, clears ' + 'when it is not, skips epochs before the agent was watched',
  () => {
    const addedAt = endOf(CUR - 3n);
    const watch = watchOf({ id: 'w', rules: { batch_mismatch: {} }, agents: [[0xa1, addedAt]] });
    const x = input(watch);
    const rows = [
      batch(0xa1, CUR - 1n, 'mismatch'),
      batch(0xa1, CUR - 2n),
      batch(0xa1, CUR - 3n, 'unverified'),
      batch(0xa1, CUR - 4n, 'mismatch'),
    ];
    const out = batchMismatch(rows, x);
    assert.deepEqual(brief(out), [
      `w:a1:batch_mismatch:${CUR - 1n}=true`,
      `w:a1:batch_mismatch:${CUR - 2n}=false`,
      `w:a1:batch_mismatch:${CUR - 3n}=false`,
    ]);
    assert.match(whyFor([out[0]], 0xa1, 'batch_mismatch'), /does not match its uploaded epoch log/);
    // The old epoch counts when an alert of it is open (so it can clear).
    const open = opened(keyOf('w', hex(0xa1), 'batch_mismatch', String(CUR - 4n)));
    assert.deepEqual(brief(batchMismatch([batch(0xa1, CUR - 4n)], input(watch, { open }))), [
      `w:a1:batch_mismatch:${CUR - 4n}=false`,
    ]);
  },
);

test(
  'batch_missing: a paid epoch past its grace without a ' + 'batch fires; within grace, unpaid, or submitted does not',
  () => {
    // Grace 30 s; the tick is 5 s into CUR: epoch CUR-1 ended 5 s ago, CUR-2 25 s ago, CUR-3 45 s ago.
    const watch = watchOf({ id: 'w', rules: { batch_missing: { graceSeconds: 30 } }, agents: [[0xa1], [0xb2]] });
    const x = input(watch);
    const out = batchMissing([lease(0xa1), lease(0xb2, CUR - 4n), lease(0xc3)], [batch(0xa1, CUR - 1n)], x);
    assert.deepEqual(brief(out), [`w:a1:batch_missing:${CUR - 3n}=true`, `w:a1:batch_missing:${CUR - 1n}=false`]);
    assert.match(
      whyFor([out[0]], 0xa1, 'batch_missing'),
      new RegExp(`agent-a1 submitted no batch for epoch ${CUR - 3n}, which ended at .*, 45 s ago \\(grace 30 s\\)`),
    );
    // Watched after CUR-3 ended: not owed.
    const later = watchOf({
      id: 'w',
      rules: { batch_missing: { graceSeconds: 30 } },
      agents: [[0xa1, endOf(CUR - 3n) + 1]],
    });
    assert.deepEqual(brief(batchMissing([lease(0xa1)], [], input(later))), []);
    // The default grace is one epoch but at least 30 s.
    const dflt = watchOf({ id: 'w', rules: { batch_missing: {} }, agents: [[0xa1]] });
    assert.deepEqual(brief(batchMissing([lease(0xa1)], [], input(dflt, { t: EPOCH_START + 10_000 }))), [
      `w:a1:batch_missing:${CUR - 3n}=true`,
      `w:a1:batch_missing:${CUR - 2n}=true`,
    ]);
  },
);

test('batch_missing: an open alert of an old epoch stays open without a batch and clears with one', () => {
  const watch = watchOf({ id: 'w', rules: { batch_missing: { graceSeconds: 30 } }, agents: [[0xa1]] });
  const old = CUR - 10n;
  const open = opened(
    keyOf('w', hex(0xa1), 'batch_missing', String(old)),
    keyOf('w', hex(0xa1), 'batch_missing', String(CUR - 3n)),
  );
  const recent = [batch(0xa1, CUR - 2n), batch(0xa1, CUR - 1n)];
  assert.deepEqual(brief(batchMissing([lease(0xa1)], recent, input(watch, { open }))), [
    `w:a1:batch_missing:${CUR - 2n}=false`,
    `w:a1:batch_missing:${CUR - 1n}=false`,
  ]);
  assert.deepEqual(brief(batchMissing([lease(0xa1)], [...recent, batch(0xa1, old)], input(watch, { open }))), [
    `w:a1:batch_missing:${CUR - 2n}=false`,
    `w:a1:batch_missing:${CUR - 1n}=false`,
    `w:a1:batch_missing:${old}=false`,
  ]);
});

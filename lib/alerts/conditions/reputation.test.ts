// reputation_drop on plain samples (fixed point, 1e6 per score point): a fall of more than the
// rule's points within its window fires; samples older than a week are dropped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ReputationSample, reputationDrop } from './reputation';
import { brief, EPOCH_START, hex, input, watchOf, whyFor } from './testing';

const t = EPOCH_START;
const min = 60_000;
const watch = watchOf({
  id: 'w',
  rules: { reputation_drop: { drop: 0.1, windowMinutes: 60 } },
  agents: [[0xa1], [0xb2], [0xc3]],
});

test(
  'reputation_drop fires on a fall above the rule within ' + 'the window, not at it, not from a high before the window',
  () => {
    const samples = new Map<string, ReputationSample[]>([
      [
        hex(0xa1),
        [
          [t - 50 * min, 80_000_000n],
          [t - min, 79_800_000n],
        ],
      ],
      [
        hex(0xb2),
        [
          [t - 50 * min, 80_000_000n],
          [t - min, 79_900_000n],
        ],
      ],
      [
        hex(0xc3),
        [
          [t - 70 * min, 90_000_000n],
          [t - 30 * min, 80_000_000n],
          [t - min, 79_950_000n],
        ],
      ],
    ]);
    const r = reputationDrop(samples, input(watch, { t }));
    assert.deepEqual(brief(r.statuses), [
      'w:a1:reputation_drop:=true',
      'w:b2:reputation_drop:=false',
      'w:c3:reputation_drop:=false',
    ]);
    assert.equal(
      whyFor(r.statuses, 0xa1, 'reputation_drop'),
      'reliability of agent-a1 fell from 80.000 to 79.800 within 60 min (by 0.200, more than 0.100)',
    );
  },
);

test('reputation_drop keeps a week of samples and always the latest, without changing the given ones', () => {
  const day = 86_400_000;
  const a: ReputationSample[] = [
    [t - 9 * day, 1n],
    [t - 8 * day, 2n],
    [t - day, 3n],
  ];
  const b: ReputationSample[] = [[t - 8 * day, 4n]];
  const r = reputationDrop(
    new Map([
      [hex(0xa1), a],
      [hex(0xb2), b],
    ]),
    input(watch, { t }),
  );
  assert.deepEqual(r.samples.get(hex(0xa1)), [[t - day, 3n]]);
  assert.deepEqual(r.samples.get(hex(0xb2)), [[t - 8 * day, 4n]]);
  assert.equal(a.length, 3);
});

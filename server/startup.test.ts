import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createStartupTimeline, FIRST_ENVELOPE } from './startup';

test('the start-up timeline keeps each phase once, in order, and summarises at the first envelope', () => {
  let t = 0;
  const lines: string[] = [];
  const log = { debug: (m: string) => lines.push(`debug ${m}`), info: (m: string) => lines.push(`info ${m}`) };
  const tl = createStartupTimeline(log, () => t);
  t = 120.4;
  tl.mark('store open');
  t = 900;
  tl.mark('ready');
  t = 950;
  tl.mark('store open');
  assert.deepEqual(
    tl.phases(),
    [
      { phase: 'store open', ms: 120 },
      { phase: 'ready', ms: 900 },
    ],
    'a phase is recorded at its first mark only',
  );
  assert.equal(tl.has('ready'), true);
  assert.equal(tl.has(FIRST_ENVELOPE), false);
  assert.equal(lines.filter((l) => l.startsWith('info')).length, 0);
  t = 4_250;
  tl.mark(FIRST_ENVELOPE);
  const info = lines.filter((l) => l.startsWith('info'));
  assert.deepEqual(info, ['info startup: store open 0.1 s, ready 0.9 s, first envelope stored 4.3 s']);
  assert.equal(lines.filter((l) => l.startsWith('debug')).length, 3);
});

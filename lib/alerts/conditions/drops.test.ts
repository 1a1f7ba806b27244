// drops_rate on plain per-minute counts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropsRate } from './drops';
import { brief, hex, input, watchOf, whyFor } from './testing';

test('drops_rate fires above the rule rate, not at it; unwatched agents give nothing', () => {
  const watch = watchOf({ id: 'w', rules: { drops_rate: { perMinute: 10 } }, agents: [[0xa1], [0xb2]] });
  const out = dropsRate(
    new Map([
      [hex(0xa1), 11],
      [hex(0xb2), 10],
      [hex(0xc3), 500],
    ]),
    input(watch),
  );
  assert.deepEqual(brief(out), ['w:a1:drops_rate:=true', 'w:b2:drops_rate:=false']);
  assert.match(whyFor(out, 0xa1, 'drops_rate'), /^11 envelopes from agent-a1 were dropped .* above 10\)$/);
});

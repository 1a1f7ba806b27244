// offline on plain last-seen times: past the rule's minutes fires, under it does not, an agent
// never seen or not watched gives no status.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { offline } from './offline';
import { brief, EPOCH_START, hex, input, watchOf, whyFor } from './testing';

const t = EPOCH_START;
const watch = watchOf({ id: 'w', rules: { offline: { minutes: 10 } }, agents: [[0xa1], [0xb2], [0xd4]] });

test('offline fires at the rule minutes and not a minute short; unseen and unwatched agents give nothing', () => {
  const seen = new Map([
    [hex(0xa1), t - 11 * 60_000],
    [hex(0xb2), t - 9 * 60_000],
    [hex(0xc3), t - 60 * 60_000], // not watched
    [hex(0xd4), Number.NaN], // watched, never seen
  ]);
  const out = offline(seen, input(watch, { t }));
  assert.deepEqual(brief(out), ['w:a1:offline:=true', 'w:b2:offline:=false']);
  assert.match(whyFor(out, 0xa1, 'offline'), /^no envelope from agent-a1 for 11\.0 min .* after 10 min$/);
  assert.match(whyFor(out, 0xb2, 'offline'), /9\.0 min ago \(under 10 min\)/);
});

test('offline: exactly the rule minutes fires; a list that watches every agent sees an unlisted one', () => {
  const all = watchOf({ id: 'all', allAgents: true, rules: { offline: { minutes: 10 } } });
  const out = offline(new Map([[hex(0xc3), t - 10 * 60_000]]), input(all, { t }));
  assert.deepEqual(brief(out), ['all:c3:offline:=true']);
});

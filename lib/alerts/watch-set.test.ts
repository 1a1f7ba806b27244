// The watch set from plain watchState rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bytes, hex } from './conditions/testing';
import { anyRule, buildWatchSet, watchedBy, watchers } from './watch-set';

const ws = buildWatchSet({
  lists: [
    { id: 'w', allAgents: false },
    { id: 'all', allAgents: true },
  ],
  rules: [
    { watchlistId: 'w', kind: 'offline', params: { minutes: 5 } },
    { watchlistId: 'all', kind: 'offline', params: { minutes: 'bad' } },
    { watchlistId: 'w', kind: 'no_such_kind', params: {} },
    { watchlistId: 'gone', kind: 'slashed', params: {} },
  ],
  items: [
    { watchlistId: 'w', kind: 'agent', target: bytes(0xa1), addedAt: new Date(1_000) },
    { watchlistId: 'all', kind: 'agent', target: bytes(0xa1), addedAt: new Date(2_000) },
    { watchlistId: 'w', kind: 'conversation', target: bytes(0xcc), addedAt: new Date(3_000) },
    { watchlistId: 'gone', kind: 'agent', target: bytes(0xb2), addedAt: new Date(0) },
  ],
});

test('rules of known kinds on known lists, params with defaults; agents and conversations apart', () => {
  assert.deepEqual([...ws.lists.keys()], ['w', 'all']);
  assert.deepEqual([...ws.lists.get('w')!.rules], [['offline', { minutes: 5 }]]);
  assert.deepEqual(
    ws.lists.get('all')!.rules.get('offline'),
    { minutes: 10 },
    'a bad stored value reads as the default',
  );
  assert.deepEqual([...ws.lists.get('w')!.convs], [[hex(0xcc), 3_000]]);
  assert.deepEqual([...ws.named], [hex(0xa1)]);
  assert.equal(ws.watchAll, true);
  assert.equal(anyRule(ws, 'offline'), true);
  assert.equal(anyRule(ws, 'slashed', 'dispute'), false);
});

test('watchers: each list once, with when the agent was added (0 for an all-agents list that does not name it)', () => {
  assert.deepEqual(
    [...watchers(ws, 'offline', hex(0xa1))].map((w) => [w.l.id, w.addedAt]),
    [
      ['w', 1_000],
      ['all', 2_000],
    ],
  );
  assert.deepEqual(
    [...watchers(ws, 'offline', hex(0xb2))].map((w) => [w.l.id, w.addedAt]),
    [['all', 0]],
  );
  assert.deepEqual([...watchers(ws, 'slashed', hex(0xa1))], []);
  assert.deepEqual(
    watchedBy(ws, hex(0xb2)).map((l) => l.id),
    ['all'],
  );
});

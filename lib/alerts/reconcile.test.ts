// The tick's decisions on plain statuses and open alerts: what opens, what clears and why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hex, watchOf } from './conditions/testing';
import { reconcile } from './reconcile';
import { keyOf, type OpenAlert, type Status } from './tick-write';

const A = hex(0xa1);
const st = (kind: Status['kind'], firing: Status['firing'], subject = '', agent = A): Status => ({
  wl: 'w',
  agent,
  kind,
  subject,
  firing,
  why: () => `${kind} ${firing}`,
});
const watch = watchOf({
  id: 'w',
  rules: { offline: {}, lease_grace: {}, challenged: {}, dispute: {} },
  agents: [[0xa1]],
});
const name = (a: string) => `agent-${a.slice(0, 2)}`;
const openOf = (...keys: string[]) =>
  new Map<string, OpenAlert>(keys.map((k, i) => [k, { id: BigInt(i + 1), throttled: i === 1 }]));
const K = (kind: string, subject = '', agent = A) => keyOf('w', agent, kind, subject);

test(
  'firing and not open opens, once; firing and open does ' + 'nothing; not firing and open clears with its sentence',
  () => {
    const r = reconcile([st('offline', true), st('offline', true), st('challenged', false, 'Ch1')], {
      open: openOf(K('challenged', 'Ch1')),
      eventKeys: new Set([K('challenged', 'Ch1')]),
      watch,
      name,
    });
    assert.deepEqual(
      r.fresh.map((s) => s.kind),
      ['offline'],
    );
    assert.deepEqual(r.clear, [
      { key: K('challenged', 'Ch1'), id: 1n, why: 'challenged false', kind: 'challenged', throttled: false },
    ]);
    assert.deepEqual(
      reconcile([st('offline', true)], { open: openOf(K('offline')), eventKeys: new Set(), watch, name }),
      {
        fresh: [],
        clear: [],
      },
    );
  },
);

test('an event alert never opens twice for its subject', () => {
  const r = reconcile([st('challenged', true, 'Ch1'), st('challenged', true, 'Ch2')], {
    open: new Map(),
    eventKeys: new Set([K('challenged', 'Ch1')]),
    watch,
    name,
  });
  assert.deepEqual(
    r.fresh.map((s) => s.subject),
    ['Ch2'],
  );
});

test(
  'hold keeps an open alert and opens none; for one key ' + 'the first firing status wins over a later clearing one',
  () => {
    const open = openOf(K('lease_grace'), K('offline'));
    const r = reconcile(
      [st('lease_grace', 'hold'), st('lease_grace', false), st('offline', true), st('offline', false)],
      {
        open,
        eventKeys: new Set(),
        watch,
        name,
      },
    );
    assert.deepEqual(r, { fresh: [], clear: [] });
    assert.deepEqual(reconcile([st('lease_grace', 'hold')], { open: new Map(), eventKeys: new Set(), watch, name }), {
      fresh: [],
      clear: [],
    });
  },
);

test(
  'an open alert whose rule is off or whose agent is no longer ' +
    'watched clears; a dispute in a watched conversation stays',
  () => {
    const B = hex(0xb2);
    const open = openOf(K('drops_rate'), K('offline', '', B), K('dispute', 'c1', B), K('offline'));
    const convs = watchOf({ id: 'w', rules: { offline: {}, dispute: {} }, agents: [[0xa1]], convs: ['cc'.repeat(16)] });
    const r = reconcile([], { open, eventKeys: new Set(), watch: convs, name });
    assert.deepEqual(
      r.clear.map((c) => [c.key, c.why, c.throttled]),
      [
        [K('drops_rate'), 'the drops_rate rule was turned off', false],
        [K('offline', '', B), 'agent-b2 is no longer watched', true],
      ],
    );
    assert.equal(
      reconcile([], { open, eventKeys: new Set(), watch, name }).clear.length,
      3,
      'no watched conversation: the dispute clears too',
    );
  },
);

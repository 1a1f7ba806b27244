// The alert evaluator on a real store (PGlite, and Postgres with TEST_DATABASE_URL) and the
// observer's real live bus: each kind fires on a constructed condition and not on its neighbour
// (another watched agent one step short of it, or an agent nobody watches), a persisting
// condition keeps one alert, a repeat event for the same subject alerts once, clearing is
// recorded with its sentence, every open and clear queues one webhook delivery, and a noisy
// rule is throttled with one notice.
import assert from 'node:assert/strict';
import { createLiveBus } from '../observer/bus';
import { toHex } from '../protocol/hex';
import type { Store } from '../store';
import { testOnEachStore } from '../store/backends-testing';
import type { LiveEvent } from '../wire/events';
import { startEvaluator } from './evaluator';
import { ALERT_KINDS } from './kinds';
import { createAlertService, DEFAULT_CAPS } from './service';

const ES = 20;
const id = (b: number) => new Uint8Array(32).fill(b);
const [A, B, C, D] = [0xa1, 0xb2, 0xc3, 0xd4].map(id);

async function setup(store: Store, ruleAlertsPerHour = 1_000) {
  const bus = createLiveBus();
  // 5 s into an epoch, more than 11 minutes after the agents' rows were written.
  let t = Math.ceil((Date.now() + 11 * 60_000) / (ES * 1000)) * ES * 1000 + 5_000;
  const clock = {
    now: () => t,
    set: (v: number) => {
      t = v;
    },
  };
  const ev = startEvaluator({
    store: store.alerts,
    subscribe: bus.subscribe,
    epochSeconds: ES,
    now: clock.now,
    tickMs: 3_600_000,
    ruleAlertsPerHour,
    deliveriesPerHour: 1_000,
  });
  const svc = createAlertService({
    store: store.alerts,
    signatures: store.usedSignatures,
    caps: { ...DEFAULT_CAPS, rules: 50 },
    allowPrivateWebhooks: true,
    changed: () => ev.invalidate(),
  });
  const { id: wl, token } = await svc.create();
  return { bus, clock, ev, svc, wl, token };
}

async function alerts(store: Store, wl: string) {
  return (await store.alerts.listAlerts({ watchlistId: wl, state: 'all', limit: 500 })).map((a) => ({
    ...a,
    agentHex: toHex(a.agent),
  }));
}
const keyset = (rows: Awaited<ReturnType<typeof alerts>>, state?: 'open' | 'cleared') =>
  rows
    .filter((a) => !state || (state === 'open') === (a.clearedAt === null))
    .map((a) => `${a.kind}:${a.agentHex.slice(0, 2)}:${a.subject}`)
    .sort();

const ev = <T extends LiveEvent['type']>(type: T, at: number, data: Record<string, unknown>) =>
  ({ type, at, data }) as unknown as LiveEvent;

testOnEachStore(
  'every kind fires on its condition and not its neighbour; persisting conditions alert once; clearing is recorded',
  async (store) => {
    const { bus, clock, ev: evaluator, svc, wl, token } = await setup(store);
    try {
      for (const [a, n] of [
        [A, 'alpha'],
        [B, 'bravo'],
        [C, 'charlie'],
        [D, 'delta'],
      ] as const)
        await store.setAgentLabel(a, n);
      for (const a of [A, B, D]) await svc.putItem(wl, token, 'agent', a);
      for (const kind of ALERT_KINDS)
        await svc.putRule(wl, token, kind, { enabled: true, params: kind === 'lease_due' ? { hours: 1 } : undefined });
      await svc.addWebhook(wl, token, { url: 'http://127.0.0.1:9/hook', format: 'json' });
      const t = clock.now();
      const cur = BigInt(Math.floor(t / 1000 / ES));

      // Leases: A in grace (and so due), B paid far ahead, D deactivated, C (unwatched) in grace.
      await store.upsertLease({ agentId: A, paidThroughEpoch: cur - 1n, active: true, slot: 10n });
      await store.upsertLease({ agentId: B, paidThroughEpoch: cur + 1_000n, active: true, slot: 10n });
      await store.upsertLease({ agentId: D, paidThroughEpoch: cur - 5n, active: false, slot: 10n });
      await store.upsertLease({ agentId: C, paidThroughEpoch: cur - 1n, active: true, slot: 10n });
      // Batches of epoch cur-3 (ended 45 s ago, past the 30 s grace): A none, B one that mismatches.
      // Epoch cur-2 ended 25 s ago: inside the grace, so nobody's is missing yet.
      await store.upsertBatch({ agentId: B, epoch: cur - 3n, batchHash: id(1), root: id(2), slot: 11n });
      await store.setBatchStatus(B, cur - 3n, 'mismatch', id(3));
      // A challenge of A's batch by B.
      await store.upsertChallenge({
        address: 'Chal1111111111111111111111111111111111111111',
        agentId: A,
        epoch: cur - 3n,
        challenger: B,
        status: 'pending',
        slot: 12n,
        signature: 'sig1',
      });
      // Events: B speaks now (A and D stay silent 11+ min), A is slashed, A is in a dispute, A's
      // reliability falls by 0.2 (B's by 0.05), 11 of A's envelopes are dropped (3 of B's).
      await evaluator.refresh();
      bus.publish(ev('message', t, { sender: toHex(B) }));
      const slash = ev('stake_slashed', t, {
        agent: 'x',
        agentHex: toHex(A),
        signature: 'slashSig1',
        slot: 99,
        challengerUsdc: 'y',
        amount: '10000000',
        reward: '5000000',
        toTreasury: '5000000',
      });
      bus.publish(slash);
      const dispute = ev('dispute_raised', t, {
        envelopeId: 'ee'.repeat(32),
        conversationId: 'cc'.repeat(16),
        sender: toHex(A),
        recipient: toHex(C),
        disputant: toHex(A),
      });
      bus.publish(dispute);
      for (const [a, from, to] of [
        [A, 900_000, 700_000],
        [B, 900_000, 850_000],
      ] as const) {
        for (const v of [from, to])
          bus.publish(ev('reputation_update', t, { agent: toHex(a), reputation: { reliabilityScore: String(v) } }));
      }
      for (let i = 0; i < 11; i++) evaluator.dropped(toHex(A));
      for (let i = 0; i < 3; i++) evaluator.dropped(toHex(B));
      evaluator.dropped(toHex(C));

      const first = await evaluator.tick();
      const rows = await alerts(store, wl);
      assert.deepEqual(
        keyset(rows),
        [
          `batch_mismatch:b2:${cur - 3n}`,
          `batch_missing:a1:${cur - 3n}`,
          'challenged:a1:Chal1111111111111111111111111111111111111111',
          'challenged:b2:Chal1111111111111111111111111111111111111111',
          'deactivated:d4:',
          `dispute:a1:${'cc'.repeat(16)}`,
          'drops_rate:a1:',
          'lease_due:a1:',
          'lease_grace:a1:',
          'offline:a1:',
          'offline:d4:',
          'reputation_drop:a1:',
          'slashed:a1:slashSig1',
        ].sort(),
      );
      assert.equal(first.opened, rows.length);
      const byKey = new Map(rows.map((r) => [`${r.kind}:${r.agentHex.slice(0, 2)}`, r]));
      assert.match(
        byKey.get('lease_grace:a1')!.why,
        new RegExp(`paid through epoch ${cur - 1n} and the current epoch is ${cur}: 1 unpaid epoch in grace`),
      );
      assert.match(byKey.get('offline:a1')!.why, /^no envelope from alpha for 1\d\.\d min/);
      assert.match(
        byKey.get('reputation_drop:a1')!.why,
        /fell from 0\.900 to 0\.700 within 60 min \(by 0\.200, more than 0\.100\)/,
      );
      assert.match(byKey.get('drops_rate:a1')!.why, /^11 envelopes from alpha were dropped/);
      assert.match(
        byKey.get('slashed:a1')!.why,
        /10000000 base units of USDC \(5000000 to the challenger, 5000000 to the treasury\)/,
      );
      assert.equal(byKey.get('offline:a1')!.agentName, 'alpha');
      // One 'open' delivery per alert to the list's one webhook.
      for (const r of rows)
        assert.deepEqual(
          (await store.alerts.deliveriesOf(r.id)).map((d) => [d.event, d.status]),
          [['open', 'pending']],
          `${r.kind} ${r.agentHex}`,
        );

      // The same conditions and the same events again: nothing new.
      bus.publish(slash);
      bus.publish(dispute);
      await store.upsertChallenge({
        address: 'Chal1111111111111111111111111111111111111111',
        agentId: A,
        epoch: cur - 3n,
        challenger: B,
        status: 'pending',
        slot: 13n,
        signature: 'sig1b',
      });
      const again = await evaluator.tick();
      assert.deepEqual(again, { opened: 0, cleared: 0 });
      assert.equal((await alerts(store, wl)).length, rows.length);
      // The slash event also asked for an evaluation 250 ms later: let it run on these conditions,
      // not on the next step's (it would take part of that step's clearing).
      await new Promise((r) => setTimeout(r, 400));
      await evaluator.tick();

      // Now things get better: A pays, submits its batch, speaks, its challenge is resolved; two
      // minutes pass (the drop window empties).
      clock.set(t + 120_000);
      const t2 = clock.now();
      const cur2 = BigInt(Math.floor(t2 / 1000 / ES));
      await store.upsertLease({ agentId: A, paidThroughEpoch: cur2 + 1_000n, active: true, slot: 20n });
      await store.upsertLease({ agentId: D, paidThroughEpoch: cur2 + 500n, active: true, slot: 20n });
      await store.upsertBatch({ agentId: A, epoch: cur - 3n, batchHash: id(4), root: id(5), slot: 21n });
      // Everyone's batches of the epochs since (else those would be missing now).
      for (const a of [A, B, D])
        for (let e = cur - 2n; e < cur2; e++)
          await store.upsertBatch({ agentId: a, epoch: e, batchHash: id(6), root: id(7), slot: 21n });
      await store.upsertChallenge({
        address: 'Chal1111111111111111111111111111111111111111',
        agentId: A,
        epoch: cur - 3n,
        challenger: B,
        status: 'upheld',
        slot: 22n,
        signature: 'sig2',
      });
      for (const a of [A, B, D]) bus.publish(ev('message', t2, { sender: toHex(a) }));
      bus.publish(ev('reputation_update', t2, { agent: toHex(A), reputation: { reliabilityScore: '890000' } }));
      const second = await evaluator.tick();
      const after = await alerts(store, wl);
      assert.deepEqual(
        keyset(after, 'cleared'),
        [
          `batch_missing:a1:${cur - 3n}`,
          'challenged:a1:Chal1111111111111111111111111111111111111111',
          'challenged:b2:Chal1111111111111111111111111111111111111111',
          'deactivated:d4:',
          'drops_rate:a1:',
          'lease_due:a1:',
          'lease_grace:a1:',
          'offline:a1:',
          'offline:d4:',
          'reputation_drop:a1:',
        ].sort(),
      );
      // Resolution is an event of its own, for the target and for the challenger.
      assert.deepEqual(
        keyset(after, 'open'),
        [
          `batch_mismatch:b2:${cur - 3n}`,
          'challenge_resolved:a1:Chal1111111111111111111111111111111111111111',
          'challenge_resolved:b2:Chal1111111111111111111111111111111111111111',
          `dispute:a1:${'cc'.repeat(16)}`,
          'slashed:a1:slashSig1',
        ].sort(),
      );
      assert.equal(second.cleared, 10);
      const cleared = new Map(after.filter((a) => a.clearedAt).map((r) => [`${r.kind}:${r.agentHex.slice(0, 2)}`, r]));
      assert.match(
        cleared.get('lease_grace:a1')!.clearedWhy!,
        new RegExp(`lease of alpha paid through epoch ${cur2 + 1_000n} \\(current epoch ${cur2}\\)`),
      );
      assert.match(
        cleared.get('batch_missing:a1')!.clearedWhy!,
        new RegExp(`alpha submitted the batch of epoch ${cur - 3n} \\(slot 21, unverified\\)`),
      );
      assert.match(cleared.get('challenged:a1')!.clearedWhy!, /resolved: upheld/);
      assert.match(cleared.get('offline:a1')!.clearedWhy!, /alpha sent an envelope at .*, 0\.0 min ago/);
      assert.equal(
        cleared.get('deactivated:d4')!.clearedWhy,
        `lease of delta is active again, paid through epoch ${cur2 + 500n}`,
      );
      assert.equal(cleared.get('lease_grace:a1')!.clearedAt!.getTime(), t2);
      for (const r of after.filter((a) => a.clearedAt))
        assert.deepEqual(
          (await store.alerts.deliveriesOf(r.id)).map((d) => d.event),
          ['open', 'cleared'],
        );

      // A condition that returns opens a new alert (the cleared one keeps its record); an event
      // subject that returns does not.
      await store.upsertLease({ agentId: A, paidThroughEpoch: cur2 - 1n, active: true, slot: 30n });
      await store.upsertChallenge({
        address: 'Chal1111111111111111111111111111111111111111',
        agentId: A,
        epoch: cur - 3n,
        challenger: B,
        status: 'pending',
        slot: 31n,
        signature: 'sig3',
      });
      await evaluator.tick();
      const third = await alerts(store, wl);
      assert.equal(third.filter((a) => a.kind === 'lease_grace').length, 2);
      assert.equal(third.filter((a) => a.kind === 'lease_grace' && !a.clearedAt).length, 1);
      assert.equal(third.filter((a) => a.kind === 'challenged').length, 2, 'the same challenge does not alert twice');

      // Turning a rule off clears its open alerts.
      await svc.putRule(wl, token, 'lease_grace', { enabled: false });
      await evaluator.tick();
      const off = (await alerts(store, wl)).find(
        (a) => a.kind === 'lease_grace' && a.clearedWhy === 'the lease_grace rule was turned off',
      );
      assert.ok(off, 'cleared because the rule was turned off');
    } finally {
      await evaluator.stop();
    }
  },
  { dbPrefix: 'zx_alerts_eval', timeout: 180_000 },
);

testOnEachStore(
  'a noisy rule is throttled: alerts past the hourly count are stored, one notice is delivered instead',
  async (store) => {
    const { clock, ev: evaluator, svc, wl, token } = await setup(store, 2);
    try {
      const agents = [0x11, 0x12, 0x13, 0x14].map(id);
      const cur = BigInt(Math.floor(clock.now() / 1000 / ES));
      // Leases first: the store is written here without the indexer's events, so an evaluation
      // that a watch-set change starts must already find every lease.
      for (const [i, a] of agents.entries())
        await store.upsertLease({ agentId: a, paidThroughEpoch: cur - 1n - BigInt(i), active: true, slot: 1n });
      for (const a of agents) await svc.putItem(wl, token, 'agent', a);
      await svc.addWebhook(wl, token, { url: 'http://127.0.0.1:9/hook', format: 'slack' });
      await evaluator.tick();
      const rows = (await alerts(store, wl))
        .filter((a) => a.kind === 'lease_grace')
        .sort((x, y) => Number(x.id - y.id));
      assert.equal(rows.length, 4, 'every alert is stored');
      assert.deepEqual(
        rows.map((r) => r.throttled),
        [false, false, true, true],
      );
      const events = await Promise.all(
        rows.map(async (r) => (await store.alerts.deliveriesOf(r.id)).map((d) => d.event)),
      );
      assert.deepEqual(events, [['open'], ['open'], ['throttled'], []]);
      // Clearing a throttled alert delivers nothing either.
      for (const a of agents)
        await store.upsertLease({ agentId: a, paidThroughEpoch: cur + 10n, active: true, slot: 2n });
      await evaluator.tick();
      const after = await Promise.all(
        rows.map(async (r) => (await store.alerts.deliveriesOf(r.id)).map((d) => d.event)),
      );
      assert.deepEqual(after, [['open', 'cleared'], ['open', 'cleared'], ['throttled'], []]);
    } finally {
      await evaluator.stop();
    }
  },
  { dbPrefix: 'zx_alerts_throttle', timeout: 180_000 },
);

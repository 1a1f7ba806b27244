// lease_grace's hysteresis (kinds.ts LEASE_GRACE_HYSTERESIS) on a real store and the real
// evaluator: a lease that dips into grace for a second at every epoch boundary (an agent paying as
// each epoch starts) never alerts; one that stays in grace past a quarter epoch alerts once and
// stays open while it keeps paying late; it clears once paid ahead, or after a quiet epoch.
import assert from 'node:assert/strict';
import { createLiveBus } from '../observer/bus';
import { toHex } from '../protocol/hex';
import type { Store } from '../store';
import { testOnEachStore } from '../store/backends-testing';
import { startEvaluator } from './evaluator';
import { createAlertService, DEFAULT_CAPS } from './service';

const ES = 20;
const id = (b: number) => new Uint8Array(32).fill(b);
const JUST_IN_TIME = id(0xe1),
  LATE_THEN_AHEAD = id(0xe2),
  LATE_THEN_ON_TIME = id(0xe3);

testOnEachStore(
  'lease_grace: a boundary dip never alerts, a late payer ' +
    'alerts once and clears when paid ahead or after a quiet epoch',
  async (store: Store) => {
    const bus = createLiveBus();
    // Epoch boundaries well after the agents' rows were written (so nothing is "offline" first).
    const start = Math.ceil((Date.now() + 60_000) / (ES * 1000)) * ES * 1000;
    let t = start;
    const ev = startEvaluator({
      store: store.alerts,
      subscribe: bus.subscribe,
      epochSeconds: ES,
      now: () => t,
      tickMs: 3_600_000,
      ruleAlertsPerHour: 1_000,
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
    try {
      for (const a of [JUST_IN_TIME, LATE_THEN_AHEAD, LATE_THEN_ON_TIME]) await svc.putItem(wl, token, 'agent', a);
      await svc.putRule(wl, token, 'lease_grace', { enabled: true });
      let slot = 1n;
      const pay = (a: Uint8Array, through: bigint) =>
        store.upsertLease({ agentId: a, paidThroughEpoch: through, active: true, slot: slot++ });
      const rows = async () =>
        (await store.alerts.listAlerts({ watchlistId: wl, state: 'all', limit: 100 })).filter(
          (r) => r.kind === 'lease_grace',
        );
      const of = async (a: Uint8Array) => (await rows()).filter((r) => toHex(r.agent) === toHex(a));

      // Four epochs. Evaluations at 0.5, 3, 8, 13 and 18 s into each; the just-in-time agent pays at
      // 1 s, the late ones at 10 s (from the third epoch on, one of them pays on time instead).
      const e0 = BigInt(start / 1000 / ES);
      for (let i = 0n; i < 4n; i++) {
        const cur = e0 + i;
        for (const a of [JUST_IN_TIME, LATE_THEN_AHEAD, LATE_THEN_ON_TIME]) await pay(a, cur - 1n);
        for (const at of [500, 3_000, 8_000, 13_000, 18_000]) {
          t = start + Number(i) * ES * 1000 + at;
          if (at > 1_000) await pay(JUST_IN_TIME, cur);
          if (at > 10_000 || (i >= 2n && at > 1_000)) await pay(LATE_THEN_ON_TIME, cur);
          if (at > 10_000) await pay(LATE_THEN_AHEAD, cur);
          await ev.tick();
        }
      }
      assert.equal((await of(JUST_IN_TIME)).length, 0, 'a dip of a second at each boundary never alerts');
      const late = await of(LATE_THEN_AHEAD);
      assert.equal(late.length, 1, 'paying 10 s late each epoch: one alert, not one per epoch');
      assert.equal(late[0].clearedAt, null, 'it stays open while the agent keeps paying late');
      assert.match(late[0].why, /1 unpaid epoch in grace for 8 s/);
      const onTime = await of(LATE_THEN_ON_TIME);
      assert.equal(onTime.length, 1);
      assert.ok(onTime[0].clearedAt, 'an epoch without a long grace clears it');
      assert.match(onTime[0].clearedWhy!, /not in grace for 5 s or more during the last 20 s/);

      // Paid ahead: cleared at the next evaluation.
      t += 1_000;
      await pay(LATE_THEN_AHEAD, e0 + 5n);
      await ev.tick();
      const cleared = await of(LATE_THEN_AHEAD);
      assert.equal(cleared.length, 1);
      assert.ok(cleared[0].clearedAt);
      assert.match(cleared[0].clearedWhy!, new RegExp(`paid through epoch ${e0 + 5n} \\(current epoch ${e0 + 3n}\\)`));
    } finally {
      await ev.stop();
    }
  },
  { dbPrefix: 'zx_alerts_debounce', timeout: 60_000 },
);

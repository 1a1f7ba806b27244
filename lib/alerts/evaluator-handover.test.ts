// The alerts leader killed in the middle of a tick (server/leaders.ts hands the evaluator to a
// standby): a tick's alerts and their webhook deliveries are written in one transaction, so a
// process that dies after storing an alert and before queuing its delivery leaves neither, and the
// next leader opens the alert and queues its delivery once. Real store (PGlite and Postgres).
import assert from 'node:assert/strict';
import { createLiveBus } from '../observer/bus';
import type { Store } from '../store';
import { testOnEachStore } from '../store/backends-testing';
import { type EvaluatorOptions, startEvaluator } from './evaluator';
import { createAlertService, DEFAULT_CAPS } from './service';

const ES = 20;
const A = new Uint8Array(32).fill(0xa1);

testOnEachStore(
  'a leader killed between storing an alert and queuing its delivery leaves neither; the next leader does both once',
  async (store: Store) => {
    const bus = createLiveBus();
    const t = Math.ceil((Date.now() + 11 * 60_000) / (ES * 1000)) * ES * 1000 + 5_000;
    const svc = createAlertService({
      store: store.alerts,
      signatures: store.usedSignatures,
      caps: { ...DEFAULT_CAPS, rules: 50 },
      allowPrivateWebhooks: true,
    });
    const { id: wl, token } = await svc.create();
    await svc.putItem(wl, token, 'agent', A);
    await svc.putRule(wl, token, 'lease_grace', { enabled: true });
    await svc.addWebhook(wl, token, { url: 'http://127.0.0.1:9/hook', format: 'json' });
    // A's lease is in its grace epochs: the rule fires.
    await store.upsertLease({
      agentId: A,
      paidThroughEpoch: BigInt(Math.floor(t / 1000 / ES)) - 1n,
      active: true,
      slot: 1n,
    });
    const evaluator = (alerts: EvaluatorOptions['store']) =>
      startEvaluator({
        store: alerts,
        subscribe: bus.subscribe,
        epochSeconds: ES,
        now: () => t,
        tickMs: 3_600_000,
        ruleAlertsPerHour: 1_000,
        deliveriesPerHour: 1_000,
      });
    const stored = () => store.alerts.listAlerts({ watchlistId: wl, state: 'all', limit: 100 });

    // The first leader dies as its tick queues the deliveries (after the alerts were written).
    const dying: EvaluatorOptions['store'] = {
      ...store.alerts,
      atomically: (fn) =>
        store.alerts.atomically((tx) =>
          fn({
            ...tx,
            enqueueDeliveries: async () => {
              throw new Error('the leader was killed');
            },
          }),
        ),
    };
    const first = evaluator(dying);
    await assert.rejects(first.tick(), /killed/);
    await first.stop();
    assert.deepEqual(await stored(), [], 'no alert stored without its delivery');

    // The next leader starts from the database.
    const next = evaluator(store.alerts);
    try {
      const r = await next.tick();
      await next.tick();
      const alerts = await stored();
      assert.ok(
        r.opened >= 1 && alerts.some((a) => a.kind === 'lease_grace'),
        JSON.stringify(alerts.map((a) => a.kind)),
      );
      assert.equal(alerts.length, r.opened, 'each alert opened once');
      for (const a of alerts)
        assert.deepEqual(
          (await store.alerts.deliveriesOf(a.id)).map((d) => d.event),
          ['open'],
          `${a.kind}: one delivery queued`,
        );
    } finally {
      await next.stop();
    }
  },
  { dbPrefix: 'zx_alerts_handover' },
);

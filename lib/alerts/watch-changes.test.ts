// The evaluator runs in one process (the alerts leader, server/leaders.ts) while watchlists change
// through the API of any: a change made through another process's service reaches the
// evaluator's watch set (NOTIFY on the store), and a process that does not evaluate opens nothing.
import assert from 'node:assert/strict';
import { createLiveBus } from '../observer/bus';
import type { Store } from '../store';
import { testOnEachStore } from '../store/backends-testing';
import { DEFAULT_ALERTS_CONFIG, startAlerts } from './index';
import { until } from './testing';

testOnEachStore(
  "a watchlist changed through a standby's API reaches the leader's evaluator",
  async (store: Store) => {
    const config = { ...DEFAULT_ALERTS_CONFIG, allowPrivateWebhooks: true, publicUrl: 'http://127.0.0.1' };
    const start = (evaluate: boolean) =>
      startAlerts({ store, subscribe: createLiveBus().subscribe, epochSeconds: 20, config, evaluate });
    const leader = await start(true);
    const standby = await start(false);
    try {
      await leader.evaluator.refresh();
      assert.equal(leader.evaluator.watchedCount(), 0);
      const { id, token } = await standby.service.create();
      await standby.service.putItem(id, token, 'agent', new Uint8Array(32).fill(7));
      await until('the leader to see the new list', 5_000, async () => {
        await leader.evaluator.refresh();
        return leader.evaluator.watchedCount() === 1;
      });
      assert.deepEqual(await standby.evaluator.tick(), { opened: 0, cleared: 0 }, 'the standby evaluates nothing');
      assert.equal(standby.evaluator.watchedCount(), 0);
    } finally {
      await standby.stop();
      await leader.stop();
    }
  },
  { dbPrefix: 'zx_alerts_watch' },
);

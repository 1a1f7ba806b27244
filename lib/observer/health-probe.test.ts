/**
 * /api/health's database probe on PGlite: the single connection runs one thing at a time, so a
 * probe issued while a long transaction holds it would wait for the whole transaction. After a
 * first success the health report answers at once from that success (fresh-probe.ts).
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startObservatory } from './observatory';
import { makeBackend, quietLogger } from './testing';

test('health answers while a long PGlite transaction holds the connection', { timeout: 60_000 }, async () => {
  const backend = await makeBackend('pglite');
  const obs = await startObservatory({ config: backend.config, logger: quietLogger, verifyWorkers: 0 });
  try {
    assert.equal((await obs.health()).database.ok, true);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inside!: () => void;
    const entered = new Promise<void>((r) => {
      inside = r;
    });
    const tx = obs.store.chainTransaction(async () => {
      inside();
      await held;
    });
    await entered;
    const releaseAt = setTimeout(release, 3_000);
    try {
      const t0 = performance.now();
      const h = await obs.health();
      const ms = performance.now() - t0;
      assert.equal(h.database.ok, true);
      assert.ok(h.counts.agents >= 0);
      // Without reuse this waits the ~3 s the transaction holds the connection.
      assert.ok(ms < 1_500, `health took ${ms.toFixed(0)} ms behind a held transaction`);
    } finally {
      clearTimeout(releaseAt);
      release();
      await tx;
    }
  } finally {
    await obs.stop();
    await backend.cleanup();
  }
});

/**
 * The `drop` events a running observer publishes (one per reason per flush, with `count` and
 * `total`) match lib/wire's DropData, and the browser state adds their counts.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyEvent, initialState } from '../../components/live-state';
import { startObservatory } from '../observer/observatory';
import { makeBackend, quietLogger } from '../observer/testing';
import { encodeCanonical } from '../protocol/cbor';
import { type LiveEvent, LiveEventSchema } from './events';

test("a running observer's drop events validate and the browser adds their counts", async () => {
  const backend = await makeBackend('pglite');
  const obs = await startObservatory({ config: backend.config, logger: quietLogger, verifyWorkers: 0 });
  try {
    const seen: LiveEvent[] = [];
    obs.bus.subscribe((e) => seen.push(e));
    // Five items that are not envelopes: five `decode` drops in one flush.
    const body = encodeCanonical(Array.from({ length: 5 }, (_, i) => new Uint8Array([0xff, i])));
    const r = await obs.ingestUpload(body);
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.results.map((x) => x.ok),
      [false, false, false, false, false],
    );
    await obs.flush();
    const drops = seen.filter((e) => e.type === 'drop');
    assert.equal(drops.length, 1);
    const parsed = LiveEventSchema.parse(drops[0]);
    assert.deepEqual(parsed, drops[0]);
    assert.deepEqual(parsed.data, { reason: 'decode', count: 5, total: 5 });

    let s = initialState({
      stats: { byType: {}, drops: {} },
      envelopes: [],
      agents: [],
      graph: { nodes: [], links: [] },
      mesh: null,
      database: null,
    });
    s = applyEvent(s, parsed);
    assert.deepEqual(s.stats.drops, { decode: 5 });
  } finally {
    await obs.stop();
    await backend.cleanup();
  }
});

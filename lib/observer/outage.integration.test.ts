/**
 * A Postgres outage mid-ingest: the observer on a Postgres server of its own (never the shared
 * one), a publisher gossiping 200 envelopes/s, the server stopped (immediate: every connection
 * dropped at once) for 5 s and started again. The observer keeps running, /api/health says 503
 * with `store.ok: false` while it lasts, uploads get 503, and afterwards every envelope it
 * accepted is in the table exactly once, health is back to 200 and the LISTEN connection is back.
 * Needs the Postgres server binaries (the postgresql package); skipped with the reason without.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findPostgresBin, startThrowawayCluster } from '../store/testing';
import { runOutageScenario } from './outage/testing';

const skip = findPostgresBin()
  ? false
  : 'no Postgres server binaries (/usr/lib/postgresql/*/bin/initdb): outage test skipped';

test('the observer survives a Postgres outage and stores every accepted envelope exactly once', {
  skip,
  timeout: 180_000,
}, async () => {
  const cluster = await startThrowawayCluster();
  if (typeof cluster === 'string') throw new Error(cluster);
  try {
    const r = await runOutageScenario({ cluster, rate: 200, beforeMs: 2_000, outageMs: 5_000, afterMs: 1_500 });
    // Health during the outage: 503, the store section names it.
    assert.equal(r.during.status, 503);
    assert.equal(r.during.report.ok, false);
    assert.equal(r.during.report.store.ok, false);
    assert.ok(r.during.report.store.since && !Number.isNaN(Date.parse(r.during.report.store.since)), 'since is a date');
    assert.ok(r.during.report.store.lastError, 'lastError names the failure');
    assert.ok(r.during.report.store.buffered > 0, 'envelopes accepted during the outage are buffered');
    assert.equal(r.during.report.database.ok, false);
    assert.equal(r.uploadDuringStatus, 503);
    // After: healthy, nothing buffered, one outage seen.
    assert.equal(r.after.status, 200);
    assert.equal(r.after.report.store.ok, true);
    assert.equal(r.after.report.store.buffered, 0);
    assert.equal(r.after.report.store.outages, 1);
    assert.ok(r.listenRecovered, 'the LISTEN connection reconnected');
    // Nothing lost, nothing twice: the default buffer does not shed in a 5 s outage at 200/s.
    assert.equal(r.shed, 0);
    assert.ok(
      r.accepted > 0.95 * r.published,
      `accepted ${r.accepted} of ${r.published}; drops ${JSON.stringify(r.droppedByReason)}`,
    );
    assert.equal(r.stored, r.distinct, 'no envelope stored twice');
    assert.equal(r.stored, r.accepted, 'every accepted envelope stored');
    assert.equal(r.missing, r.published - r.accepted);
    assert.ok(r.bufferedPeak >= r.during.report.store.buffered);
  } finally {
    cluster.destroy();
  }
});

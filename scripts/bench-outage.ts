/**
 * `npm run bench:outage`: the observer through a Postgres outage at full rate. A throwaway
 * Postgres server of its own (initdb, never the shared one), one publisher gossiping signed
 * envelopes at OUTAGE_RATE (1,000/s) over loopback libp2p, the server stopped with
 * `pg_ctl stop -m immediate` after OUTAGE_BEFORE_S (5 s) for OUTAGE_SECONDS (30 s), started
 * again, OUTAGE_AFTER_S (5 s) more. Prints published / accepted / stored / duplicates / missing /
 * shed, the buffer's peak, the time to drain it after the restart, and PASS/FAIL: every
 * accepted envelope stored exactly once, nothing shed with the default buffer.
 */
import { loadavg } from 'node:os';
import { runOutageScenario } from '../lib/observer/outage/testing';
import { DEFAULT_INGEST_BUFFER } from '../lib/observer/store-outage';
import { startThrowawayCluster } from '../lib/store/testing';

const rate = Number(process.env.OUTAGE_RATE ?? 1_000);
const outageMs = Number(process.env.OUTAGE_SECONDS ?? 30) * 1000;
const beforeMs = Number(process.env.OUTAGE_BEFORE_S ?? 5) * 1000;
const afterMs = Number(process.env.OUTAGE_AFTER_S ?? 5) * 1000;

const cluster = await startThrowawayCluster();
if (typeof cluster === 'string') {
  console.error(`bench:outage needs a Postgres server of its own: ${cluster}`);
  process.exit(1);
}
const t0 = Date.now();
try {
  console.log(
    `bench:outage: ${rate}/s, Postgres at ${cluster.url} stopped ${outageMs / 1000}` +
      ` s after ${beforeMs / 1000} s; buffer ${DEFAULT_INGEST_BUFFER.maxEnvelopes}` +
      ` envelopes / ${DEFAULT_INGEST_BUFFER.maxBytes / 2 ** 20} ` +
      `MiB; load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );
  const r = await runOutageScenario({
    cluster,
    rate,
    beforeMs,
    outageMs,
    afterMs,
    verifyWorkers: process.env.VERIFY_WORKERS ? Number(process.env.VERIFY_WORKERS) : undefined,
    log: (l) => console.log(l),
  });
  const dup = r.stored - r.distinct;
  console.log(`health during: ${r.during.status} store ${JSON.stringify(r.during.report.store)}`);
  console.log(`health after:  ${r.after.status} store ${JSON.stringify(r.after.report.store)}`);
  console.log(
    `upload during the outage: ${r.uploadDuringStatus}; LISTEN back after: ` +
      `${r.listenRecovered}; drops ${JSON.stringify(r.droppedByReason)}`,
  );
  console.log(
    `published ${r.published}, accepted ${r.accepted}, stored ` +
      `${r.stored}, duplicates ${dup}, missing ${r.missing}, shed ${r.shed}`,
  );
  console.log(
    `buffer peak ${r.bufferedPeak} envelopes (${(r.bufferedPeak / rate).toFixed(1)}` +
      ` s of the rate); drained ${(r.drainMs / 1000).toFixed(2)}` +
      ` s after the restart; run ${((Date.now() - t0) / 1000).toFixed(0)} ` +
      `s; load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );
  const ok =
    dup === 0 &&
    r.shed === 0 &&
    r.stored === r.accepted &&
    r.during.status === 503 &&
    r.after.status === 200 &&
    r.listenRecovered;
  console.log(ok ? 'PASS every accepted envelope stored exactly once, none shed' : 'FAIL');
  process.exitCode = ok ? 0 : 1;
} finally {
  cluster.destroy();
}

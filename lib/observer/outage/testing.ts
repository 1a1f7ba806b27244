/**
 * The database-outage scenario shared by the integration test (short, slow) and
 * `npm run bench:outage` (1,000 envelopes/s, 30 s stop): an observer on a throwaway Postgres
 * server of its own, a publisher gossiping signed envelopes at a fixed rate over loopback
 * libp2p, the server stopped with `pg_ctl stop -m immediate` mid-ingest and started again, and
 * then the table counted against what the observer accepted. Health is read through the real
 * `GET /api/health` route handler, so the status code is checked too.
 */
import pg from 'pg';
import { registerServices } from '../../../app/_lib/services';
import { GET as getHealth } from '../../../app/api/health/route';
import { createMeshNode, TOPIC_BROADCAST } from '../../mesh';
import { encodeCanonical } from '../../protocol/cbor';
import { publicKeyFromSeed, sha256 } from '../../protocol/crypto';
import { buildEnvelope } from '../../protocol/envelope';
import { toHex } from '../../protocol/hex';
import { MsgType } from '../../protocol/types';
import type { ThrowawayCluster } from '../../store/testing';
import type { HealthReport } from '../../wire/views';
import { defaultObservatoryConfig } from '../config';
import { type Logger, type Observatory, startObservatory } from '../observatory';
import type { IngestBufferLimits } from '../store-outage';
import { waitFor } from '../testing';

export interface OutageScenario {
  cluster: ThrowawayCluster;
  /** Envelopes per second the publisher sends, before, during and after the outage. */
  rate: number;
  beforeMs: number;
  outageMs: number;
  afterMs: number;
  verifyWorkers?: number;
  ingestBuffer?: Partial<IngestBufferLimits>;
  log?: (line: string) => void;
}

export interface OutageOutcome {
  published: number;
  /** Envelopes the observer's validator accepted (mesh stats). */
  accepted: number;
  /** Rows in `envelope`, and distinct ids among them. */
  stored: number;
  distinct: number;
  /** Published envelopes with no row. */
  missing: number;
  /** `store.shed` of health: accepted but not queued (buffer full). */
  shed: number;
  bufferedPeak: number;
  /** GET /api/health while the server was down (the last poll), and after recovery. */
  during: { status: number; report: HealthReport };
  after: { status: number; report: HealthReport };
  /** An upload sent while the server was down: its status. */
  uploadDuringStatus: number;
  /** A NOTIFY sent after recovery reached the observer's LISTEN connection. */
  listenRecovered: boolean;
  /** From the server's start to the buffer empty, ms. */
  drainMs: number;
  droppedByReason: Record<string, number>;
  warnings: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function health(): Promise<{ status: number; report: HealthReport }> {
  const r = await getHealth();
  return { status: r.status, report: (await r.json()) as HealthReport };
}

/** Runs the scenario; the cluster is left running (the caller destroys it). */
export async function runOutageScenario(s: OutageScenario): Promise<OutageOutcome> {
  const log = s.log ?? (() => undefined);
  const warnings: string[] = [];
  const logger: Logger = {
    info: (...a) => {
      const l = a.map(String).join(' ');
      if (!l.includes('schema-engine')) log(`  observer: ${l}`);
    },
    warn: (...a) => {
      warnings.push(a.map(String).join(' '));
      log(`  observer warn: ${a.map(String).join(' ')}`);
    },
    error: (...a) => {
      warnings.push(a.map(String).join(' '));
      console.error(...a);
    },
  };
  const config = defaultObservatoryConfig({
    databaseUrl: s.cluster.url,
    listen: ['/ip4/127.0.0.1/tcp/0'],
    demoAgents: 0,
    port: 0,
    ingestBuffer: s.ingestBuffer,
  });
  // One publisher stands for a whole mesh here: no per-peer rate limit.
  const obs = await startObservatory({
    config,
    logger,
    verifyWorkers: s.verifyWorkers ?? 1,
    limits: { messagesPerSecond: 1e9, burst: 1e9 },
  });
  registerServices({ observatory: obs, reads: obs.store, config });
  const seed = sha256(new TextEncoder().encode('outage/publisher'));
  const sender = sha256(new TextEncoder().encode('outage/agent'));
  await obs.registry.register(sender, publicKeyFromSeed(seed));
  const pub = await createMeshNode({
    listen: ['/ip4/127.0.0.1/tcp/0'],
    bootstrap: obs.mesh.multiaddrs(),
    validate: () => 'ignore',
    dht: false,
    topics: [TOPIC_BROADCAST],
  });
  const probeChannel = `zx_outage_probe_${process.pid}`;
  const heard: string[] = [];
  const unlisten = await obs.store.listen(probeChannel, (p) => heard.push(p));
  const published = new Set<string>();
  let nonce = BigInt(Date.now()) * 1000n;
  const payload = new Uint8Array(300).fill(0x5a);
  const make = () =>
    buildEnvelope(
      {
        msgType: MsgType.BEACON,
        sender,
        timestamp: BigInt(Date.now()) * 1000n,
        nonce: ++nonce,
        conversationId: new Uint8Array(16),
        payload,
      },
      seed,
    );
  try {
    await waitFor('publisher in the observer mesh', () => pub.meshPeers(TOPIC_BROADCAST).length > 0);

    // The publisher, paced: envelope i goes at t0 + i / rate, signed just before it goes.
    let publishing = true;
    const t0 = performance.now();
    const publisher = (async () => {
      for (let i = 0; publishing; i++) {
        const wait = t0 + (i * 1000) / s.rate - performance.now();
        if (wait > 1) await sleep(wait);
        const e = make();
        published.add(toHex(e.id));
        await pub.publish(TOPIC_BROADCAST, e.bytes).catch(() => undefined);
      }
    })();

    await sleep(s.beforeMs);
    log(`stopping Postgres (immediate) after ${published.size} envelopes`);
    s.cluster.stop('immediate');
    const stoppedAt = performance.now();
    const down = await waitFor(
      'health to report the outage',
      async () => {
        const h = await health();
        return h.report.store.ok === false ? h : undefined;
      },
      15_000,
      100,
    );
    const probe = make();
    const upload = await obs.ingestUpload(encodeCanonical([probe.bytes]));
    let during = down;
    while (performance.now() - stoppedAt < s.outageMs) {
      await sleep(Math.min(1_000, s.outageMs - (performance.now() - stoppedAt)));
      during = await health();
    }
    log(
      `starting Postgres after ${((performance.now() - stoppedAt) / 1000).toFixed(1)}` +
        ` s down; ${during.report.store.buffered} buffered`,
    );
    s.cluster.start();
    const startedAt = performance.now();
    await waitFor('the buffer to drain', async () => (await health()).report.store.buffered === 0, 120_000, 50);
    const drainMs = performance.now() - startedAt;
    await sleep(s.afterMs);
    publishing = false;
    await publisher;
    await waitFor(
      'the last envelopes stored',
      async () => {
        await obs.flush();
        const h = await health();
        return h.report.store.buffered === 0 && obs.mesh.stats().accepted.gossip >= published.size - 5;
      },
      30_000,
      200,
    ).catch(() => undefined); // a shortfall shows in `missing`
    await obs.flush();

    await waitFor(
      'the LISTEN connection back',
      async () => {
        await obs.store.notify(probeChannel, 'after').catch(() => undefined);
        return heard.includes('after');
      },
      20_000,
      250,
    ).catch(() => undefined);
    // A gossip envelope still in flight when publishing stopped (forwarded by a mesh peer) can be
    // accepted after the wait above: settle again so `after`, `accepted` and the table agree.
    await waitFor(
      'nothing buffered',
      async () => {
        await obs.flush();
        return (await health()).report.store.buffered === 0;
      },
      10_000,
      100,
    ).catch(() => undefined);
    const c = new pg.Client({ connectionString: s.cluster.url });
    await c.connect();
    try {
      const { accepted, n, d } = await acceptedAndStored(obs, c);
      const after = await health();
      const ids = (await c.query<{ id: Buffer }>('SELECT id FROM envelope')).rows.map((r) => r.id.toString('hex'));
      const have = new Set(ids);
      let missing = 0;
      for (const id of published) if (!have.has(id)) missing++;
      return {
        published: published.size,
        accepted,
        stored: Number(n),
        distinct: Number(d),
        missing,
        shed: after.report.store.shed,
        bufferedPeak: after.report.store.bufferedPeak,
        during,
        after,
        uploadDuringStatus: upload.status,
        listenRecovered: heard.includes('after'),
        drainMs,
        droppedByReason: obs.dropCounts(),
        warnings,
      };
    } finally {
      await c.end();
    }
  } finally {
    await unlisten().catch(() => undefined);
    await pub.stop().catch(() => undefined);
    registerServices(undefined);
    await obs.stop();
  }
}

/**
 * What the observer accepted and what the table holds, read as one snapshot: a late forwarded
 * envelope accepted between the count and the read would otherwise count as accepted and not stored.
 */
async function acceptedAndStored(obs: Observatory, c: pg.Client): Promise<{ accepted: number; n: string; d: string }> {
  let accepted = -1;
  let counted = { n: '0', d: '0' };
  for (let i = 0; i < 20 && accepted !== obs.mesh.stats().accepted.gossip; i++) {
    accepted = obs.mesh.stats().accepted.gossip;
    await obs.flush();
    [counted] = (
      await c.query<{ n: string; d: string }>('SELECT count(*) AS n, count(DISTINCT id) AS d FROM envelope')
    ).rows;
  }
  return { accepted, ...counted };
}

/**
 * The observer (docs/architecture.md "Data flow"): composes its parts. The mesh node runs
 * {@link createValidation}'s live validator on everything from gossip and streams and hands what
 * it accepted (decoded envelope and id) to the ingest queue ({@link createCommitQueue}), whose
 * commits become live events on the bus and, through the {@link createNotifyPump}, for other
 * processes on the same Postgres; refusals go to the {@link createDropRecorder}; uploads are
 * {@link createUploadIngest}.
 */
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import {
  createMeshNode,
  MESH_TOPICS,
  type MeshAcceptedHandler,
  type MeshLimits,
  type MeshNode,
  type MeshValidateMeta,
  type MeshValidationOutcome,
} from '../mesh';
import type { Store } from '../store';
import { createLiveBus } from './bus';
import { createCommitQueue, ingestAccepted } from './commit';
import type { ObservatoryConfig } from './config';
import { createDropRecorder } from './drops';
import { freshProbe, HEALTH_FRESH_MS, HEALTH_REFRESH_MS, withTimeout } from './fresh-probe';
import { createUploadIngest, type UploadOptions, type UploadOutcome } from './ingest-upload';
import { createMeshHealth, type MeshHealth } from './mesh-health';
import { createNotifyPump } from './notify-pump';
import { CachedSignerRegistry, type SignerSource } from './registry';
import { openObserverStore, storeSignerSource } from './store-adapter';
import { createStoreGuard, type IngestBufferLimits } from './store-outage';
import type { HealthReport, LiveBus, LiveEvent } from './types';
import { createValidation } from './validation';

export type { UploadOutcome } from './ingest-upload';
export { LIVE_CHANNEL } from './notify-pump';

/** Minimal logger (console satisfies it). */
export interface Logger {
  info(...a: unknown[]): void;
  warn(...a: unknown[]): void;
  error(...a: unknown[]): void;
}

export interface StartObservatoryParams {
  config: ObservatoryConfig;
  logger?: Logger;
  /** Unix ms clock; live validation uses it for the timestamp check. Default Date.now. */
  clock?: () => number;
  /** Use this store instead of opening one from the config (it is then not closed on stop). */
  store?: Store;
  /** Where signer keys come from; default the store's local signer-key table. */
  signers?: SignerSource;
  /** libp2p identity of the observer node (protobuf bytes or 32-byte seed). */
  meshKey?: Uint8Array;
  /** Mesh limit overrides (tests, benches). */
  limits?: Partial<MeshLimits>;
  /**
   * Worker threads that check live envelopes' signatures (default: available cores − 1, at
   * least 1); 0 checks them on the event loop.
   */
  verifyWorkers?: number;
  /** Bounds of the in-memory ingest buffer (default the config's, else DEFAULT_INGEST_BUFFER). */
  ingestBuffer?: Partial<IngestBufferLimits>;
  /** Mesh health intervals: `timer: false` leaves rolling them to the caller (tests). */
  meshHealth?: { timer?: boolean; minuteMs?: number; hourMs?: number };
  /**
   * Metrics and mesh health (default true). `false` keeps neither: no registry for libp2p and
   * GossipSub, nothing measured per envelope (bench:ingest measures what they cost).
   */
  metrics?: boolean;
  /** Delays between retries of a write while the database is unreachable (tests). */
  retry?: { firstMs: number; lastMs: number };
}

export interface Observatory {
  readonly config: ObservatoryConfig;
  readonly store: Store;
  readonly bus: LiveBus;
  readonly mesh: MeshNode;
  readonly registry: CachedSignerRegistry;
  /** Identifies this process on the shared LISTEN/NOTIFY channel. */
  readonly origin: string;
  /** Unix ms (its clock) when this process's mesh node began receiving envelopes. */
  readonly startedAt: number;
  health(): Promise<HealthReport>;
  /**
   * POST /api/ingest/envelopes: a CBOR array of encoded envelopes, archive mode, per item (`window`: an epoch log's).
   */
  ingestUpload(body: Uint8Array, opts?: UploadOptions): Promise<UploadOutcome>;
  /** Drops counted by this process since start, per reason. */
  dropCounts(): Record<string, number>;
  /** Mesh health over time (mesh-health.ts); roll() ends the current interval. */
  readonly meshHealth: MeshHealth;
  /** This process's metrics in the Prometheus text format (libp2p, GossipSub, envelopes, process). */
  metrics(): Promise<{ contentType: string; text: string }>;
  /** Writes everything queued (envelopes and drops). */
  flush(): Promise<void>;
  /**
   * Tells `fn` the claimed sender (hex) of every live envelope validation refuses (the alert
   * evaluator's drop rate per agent); null stops. The sender is the one the bytes name, so a
   * forged envelope counts against the agent it names.
   */
  onDroppedSender(fn: ((senderHex: string, reason: string) => void) | null): void;
  stop(): Promise<void>;
}

/** The sender field of encoded envelope bytes (12-item array: version, msg_type, sender), or null. */
export function claimedSender(b: Uint8Array): string | null {
  if (b[0] !== 0x8c) return null;
  let p = 1;
  for (let i = 0; i < 2; i++) {
    const h = b[p];
    if (h === undefined || h > 0x1b) return null;
    p += h < 0x18 ? 1 : h === 0x18 ? 2 : h === 0x19 ? 3 : h === 0x1a ? 5 : 9;
  }
  if (b[p] !== 0x58 || b[p + 1] !== 0x20 || b.length < p + 34) return null;
  return Buffer.from(b.buffer, b.byteOffset + p + 2, 32).toString('hex');
}

/** How long /api/health waits for the database before it reports it unreachable. */
const HEALTH_PROBE_MS = 3_000;

/** Starts the observatory: store (unless given), registry, validation, mesh node, ingest, live bus. */
export async function startObservatory(params: StartObservatoryParams): Promise<Observatory> {
  const { config } = params;
  if (!config || typeof config !== 'object') throw new TypeError('params.config is required (see loadConfig)');
  const log: Logger = params.logger ?? console;
  const clock = params.clock ?? Date.now;
  const ownStore = !params.store;
  const store =
    params.store ?? (await openObserverStore(config, { info: (m) => log.info(m), warn: (m) => log.warn(m) }));
  const origin = randomUUID();
  const bus = createLiveBus((e) => log.error('live listener threw', e));
  const registry = new CachedSignerRegistry({ source: params.signers ?? storeSignerSource(store), now: clock });
  const pump = createNotifyPump({ store, origin, onError: (e) => log.warn('live NOTIFY failed', e) });
  const publish = (events: LiveEvent[]) => {
    for (const e of events) bus.publish(e);
    pump.send(events);
  };
  const guard = createStoreGuard({
    clock,
    limits: { ...config.ingestBuffer, ...params.ingestBuffer },
    retry: params.retry,
    onDown: (e) =>
      log.warn(
        `database unreachable: buffering accepted envelopes and retrying (${String((e as Error)?.message ?? e)})`,
      ),
    onUp: (ms) =>
      log.info(`database reachable again after ${(ms / 1000).toFixed(1)} s; writing the buffered envelopes`),
  });
  const queue = createCommitQueue(guard.wrap(store), { clock, publish });
  const drops = createDropRecorder({
    store,
    publish,
    clock,
    // During an outage the drop records wait for the next flush (bounded); no warning per 250 ms.
    onError: (e) => {
      if (!guard.failed(e)) log.warn('recording drops failed', e);
    },
  });
  const validation = createValidation({
    registry,
    clock,
    verifyWorkers: params.verifyWorkers ?? config.verifyWorkers,
    onWorkersUnavailable: (e) => log.warn('signature workers unavailable; checking on the event loop', e),
  });
  let stopped = false;
  let droppedSender: ((senderHex: string, reason: string) => void) | null = null;
  const noteDrop = (bytes: Uint8Array, out: MeshValidationOutcome): MeshValidationOutcome => {
    if (droppedSender !== null && typeof out === 'object' && out !== null && 'result' in out) {
      const s = claimedSender(bytes);
      if (s !== null) droppedSender(s, out.reason);
    }
    return out;
  };
  // Without a drop listener this is one call and one comparison per envelope.
  const validateLive = (
    bytes: Uint8Array,
    meta: MeshValidateMeta,
  ): Promise<MeshValidationOutcome> | MeshValidationOutcome => {
    const out = validation.validateLive(bytes, meta);
    if (droppedSender === null) return out;
    return out instanceof Promise ? out.then((r) => noteDrop(bytes, r)) : noteDrop(bytes, out);
  };

  const metered = params.metrics !== false;
  const metrics = new Registry();
  let meshHealth: MeshHealth | null = null;
  const measured = (inner: MeshAcceptedHandler): MeshAcceptedHandler =>
    !metered
      ? inner
      : (r, bytes, meta) => {
          meshHealth?.accepted(r.envelope.timestamp, meta.via === 'gossip' ? meta.topic : undefined);
          inner(r, bytes, meta);
        };
  const mesh = await createMeshNode({
    privateKey: params.meshKey,
    ...(metered ? { metrics, libp2pMetrics: config.libp2pMetrics === true } : {}),
    listen: config.listen,
    bootstrap: config.bootstrap,
    validate: validateLive,
    onAccepted: measured(
      ingestAccepted(queue, clock, (e) => log.error('ingest failed', e), {
        admit: (q, bytes) => guard.admit(q, bytes),
        shed: (reason, peer, via) => drops.count(reason, peer, via),
      }),
    ),
    onDrop: (reason, peer, via) => {
      if (metered) meshHealth?.dropped(reason, peer);
      drops.count(reason, peer, via);
    },
    limits: params.limits,
    now: clock,
    relay:
      config.relayReservations === 0
        ? false
        : config.relayReservations === undefined
          ? true
          : { maxReservations: config.relayReservations },
  });

  const collector = createMeshHealth({
    mesh,
    registry: metrics,
    topics: MESH_TOPICS,
    clock,
    ...params.meshHealth,
    ...(metered ? {} : { timer: false }),
    write: (rows) => store.writeMeshHealth(rows),
    prune: (res, before) => store.pruneMeshHealth(res, before),
    onError: (e) => {
      if (!guard.failed(e)) log.warn('writing mesh health failed', e);
    },
  });
  meshHealth = collector;
  const startedAt = clock();
  const unlisten = await pump.listen((events) => {
    for (const e of events) bus.publish(e);
  });
  const ingestUpload = createUploadIngest({
    validation,
    queue,
    drops,
    clock,
    epochSeconds: config.epochSeconds,
    gate: {
      get ok() {
        return guard.ok;
      },
      admit: (bytes) => guard.admit(queue, bytes),
    },
  });

  // Health polling must not queue behind the single PGlite connection's long work (fresh-probe.ts):
  // a success is reused for HEALTH_FRESH_MS, refreshed in the background after HEALTH_REFRESH_MS.
  const dbProbe = freshProbe(() => withTimeout(store.health(), HEALTH_PROBE_MS, 'the database'), {
    isOk: (h) => h.ok,
    freshMs: HEALTH_FRESH_MS,
    refreshMs: HEALTH_REFRESH_MS,
    now: clock,
  });

  async function health(): Promise<HealthReport> {
    let db: HealthReport['database'] = { ok: false, kind: store.kind };
    let counts: HealthReport['counts'] = { envelopes: 0, agents: 0, drops: 0, conversations: 0 };
    try {
      // During an outage every health request probes: its success is what ends the outage.
      const { value: h, reused } = await dbProbe.get({ wait: !guard.ok });
      db = h.error ? { ok: h.ok, kind: h.database, error: h.error } : { ok: h.ok, kind: h.database };
      counts = { envelopes: h.envelopes, agents: h.agents, drops: h.drops, conversations: h.conversations };
      // The probe reaching the database ends an outage (and wakes the retries) without waiting
      // for the next backoff step; a remembered answer proves nothing about now.
      if (h.ok && !reused) guard.succeeded();
      else if (h.error) guard.failed(new Error(h.error)); // the store reports its probe's failure as text
    } catch (e) {
      db = { ok: false, kind: store.kind, error: String((e as Error)?.message ?? e) };
      guard.failed(e);
    }
    const peers = stopped ? 0 : mesh.peers().length;
    const ingest = guard.status(queue);
    return {
      ok: db.ok && ingest.ok && !stopped,
      database: db,
      store: ingest,
      mesh: { peerId: mesh.peerId, peers, multiaddrs: stopped ? [] : mesh.multiaddrs() },
      counts,
    };
  }

  const observatory: Observatory = {
    config,
    store,
    bus,
    mesh,
    registry,
    origin,
    startedAt,
    health,
    ingestUpload,
    dropCounts: () => drops.counts(),
    meshHealth: collector,
    metrics: async () => ({ contentType: metrics.contentType, text: await metrics.metrics() }),
    onDroppedSender(fn) {
      droppedSender = fn;
    },
    async flush() {
      await queue.flush();
      await drops.flush();
      await pump.idle();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      validation.halt();
      pump.halt();
      await collector.stop();
      const left = queue.pending;
      if (!guard.ok && left > 0)
        log.warn(`stopping during a database outage: ${left} buffered envelopes are not stored`);
      guard.halt();
      await mesh.stop().catch((e) => log.warn('mesh stop failed', e));
      await validation.close();
      await queue.close().catch((e) => log.warn('ingest queue close failed', e));
      await drops.stop();
      await pump.idle();
      await unlisten().catch(() => undefined);
      if (ownStore) await store.close();
    },
  };
  log.info(`observer ${mesh.peerId} on ${mesh.multiaddrs().join(' ')} (${store.kind})`);
  return observatory;
}

/**
 * The observer (docs/architecture.md "Data flow"): composes its parts. The mesh node runs
 * {@link createValidation}'s live validator on everything from gossip and streams and hands what
 * it accepted (decoded envelope and id) to the ingest queue ({@link createCommitQueue}), whose
 * commits become live events on the bus and, through the {@link createNotifyPump}, for other
 * processes on the same Postgres; refusals go to the {@link createDropRecorder}; uploads are
 * {@link createUploadIngest}.
 */
import { randomUUID } from 'node:crypto';
import { createMeshNode, type MeshNode, type MeshLimits } from '../mesh';
import type { Store } from '../store';
import type { ObservatoryConfig } from './config';
import { createLiveBus } from './bus';
import { CachedSignerRegistry, type SignerSource } from './registry';
import { openObserverStore, storeSignerSource } from './store-adapter';
import type { HealthReport, LiveBus, LiveEvent } from './types';
import { createValidation } from './validation';
import { createCommitQueue, ingestAccepted } from './commit';
import { createNotifyPump } from './notify-pump';
import { createDropRecorder } from './drops';
import { createUploadIngest, type UploadOutcome } from './ingest-upload';

export { LIVE_CHANNEL } from './notify-pump';
export type { UploadOutcome } from './ingest-upload';

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
}

export interface Observatory {
  readonly config: ObservatoryConfig;
  readonly store: Store;
  readonly bus: LiveBus;
  readonly mesh: MeshNode;
  readonly registry: CachedSignerRegistry;
  /** Identifies this process on the shared LISTEN/NOTIFY channel. */
  readonly origin: string;
  health(): Promise<HealthReport>;
  /** POST /api/ingest/envelopes: a CBOR array of encoded envelopes, archive mode, per item. */
  ingestUpload(body: Uint8Array): Promise<UploadOutcome>;
  /** Drops counted by this process since start, per reason. */
  dropCounts(): Record<string, number>;
  /** Writes everything queued (envelopes and drops). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the observatory: store (unless given), registry, validation, mesh node, ingest, live bus. */
export async function startObservatory(params: StartObservatoryParams): Promise<Observatory> {
  const { config } = params;
  if (!config || typeof config !== 'object') throw new TypeError('params.config is required (see loadConfig)');
  const log: Logger = params.logger ?? console;
  const clock = params.clock ?? Date.now;
  const ownStore = !params.store;
  const store = params.store ?? (await openObserverStore(config, { info: (m) => log.info(m), warn: (m) => log.warn(m) }));
  const origin = randomUUID();
  const bus = createLiveBus((e) => log.error('live listener threw', e));
  const registry = new CachedSignerRegistry({ source: params.signers ?? storeSignerSource(store), now: clock });
  const pump = createNotifyPump({ store, origin, onError: (e) => log.warn('live NOTIFY failed', e) });
  const publish = (events: LiveEvent[]) => {
    for (const e of events) bus.publish(e);
    pump.send(events);
  };
  const queue = createCommitQueue(store, { clock, publish });
  const drops = createDropRecorder({ store, publish, clock, onError: (e) => log.warn('recording drops failed', e) });
  const validation = createValidation({
    registry,
    clock,
    verifyWorkers: params.verifyWorkers ?? config.verifyWorkers,
    onWorkersUnavailable: (e) => log.warn('signature workers unavailable; checking on the event loop', e),
  });
  let stopped = false;

  const mesh = await createMeshNode({
    privateKey: params.meshKey,
    listen: config.listen,
    bootstrap: config.bootstrap,
    validate: validation.validateLive,
    onAccepted: ingestAccepted(queue, clock, (e) => log.error('ingest failed', e)),
    onDrop: (reason, peer, via) => drops.count(reason, peer, via),
    limits: params.limits,
    now: clock,
    relay: config.relayReservations === 0 ? false : config.relayReservations === undefined ? true : { maxReservations: config.relayReservations },
  });

  const unlisten = await pump.listen((events) => { for (const e of events) bus.publish(e); });
  const ingestUpload = createUploadIngest({ validation, queue, drops, clock });

  async function health(): Promise<HealthReport> {
    let db: HealthReport['database'] = { ok: false, kind: store.kind };
    let counts: HealthReport['counts'] = { envelopes: 0, agents: 0, drops: 0, conversations: 0 };
    try {
      const h = await store.health();
      db = h.error ? { ok: h.ok, kind: h.database, error: h.error } : { ok: h.ok, kind: h.database };
      counts = { envelopes: h.envelopes, agents: h.agents, drops: h.drops, conversations: h.conversations };
    } catch (e) {
      db = { ok: false, kind: store.kind, error: String((e as Error)?.message ?? e) };
    }
    const peers = stopped ? 0 : mesh.peers().length;
    return { ok: db.ok && !stopped, database: db, mesh: { peerId: mesh.peerId, peers, multiaddrs: stopped ? [] : mesh.multiaddrs() }, counts };
  }

  const observatory: Observatory = {
    config, store, bus, mesh, registry, origin, health, ingestUpload,
    dropCounts: () => drops.counts(),
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

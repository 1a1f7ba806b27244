/**
 * The observatory runtime (DESIGN.md "Data flow", issue 3 "Observer"): the observer's mesh node
 * validates everything from gossip and streams in live mode (PROTOCOL.md §3, nonce state per
 * sender, time from the injected clock), uploads in archive mode, stores through the store's
 * batched ingest queue, counts drops per reason, and publishes live events for new envelopes
 * on the bus (and to other processes on the same Postgres through LISTEN/NOTIFY).
 */
import { randomUUID } from 'node:crypto';
import { createMeshNode, type MeshNode, type MeshValidateMeta, type MeshValidationOutcome, type MeshLimits } from '../mesh';
import { finishValidation, prepareValidation, validateEnvelopeSync, type PendingSignature, type SyncSignerRegistry } from '../protocol/validate';
import type { ValidationResult } from '../protocol/types';
import { toHex } from '../protocol/hex';
import type { ReputationState } from '../protocol/reputation';
import type { IngestItem, DropRecord } from '../store/types';
import { createIngestQueue, type IngestQueue, type Store } from '../store';
import type { ObservatoryConfig } from './config';
import { createLiveBus } from './bus';
import { CachedSignerRegistry } from './registry';
import { dropEvents, eventJson, eventsFor } from './events';
import { parseUploadBody } from './upload';
import { openObserverStore, storeSignerSource } from './store-adapter';
import type { SignerSource } from './registry';
import type { HealthReport, LiveBus, LiveEvent, UploadItemResult } from './types';
import { setObservatory, getObservatory } from './runtime';
import { createSignaturePool, defaultVerifyWorkers, type SignaturePool } from './verify-pool';

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
  /** Register in the process-global runtime slot (default true). */
  global?: boolean;
  /**
   * Worker threads that check live envelopes' signatures (default: available cores − 1, at
   * least 1); 0 checks them on the event loop.
   */
  verifyWorkers?: number;
}

export interface UploadOutcome {
  status: 200 | 400 | 413;
  results: UploadItemResult[];
  /** Set for 400/413: what is wrong with the body. */
  error?: string;
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

/** LISTEN/NOTIFY channel carrying live events between processes on one Postgres. */
export const LIVE_CHANNEL = 'zerox1_live';
const NOTIFY_MAX = 7_000; // Postgres caps a NOTIFY payload at 8,000 bytes.
const NOTIFY_PER_QUERY = 64; // payloads per NOTIFY query (~450 kB)
const NOTIFY_BACKLOG = 4_096; // payloads kept while the database is slow
const DROP_FLUSH_MS = 250;
const NONE: Uint8Array[] = [];

class RegistryMiss {
  constructor(readonly agentId: Uint8Array) {}
}

/** Starts the observatory: store, registry, mesh node, ingest pipeline, live bus. */
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
  const nonces = new Map<string, bigint>();
  const reputations = new Map<string, ReputationState>();
  const dropCounts: Record<string, number> = {};
  let dropBuf: DropRecord[] = [];
  let stopped = false;

  const publishLocal = (events: LiveEvent[]) => { for (const e of events) bus.publish(e); };
  // NOTIFY payloads wait here; one query at a time sends all that wait (one transaction, one
  // round trip), so a commit of 500 envelopes costs one NOTIFY query, not one per 7 kB chunk.
  const originTag = `{"origin":"${origin}",`;
  let notifyWaiting: string[] = [];
  let notifying: Promise<void> | undefined;
  const pumpNotify = async () => {
    while (notifyWaiting.length > 0) {
      const payloads = notifyWaiting.splice(0, NOTIFY_PER_QUERY);
      try {
        if (payloads.length === 1) await store.notify(LIVE_CHANNEL, payloads[0]);
        // Each payload is a JSON object, so together they are one JSON array: one text
        // parameter without per-element escaping; `json` keeps each element's text verbatim.
        else await store.query('SELECT pg_notify($1, p::text) FROM json_array_elements($2::json) WITH ORDINALITY AS x(p, i) ORDER BY i', [LIVE_CHANNEL, `[${payloads.join(',')}]`]);
      } catch (e) {
        if (!stopped) log.warn('live NOTIFY failed', e);
      }
    }
    notifying = undefined;
  };
  // PGlite is one process's embedded database: nobody else can LISTEN, so nothing is sent.
  const notifyOthers = (events: LiveEvent[]) => {
    if (events.length === 0 || store.kind !== 'postgres') return;
    let chunk: string[] = [];
    let size = 0;
    const send = () => {
      if (chunk.length === 0) return;
      notifyWaiting.push(`${originTag}"events":[${chunk.join(',')}]}`);
      chunk = [];
      size = 0;
    };
    for (const e of events) {
      const j = eventJson(e);
      if (j.length > NOTIFY_MAX) continue;
      if (size + j.length > NOTIFY_MAX) send();
      chunk.push(j);
      size += j.length + 1;
    }
    send();
    if (notifyWaiting.length > NOTIFY_BACKLOG) notifyWaiting = notifyWaiting.slice(-NOTIFY_BACKLOG); // a stalled database: keep the newest
    notifying ??= pumpNotify();
  };

  const queue: IngestQueue = createIngestQueue(store, {
    concurrency: store.kind === 'postgres' ? 2 : 1,
    // A partial batch goes after 2 ms (or at once when a slot is free and the timer fires):
    // at low rates latency stays near one commit; under load batches fill to 500 regardless.
    maxDelayMs: 2,
    onCommit(stored, result) {
      const pendingAgents = result.newAgents.length > 0 ? new Map(result.newAgents.map((a) => [toHex(a), a])) : undefined;
      const at = clock();
      const events: LiveEvent[] = [];
      for (const item of stored) {
        let joined: Uint8Array[] = NONE;
        if (pendingAgents !== undefined && pendingAgents.size > 0) {
          for (const who of [item.envelope.sender, item.envelope.recipient]) {
            const k = toHex(who);
            const a = pendingAgents.get(k);
            if (a) { if (joined === NONE) joined = []; joined.push(a); pendingAgents.delete(k); }
          }
        }
        for (const e of eventsFor(item, joined, reputations, at)) events.push(e);
      }
      publishLocal(events);
      notifyOthers(events);
    },
  });

  function countDrop(reason: string, peer: string | undefined, source: string, detail?: string): void {
    dropCounts[reason] = (dropCounts[reason] ?? 0) + 1;
    if (dropBuf.length < 10_000) dropBuf.push({ reason, peer, source, detail, at: new Date(clock()) });
  }

  async function flushDrops(): Promise<void> {
    if (dropBuf.length === 0) return;
    const batch = dropBuf;
    dropBuf = [];
    const per: Record<string, number> = {};
    for (const d of batch) per[d.reason] = (per[d.reason] ?? 0) + 1;
    const events: LiveEvent[] = dropEvents(per, dropCounts, clock());
    publishLocal(events);
    notifyOthers(events);
    try {
      await store.recordDrops(batch);
    } catch (e) {
      log.warn('recording drops failed', e);
    }
  }
  const dropTimer = setInterval(() => void flushDrops(), DROP_FLUSH_MS);
  dropTimer.unref?.();

  /** The signer registry's cache as lib/protocol's synchronous registry; a miss throws RegistryMiss. */
  const cachedKeys: SyncSignerRegistry = { keysFor: (id) => { const k = registry.peek(id); if (k === undefined) throw new RegistryMiss(id); return k; } };

  /** Runs `fn` with the cached keys; on a cache miss, loads the sender's keys and runs it once more. */
  async function withKeys<T>(fn: (keys: SyncSignerRegistry) => T): Promise<T> {
    try {
      return fn(cachedKeys);
    } catch (e) {
      if (!(e instanceof RegistryMiss)) throw e;
      await registry.load(e.agentId);
      return fn(cachedKeys);
    }
  }

  /** All of §3 on the event loop. */
  const check = (bytes: Uint8Array, mode: 'live' | 'archive'): Promise<ValidationResult> => withKeys((keys) => mode === 'live'
    ? validateEnvelopeSync(bytes, { mode, registry: keys, nonces, nowUs: BigInt(clock()) * 1000n })
    : validateEnvelopeSync(bytes, { mode, registry: keys }));

  /** §3 up to the signature (the rest runs in finishValidation once a worker has checked it). */
  const prepare = (bytes: Uint8Array): Promise<ValidationResult | PendingSignature> => withKeys((keys) => prepareValidation(bytes, keys));

  const verifyWorkers = params.verifyWorkers ?? config.verifyWorkers ?? defaultVerifyWorkers();
  let pool: SignaturePool | undefined;
  try {
    pool = verifyWorkers > 0 ? createSignaturePool({ workers: verifyWorkers }) : undefined;
  } catch (e) {
    log.warn('signature workers unavailable; checking on the event loop', e);
  }

  /**
   * Live validation. Without workers it is synchronous on a cache hit. With workers, the
   * signature is checked on a worker and the rest of §3 (nonce, timestamp at arrival) runs
   * when the pool resolves, which it does in submission order: either way envelopes of one
   * sender are finished in arrival order, as the per-sender nonce rule needs.
   */
  async function validateLive(bytes: Uint8Array, meta: MeshValidateMeta): Promise<MeshValidationOutcome> {
    if (stopped) return 'ignore';
    let r: ValidationResult;
    if (pool === undefined) {
      r = await check(bytes, 'live');
    } else {
      const nowUs = BigInt(clock()) * 1000n;
      const p = await prepare(bytes);
      if ('ok' in p) r = p;
      else {
        const verified = await pool.verify(p.signature, p.preimage, p.keys);
        r = finishValidation(p, verified, { mode: 'live', nonces, nowUs });
      }
    }
    if (!r.ok) return { result: r.reason === 'replay' || r.reason === 'timestamp' ? 'ignore' : 'reject', reason: r.reason };
    const item: IngestItem = { id: r.id, envelope: r.envelope, raw: bytes, source: meta.via, topic: meta.via === 'gossip' ? meta.topic : undefined, receivedAt: new Date(clock()) };
    queue.push(item).catch((e) => log.error('ingest failed', e));
    return 'accept';
  }

  const mesh = await createMeshNode({
    privateKey: params.meshKey,
    listen: config.listen,
    bootstrap: config.bootstrap,
    validate: validateLive,
    onDrop: (reason, peer, via) => countDrop(reason, peer, via),
    limits: params.limits,
    now: clock,
  });

  const unlisten = await store.listen(LIVE_CHANNEL, (payload) => {
    if (payload.startsWith(originTag)) return; // our own NOTIFY, echoed back: not parsed
    try {
      const m = JSON.parse(payload) as { origin: string; events: LiveEvent[] };
      if (m.origin !== origin && Array.isArray(m.events)) publishLocal(m.events);
    } catch {
      /* a foreign payload on our channel: ignore */
    }
  });

  async function ingestUpload(body: Uint8Array): Promise<UploadOutcome> {
    const parsed = parseUploadBody(body);
    if (!parsed.ok) return { status: parsed.status, results: [], error: parsed.message };
    const results: UploadItemResult[] = new Array(parsed.items.length);
    const pushes: Promise<void>[] = [];
    const store1 = (index: number, bytes: Uint8Array, r: ValidationResult): Promise<void> | undefined => {
      if (!r.ok) {
        countDrop(r.reason, undefined, 'upload', r.detail);
        results[index] = r.detail === undefined ? { index, ok: false, reason: r.reason } : { index, ok: false, reason: r.reason, detail: r.detail };
        return undefined;
      }
      const id = toHex(r.id);
      return queue.push({ id: r.id, envelope: r.envelope, raw: bytes, source: 'upload', receivedAt: new Date(clock()) }).then(
        (p) => { results[index] = { index, ok: true, id, duplicate: !p.inserted }; },
        (e) => { results[index] = { index, ok: false, reason: 'store_error', detail: String((e as Error)?.message ?? e) }; },
      );
    };
    for (let index = 0; index < parsed.items.length; index++) {
      const el = parsed.items[index];
      if (!el.ok) {
        countDrop('decode', undefined, 'upload', el.detail);
        results[index] = { index, ok: false, reason: 'decode', detail: el.detail };
        continue;
      }
      if (pool === undefined) {
        const push = store1(index, el.bytes, await check(el.bytes, 'archive'));
        if (push) pushes.push(push);
        continue;
      }
      // Archive mode has no order-dependent state: every signature of the upload is checked
      // on the workers at once, and the event loop stays free for other work meanwhile.
      const p = await prepare(el.bytes);
      if ('ok' in p) store1(index, el.bytes, p);
      else pushes.push(pool.verify(p.signature, p.preimage, p.keys).then((v) => store1(index, el.bytes, finishValidation(p, v, { mode: 'archive' }))));
    }
    await Promise.all(pushes);
    return { status: 200, results };
  }

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
    dropCounts: () => ({ ...dropCounts }),
    async flush() {
      await queue.flush();
      await flushDrops();
      await notifying;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(dropTimer);
      await mesh.stop().catch((e) => log.warn('mesh stop failed', e));
      await pool?.close();
      await queue.close().catch((e) => log.warn('ingest queue close failed', e));
      await flushDrops();
      await notifying;
      await unlisten().catch(() => undefined);
      if (ownStore) await store.close();
      if (getObservatory() === observatory) setObservatory(undefined);
    },
  };
  if (params.global !== false) setObservatory(observatory);
  log.info(`observer ${mesh.peerId} on ${mesh.multiaddrs().join(' ')} (${store.kind})`);
  return observatory;
}

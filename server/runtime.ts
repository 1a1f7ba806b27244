/**
 * Starts and stops everything behind the web app, in order: the store (opened here so the pages
 * get its read queries), the chain unless CHAIN=off (embedded unless SOLANA_RPC_URL; deployment,
 * chain-backed signer registry; ./chain.ts), the observer on that store validating with the chain
 * registry, the chain indexer publishing on the observer's bus, the dataset releases of every
 * finished epoch (./datasets.ts), and, once the HTTP server listens, the demo mesh (./demo.ts).
 * The indexer, the release writer and the alert evaluator run once per deployment: on Postgres
 * this process runs each only while it leads that role (./leaders.ts), on PGlite always.
 * The running parts reach Next's route handlers through the services registry
 * (app/_lib/services.ts), registered here and cleared on stop. Used by main.ts and tests.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadStore } from '../app/_lib/runtime';
import { getServices, registerServices, type Services } from '../app/_lib/services';
import type { DemoMesh } from '../lib/agents/demo-mesh';
import { type Alerts, startAlerts } from '../lib/alerts';
import { findOwnedIdentities, PublicKey } from '../lib/chain';
import { explorerChainOf } from '../lib/chain/explorer';
import { releaseChain } from '../lib/chain/release-evidence';
import { haggleHistory } from '../lib/indexer/haggle-history';
import { generateMeshKey } from '../lib/mesh';
import { withTimeout } from '../lib/observer/fresh-probe';
import { type Observatory, startObservatory } from '../lib/observer/observatory';
import { openObserverStore } from '../lib/observer/store-adapter';
import type { Leadership, Store } from '../lib/store';
import type { MemoryReport } from '../lib/wire/views';
import { type ChainRuntime, startChainRuntime } from './chain';
import type { ServerConfig } from './config';
import { datasetsDir, startDatasets } from './datasets';
import { demoRegistrationFile, startDemo } from './demo';
import { type Leaders, leadIndexer, startLeaders } from './leaders';
import type { Logger } from './logger';
import { releaseAnchorer } from './release-anchor';
import { createStartupTimeline, FIRST_ENVELOPE, type StartupTimeline } from './startup';
import { walletServices } from './wallet';

export interface Runtime {
  observatory: Observatory;
  store: Store;
  /** Null when CHAIN=off (tests of the web layer alone). */
  chain: ChainRuntime | null;
  demo: DemoMesh | null;
  /** What route handlers see (registered while the runtime runs). */
  services: Services;
  /** When each start-up phase ended (also in /api/health). */
  startup: StartupTimeline;
  /** Starts the demo mesh (once the HTTP server listens: agents upload to `observerUrl`). */
  startDemo(observerUrl: string): Promise<DemoMesh | null>;
  stop(): Promise<void>;
}

/** Starts store, chain, observer and indexer, and registers the services. */
export async function startRuntime(
  config: ServerConfig,
  log: Logger,
  startup: StartupTimeline = createStartupTimeline(log.child('startup')),
): Promise<Runtime> {
  // The schema engine logs every migration script in full: keep that for LOG_LEVEL=debug.
  const l = log.child('store');
  const store = await openObserverStore(config, {
    info: (m: string) => (m.startsWith('schema-engine:') ? l.debug(m) : l.info(m)),
    warn: (m: string) => l.warn(m),
  });
  store satisfies ReadStore;
  // The dispute desk counts the opinions of the reviewers named now (a list change applies to old opinions too).
  const recounted = await store.setDisputeReviewers(config.disputeReviewers.map((a) => new PublicKey(a).toBytes()));
  l.info(
    `disputes: ` +
      (config.disputeReviewers.length
        ? `${config.disputeReviewers.length} reviewers named (DISPUTE_REVIEWERS)`
        : 'no reviewers named (DISPUTE_REVIEWERS): opinions are kept but none counts') +
      (recounted ? `; ${recounted} opinions recounted` : ''),
  );
  startup.mark('store open');
  let chain: ChainRuntime | null = null;
  let observatory: Observatory | undefined;
  let indexerLead: Leadership | null = null;
  try {
    if (config.chain) {
      chain = await startChainRuntime({ config, store, log });
      startup.mark('chain up');
    }
    // The chain-backed registry replaces the local signer table: agent id = Token-2022 mint,
    // signer = the wallet holding it; the observer's cache forgets an agent when the chain
    // registry sees its NFT move.
    observatory = await startObservatory({
      config,
      logger: log.child('observer'),
      store,
      signers: chain?.registry,
      meshKey: await observerKey(config.dataDir),
    });
    startup.mark('observer up');
    // The first stored envelope is the moment the live page has something to show.
    const unsubscribe = observatory.bus.subscribe((e) => {
      if (e.type !== 'message') return;
      startup.mark(FIRST_ENVELOPE);
      unsubscribe();
    });
    if (chain) {
      const cache = observatory.registry;
      chain.onIdentityChange((agent) => cache.invalidate(agent.toBytes()));
      // On Postgres this process leads the indexer or stands by for it (./leaders.ts).
      indexerLead = await leadIndexer({
        url: config.databaseUrl,
        chain,
        bus: observatory.bus,
        log: log.child('indexer'),
      });
      startup.mark('indexer up');
      const mesh = observatory.mesh;
      // The observer dials agents it finds registered on SATI (never itself).
      chain.startDiscovery({
        dial: async (addr) => {
          if (!addr.includes(mesh.peerId)) await mesh.dial(addr);
        },
      });
    }
  } catch (err) {
    await indexerLead?.stop().catch(() => undefined);
    await observatory?.stop().catch(() => undefined);
    await chain?.stop().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw err;
  }
  // Watchlists and alerts (lib/alerts): the evaluator reads the observer's bus and the indexer's
  // tables, the outbox sends webhooks; a wallet's own agents come from the chain it holds them on.
  const connection = chain?.connection;
  let alerts: Alerts | undefined;
  let leaders: Leaders;
  try {
    alerts = await startAlerts({
      store,
      subscribe: (fn) => observatory!.bus.subscribe(fn),
      epochSeconds: config.epochSeconds,
      config: config.alerts,
      log: log.child('alerts'),
      // The evaluator runs in the alerts leader only (./leaders.ts); the outbox and the API everywhere.
      evaluate: false,
      ownedAgents: connection
        ? async (wallet) => (await findOwnedIdentities(connection, new PublicKey(wallet))).map((k) => k.toBytes())
        : undefined,
    });
    const a = alerts;
    observatory.onDroppedSender((sender) => a.evaluator.dropped(sender));
    startup.mark('alerts up');
    // Indexer, alert evaluator and release writer: led by one process per deployment (./leaders.ts).
    leaders = await startLeaders({
      url: config.databaseUrl,
      indexer: indexerLead,
      alerts,
      log,
      startReleases: () => releasesOf(config, store, chain, log),
    });
  } catch (err) {
    await (alerts ? alerts.stop() : indexerLead?.stop())?.catch(() => undefined);
    await observatory.stop().catch(() => undefined);
    await chain?.stop().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw err;
  }
  const datasets = {
    exportSource: () => store.exportSource(),
    dir: datasetsDir(config.dataDir),
    // Only the releases leader has a scheduler to report (a standby's /api/health has none).
    releaseStatus: () => leaders.releases()?.status(),
  };
  const memory = memoryOf(chain);
  const wallet = chain
    ? walletServices({
        chain,
        store,
        satiRegisterUrl: config.satiRegisterUrl,
        rpcLimits: config.rpcLimits,
        faucet: config.faucet,
      })
    : undefined;
  const services: Services =
    chain && wallet
      ? {
          observatory,
          reads: store,
          chain: chain.reads,
          wallet,
          explorer: explorerChainOf({
            cluster: wallet.clientConfig().cluster,
            chainRpcUrl: chain.rpcUrl,
            publicRpcUrl: config.publicRpcUrl,
          }),
          config,
          datasets,
          startup: startup.phases,
          registrationFile: (hex) => demoRegistrationFile(runtime.demo, hex),
          memory,
          alerts: alerts.service,
          leaders: () => leaders.status(),
          disputeReviewers: config.disputeReviewers,
        }
      : {
          observatory,
          reads: store,
          config,
          datasets,
          startup: startup.phases,
          memory,
          alerts: alerts.service,
          leaders: () => leaders.status(),
          disputeReviewers: config.disputeReviewers,
        };
  registerServices(services);

  const obs = observatory;
  const runtime: Runtime = {
    observatory: obs,
    store,
    chain,
    demo: null,
    services,
    startup,
    async startDemo(observerUrl) {
      if (runtime.demo) return runtime.demo;
      runtime.demo = await startDemo({ config, observatory: obs, chain, observerUrl, log, startup });
      return runtime.demo;
    },
    async stop() {
      if (getServices() === services) registerServices(undefined);
      services.wallet?.close?.();
      await leaders.stop();
      await alerts.stop().catch((e: unknown) => log.warn('alerts stop failed', e));
      await runtime.demo?.stop().catch((e: unknown) => log.warn('demo mesh stop failed', e));
      await obs.stop().catch((e: unknown) => log.warn('observer stop failed', e));
      await chain?.stop().catch((e: unknown) => log.warn('chain stop failed', e));
      await store.close().catch((e: unknown) => log.warn('store close failed', e));
    },
  };
  return runtime;
}

/** The process's memory for /api/health, with the embedded chain thread's heap when there is one. */
function memoryOf(chain: ChainRuntime | null): () => Promise<MemoryReport> {
  const threadMemory = chain?.threadMemory ?? null;
  return async () => {
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    const chainThread = threadMemory
      ? await withTimeout(threadMemory(), 1_000, 'the chain thread').catch(() => undefined)
      : undefined;
    return { rss, heapUsed, external, arrayBuffers, ...(chainThread ? { chainThread } : {}) };
  };
}

/**
 * Dataset releases per finished epoch into <DATA_DIR>/datasets (./datasets.ts); on chain each
 * sender's signer evidence and the epoch's accounts are read from the chain by SATI's rule.
 */
function releasesOf(config: ServerConfig, store: Store, chain: ChainRuntime | null, log: Logger) {
  return startDatasets({
    dataDir: config.dataDir,
    store,
    registry: chain?.registry,
    log: log.child('datasets'),
    chain: chain
      ? {
          ...releaseChain(chain.connection, chain.registry.sati),
          haggleEvents: (a: string) => haggleHistory(chain.connection, a),
        }
      : undefined,
    anchorWith: chain ? releaseAnchorer(chain.connection, chain.embedded) : undefined,
  });
}

/**
 * The observer's libp2p key, kept in the data folder: its peer id stays the same across restarts,
 * so peers and the mesh-health rows it writes (one observer per peer id) keep knowing it.
 */
async function observerKey(dataDir: string): Promise<Uint8Array> {
  const path = join(dataDir, 'observer.key');
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const key = await generateMeshKey();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path, key, { mode: 0o600 });
  return key;
}

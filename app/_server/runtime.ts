/**
 * Starts and stops everything behind the web app (issue 3 "one server process"): the store
 * (opened here so the pages can use its read queries), the observer on that store, and the demo
 * mesh when `demoAgents` > 0. Used by server.ts and by tests.
 */
import { openStore, type Store } from '../../lib/store';
import { adaptStore } from '../../lib/observer/store-adapter';
import { startObservatory, type Observatory } from '../../lib/observer/observatory';
import { startDemoMesh, type DemoMesh } from '../../lib/agents/demo-mesh';
import type { ObservatoryConfig } from '../../lib/observer/config';
import { setReadStore, type ReadStore } from '../_lib/runtime';
import type { Logger } from './logger';

export interface Runtime {
  observatory: Observatory;
  store: Store;
  demo: DemoMesh | null;
  /** Starts the demo mesh (once the HTTP server listens: agents upload to `observerUrl`). */
  startDemo(observerUrl: string): Promise<DemoMesh | null>;
  stop(): Promise<void>;
}

export async function startRuntime(config: ObservatoryConfig, log: Logger): Promise<Runtime> {
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    epochSeconds: config.epochSeconds,
    logger: (() => {
      const l = log.child('store');
      // The schema engine logs every migration script in full: keep that for LOG_LEVEL=debug.
      return { info: (m: string) => (m.startsWith('schema-engine:') ? l.debug(m) : l.info(m)), warn: (m: string) => l.warn(m) };
    })(),
  });
  store satisfies ReadStore;
  let observatory: Observatory;
  try {
    observatory = await startObservatory({ config, logger: log.child('observer'), store: adaptStore(store as unknown as Record<string, unknown>) });
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  setReadStore(store);

  const runtime: Runtime = {
    observatory,
    store,
    demo: null,
    async startDemo(observerUrl) {
      if (config.demoAgents === 0 || runtime.demo) return runtime.demo;
      const bootstrap = observatory.mesh.multiaddrs().filter((a) => a.includes('/tcp/') && !a.includes('/ws'));
      runtime.demo = await startDemoMesh({
        count: config.demoAgents,
        bootstrap: bootstrap.length ? bootstrap : observatory.mesh.multiaddrs(),
        observerUrl,
        epochSeconds: config.epochSeconds,
        register: (agentId, publicKey) => observatory.registry.register(agentId, publicKey),
      });
      log.info(`demo mesh: ${runtime.demo.agents.length} agents (${runtime.demo.agents.map((a) => `${a.strategy}${a.misbehaving ? '*' : ''}`).join(', ')}; * misbehaves)`);
      return runtime.demo;
    },
    async stop() {
      setReadStore(undefined);
      await runtime.demo?.stop().catch((e: unknown) => log.warn('demo mesh stop failed', e));
      await observatory.stop().catch((e: unknown) => log.warn('observer stop failed', e));
      await store.close().catch((e: unknown) => log.warn('store close failed', e));
    },
  };
  return runtime;
}

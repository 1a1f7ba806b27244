/**
 * Starts and stops everything behind the web app (issue 3 "one server process"; issue 5
 * "Startup"): the store (opened here so the pages can use its read queries), the chain (embedded
 * unless SOLANA_RPC_URL; deployment, chain-backed signer registry, indexer; app/_server/chain.ts),
 * the observer on that store validating with the chain registry, and the demo mesh when
 * `demoAgents` > 0 (agents with on-chain identities when the chain has a deployment we control).
 * Used by server.ts and by tests.
 */
import type { Store } from '../lib/store';
import { openObserverStore } from '../lib/observer/store-adapter';
import { startObservatory, type Observatory } from '../lib/observer/observatory';
import { startDemoMesh, type DemoMesh } from '../lib/agents/demo-mesh';
import type { ObservatoryConfig } from '../lib/observer/config';
import { setChainReads, setReadStore, type ReadStore } from '../app/_lib/runtime';
import type { Logger } from './logger';
import { startChainRuntime, type ChainRuntime } from './chain';
import { createDemoIdentities } from '../lib/chain/node/deployment';
import { startDatasets } from './datasets';

export interface Runtime {
  observatory: Observatory;
  store: Store;
  /** Null when CHAIN=off (tests of the web layer alone). */
  chain: ChainRuntime | null;
  demo: DemoMesh | null;
  /** Starts the demo mesh (once the HTTP server listens: agents upload to `observerUrl`). */
  startDemo(observerUrl: string): Promise<DemoMesh | null>;
  stop(): Promise<void>;
}

export async function startRuntime(config: ObservatoryConfig, log: Logger): Promise<Runtime> {
  // The schema engine logs every migration script in full: keep that for LOG_LEVEL=debug.
  const l = log.child('store');
  const store = await openObserverStore(config, { info: (m: string) => (m.startsWith('schema-engine:') ? l.debug(m) : l.info(m)), warn: (m: string) => l.warn(m) });
  store satisfies ReadStore;
  let chain: ChainRuntime | null = null;
  let observatory: Observatory;
  try {
    if (process.env.CHAIN !== 'off') chain = await startChainRuntime({ config, store, log });
    // The chain-backed registry replaces the local signer table (issue 5 "Identity"): agent id =
    // Token-2022 mint, signer = the wallet holding it; the observer's cache forgets an agent
    // when the chain registry sees its NFT move.
    const signers = chain?.registry;
    observatory = await startObservatory({ config, logger: log.child('observer'), store, signers });
    if (chain) {
      const cache = observatory.registry;
      chain.onIdentityChange((agent) => cache.invalidate(agent.toBytes()));
      await chain.startIndexer(observatory.bus);
    }
  } catch (err) {
    await chain?.stop().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw err;
  }
  setReadStore(store);
  if (chain) setChainReads(chain.reads);
  // Dataset releases per finished epoch into <DATA_DIR>/datasets (server/datasets.ts); signer
  // keys from the same registry the observer validates with.
  const datasets = startDatasets({ dataDir: config.dataDir, store, registry: chain?.registry, log: log.child('datasets') });

  const runtime: Runtime = {
    observatory,
    store,
    chain,
    demo: null,
    async startDemo(observerUrl) {
      if (config.demoAgents === 0 || runtime.demo) return runtime.demo;
      const bootstrap = observatory.mesh.multiaddrs().filter((a) => a.includes('/tcp/') && !a.includes('/ws'));
      const dep = chain?.deployment;
      const onChain = chain && dep?.admin ? {
        rpcUrl: chain.rpcUrl,
        wsUrl: chain.wsUrl,
        usdcMint: dep.config.usdcMint.toBase58(),
        treasury: dep.config.treasury.toBase58(),
        stakeVault: dep.config.stakeVault.toBase58(),
        epochSeconds: Number(dep.config.epochSeconds),
        createIdentities: async (seeds: Uint8Array[]) => (await createDemoIdentities(chain.connection, { admin: dep.admin!, config: dep.config, seeds, usdc: 1_000_000_000n })).map((x) => x.agent.toBytes()),
      } : undefined;
      runtime.demo = await startDemoMesh({
        count: config.demoAgents,
        bootstrap: bootstrap.length ? bootstrap : observatory.mesh.multiaddrs(),
        observerUrl,
        epochSeconds: onChain?.epochSeconds ?? config.epochSeconds,
        // Without a chain the agents register in the local signer table; on chain their
        // identities are NFTs the chain registry resolves.
        register: chain ? undefined : (agentId, publicKey) => observatory.registry.register(agentId, publicKey),
        chain: onChain,
        onReport: (i, m) => { if (m.t === 'chain') log.child('demo').info(`agent ${i}: ${m.message}`); else if (m.t === 'error' && /chain/.test(m.message)) log.child('demo').warn(`agent ${i}: ${m.message}`); },
      });
      log.info(`demo mesh: ${runtime.demo.agents.length} agents (${runtime.demo.agents.map((a) => `${a.strategy}${a.misbehaving ? '*' : ''}`).join(', ')}; * misbehaves)`);
      return runtime.demo;
    },
    async stop() {
      setReadStore(undefined);
      setChainReads(undefined);
      await datasets.stop().catch((e: unknown) => log.warn('dataset releases stop failed', e));
      await runtime.demo?.stop().catch((e: unknown) => log.warn('demo mesh stop failed', e));
      await chain?.indexer?.stop().catch((e: unknown) => log.warn('indexer stop failed', e));
      await observatory.stop().catch((e: unknown) => log.warn('observer stop failed', e));
      await chain?.stop().catch((e: unknown) => log.warn('chain stop failed', e));
      await store.close().catch((e: unknown) => log.warn('store close failed', e));
    },
  };
  return runtime;
}

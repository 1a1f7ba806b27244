/**
 * The chain side of the one observatory process (docs/app.md "Demo on chain"): the embedded
 * chain on CHAIN_PORT (default 8899, data in `<DATA_DIR>/chain`) unless SOLANA_RPC_URL names a
 * cluster, the deployment (local USDC mint, program configs; idempotent across restarts), the
 * chain-backed signer registry the observer validates with, the chain indexer writing to the
 * store and publishing on the live bus, and the read functions the REST routes call (handed to
 * them through the services registry; the routes never import @solana/* or litesvm).
 */
import { join } from 'node:path';
import type { Connection, PublicKey } from '@solana/web3.js';
import { PublicKey as Key } from '@solana/web3.js';
import type { ChainReads } from '../app/_lib/runtime';
import { type ClusterConfig, EMBEDDED_CLUSTER } from '../lib/chain/cluster';
import { findIdentityHolder } from '../lib/chain/identity';
import { type Deployment, ensureDeployment } from '../lib/chain/node/deployment';
import { ChainSignerRegistry } from '../lib/chain/node/registry';
import type { ThreadMemory } from '../lib/devchain/thread';
import { type ChainIndexer, type IndexerBus, startChainIndexer } from '../lib/indexer/index';
import {
  batchesPageJson,
  challengesPageJson,
  listBatchesJson,
  listChallengesJson,
  parseAgentParam,
  reputationJson,
} from '../lib/indexer/queries';
import { freshProbe, HEALTH_FRESH_MS, HEALTH_REFRESH_MS, withTimeout } from '../lib/observer/fresh-probe';
import type { Store } from '../lib/store';
import { satiReputationOf } from '../lib/wire';
import type { ServerConfig } from './config';
import { type SatiDiscovery, startSatiDiscovery } from './discovery';
import type { Logger } from './logger';
import { type OpenChainResult, openChain } from './open-chain';

/** How long /api/health waits for the chain's slot before it reports the chain unreachable. */
const CHAIN_PROBE_MS = 3_000;

export interface ChainRuntime {
  connection: Connection;
  rpcUrl: string;
  wsUrl: string | undefined;
  embedded: boolean;
  /** The cluster row the process acts on (lib/chain/cluster.ts). */
  cluster: ClusterConfig;
  /** Writes a fixture account on the embedded chain (SAS attestations of the demo); null on a cluster. */
  writeAccount:
    | ((address: string, account: { lamports: bigint; data: Uint8Array; owner: string }) => Promise<void>)
    | null;
  /** The embedded chain's account that pays airdrops (null on a cluster). */
  faucetAccount: PublicKey | null;
  /** The embedded chain thread's memory (null on a cluster). */
  threadMemory: (() => Promise<ThreadMemory>) | null;
  deployment: Deployment | null;
  registry: ChainSignerRegistry;
  indexer: ChainIndexer | null;
  reads: ChainReads;
  /** Called when an identity the registry follows changes owner or disappears. */
  onIdentityChange(fn: (agent: PublicKey) => void): void;
  /** Discovery from SATI, once started. */
  discovery: SatiDiscovery | null;
  /** Starts discovery from SATI (after the observer exists: it dials on the observer's mesh node). */
  startDiscovery(p: { dial(multiaddr: string): Promise<unknown> }): SatiDiscovery;
  /** Starts the indexer (after the observer exists: it publishes on the observer's bus). */
  startIndexer(bus: IndexerBus): Promise<ChainIndexer>;
  stop(): Promise<void>;
}

/**
 * The chain reads that come from the store's index alone (batches, challenges, reputation, an
 * agent's chain section, the overview's totals): what the REST routes and pages call, the same
 * with or without a chain node attached (bench:query serves the agent page from them).
 */
export function storeChainReads(
  store: Store,
  epochSeconds: bigint,
): Pick<
  ChainReads,
  | 'parseAgent'
  | 'listBatches'
  | 'listChallenges'
  | 'batchesPage'
  | 'challengesPage'
  | 'reputation'
  | 'agentChain'
  | 'overview'
> {
  return {
    parseAgent: (s) => parseAgentParam(s),
    listBatches: (q) => listBatchesJson(store, q),
    listChallenges: (q) => listChallengesJson(store, q),
    batchesPage: (q) => batchesPageJson(store, q),
    challengesPage: (q) => challengesPageJson(store, q),
    reputation: (agent) => reputationJson(store, agent, { epochSeconds }),
    async agentChain(agent) {
      // One agent's rows by index: its stake and lease, its newest 50 batches.
      const [{ stake, lease }, page, challenges] = await Promise.all([
        store.agentStakeLease(agent),
        batchesPageJson(store, { agent, sort: 'epoch', limit: 50 }),
        listChallengesJson(store, { agent }),
      ]);
      return {
        stake: stake ? { amount: stake.amount.toString(), status: stake.status, slot: stake.slot.toString() } : null,
        lease: lease
          ? {
              paidThroughEpoch: lease.paidThroughEpoch.toString(),
              lastPaidEpoch: lease.lastPaidEpoch?.toString() ?? null,
              missedEpochs: lease.missedEpochs,
              active: lease.active,
            }
          : null,
        batches: page.batches,
        challenges,
      };
    },
    async overview() {
      const totals = await store.chainTotals();
      const all = await listChallengesJson(store, {});
      const last = all.length ? all[all.length - 1] : null;
      return {
        ...totals,
        lastChallenge: last
          ? { address: last.address, agent: last.agent, epoch: last.epoch, status: last.status }
          : null,
      };
    },
  };
}

/**
 * Opens the chain the configuration names (the embedded one on `chainPort`, or on an ephemeral
 * port when that one is taken), makes sure the programs are deployed, and prepares the registry
 * and the reads. The indexer starts later ({@link ChainRuntime.startIndexer}).
 */
export async function startChainRuntime(p: {
  config: Pick<
    ServerConfig,
    'dataDir' | 'epochSeconds' | 'solanaRpcUrl' | 'solanaWsUrl' | 'chainPort' | 'photonUrl'
  > & { cluster?: ClusterConfig; discoveryAllowPrivate?: boolean };
  store: Store;
  log: Logger;
}): Promise<ChainRuntime> {
  const { config, store } = p;
  const cluster = config.cluster ?? EMBEDDED_CLUSTER;
  const log = p.log.child('chain');
  const dataDir = join(config.dataDir, 'chain');
  const fields = (l: (m: string) => void) => (msg: string, f?: Record<string, unknown>) =>
    l(f ? `${msg} ${JSON.stringify(f)}` : msg);
  const logger = { info: fields(log.info), warn: fields(log.warn), error: fields(log.error) };
  const chainEnv = { SOLANA_RPC_URL: config.solanaRpcUrl, SOLANA_WS_URL: config.solanaWsUrl };
  let port = config.chainPort;
  let chain: OpenChainResult;
  try {
    chain = await openChain({ env: chainEnv, embedded: { port, dataDir, logger } });
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code !== 'EADDRINUSE' && !/EADDRINUSE/.test(String((e as Error)?.message ?? e)))
      throw e;
    log.warn(`port ${port} is in use: embedded chain on an ephemeral port instead (set CHAIN_PORT)`);
    port = 0;
    chain = await openChain({ env: chainEnv, embedded: { port, dataDir, logger } });
  }
  const { connection } = chain;
  const embedded = chain.embedded !== null;
  log.info(
    `${embedded ? 'embedded chain' : 'cluster'} at ${chain.endpoint.rpcUrl}${embedded ? ` (data in ${dataDir})` : ''}`,
  );

  let deployment: Deployment | null = null;
  try {
    deployment = await ensureDeployment({
      connection,
      dataDir: embedded ? dataDir : undefined,
      epochSeconds: BigInt(config.epochSeconds),
      create: embedded,
      logger: log,
    });
  } catch (e) {
    if (embedded) {
      await chain.close().catch(() => undefined);
      throw e;
    }
    log.warn(`no 0x01 deployment on the cluster: demo agents stay off chain (${(e as Error)?.message ?? e})`);
  }
  if (!embedded && deployment && cluster.usdcMint && !deployment.config.usdcMint.equals(cluster.usdcMint)) {
    log.warn(
      `stake_lock's Config names USDC mint ${deployment.config.usdcMint.toBase58()}, the ${cluster.name}` +
        ` table ${cluster.usdcMint.toBase58()} (USDC_MINT): amounts are read in the Config's mint`,
    );
  }

  let identityChanged: ((agent: PublicKey) => void) | undefined;
  const registry = new ChainSignerRegistry({
    connection,
    sati: cluster.sati,
    onChange: (agent) => identityChanged?.(agent),
  });
  const epochSeconds = deployment?.config.epochSeconds ?? BigInt(config.epochSeconds);
  let indexer: ChainIndexer | null = null;

  // The RPC answers on this process's event loop, behind whatever RPC traffic is queued there:
  // /api/health reuses a recent answer rather than waiting in that queue (fresh-probe.ts).
  const slotProbe = freshProbe(
    async () => {
      try {
        const slot = await withTimeout(connection.getSlot('confirmed'), CHAIN_PROBE_MS, 'the chain');
        return { ok: true, rpcUrl: chain.endpoint.rpcUrl, slot };
      } catch (e) {
        return { ok: false, rpcUrl: chain.endpoint.rpcUrl, error: String((e as Error)?.message ?? e) };
      }
    },
    { isOk: (h) => h.ok, freshMs: HEALTH_FRESH_MS, refreshMs: HEALTH_REFRESH_MS },
  );

  const reads: ChainReads = {
    rpcUrl: chain.endpoint.rpcUrl,
    sati: {
      program: cluster.sati.program.toBase58(),
      sas: cluster.sati.sas.toBase58(),
      credential: cluster.sati.credential.toBase58(),
      delegateSchema: cluster.sati.delegateSchema.toBase58(),
    },
    ...storeChainReads(store, epochSeconds),
    satiProfile: (agent) => runtime.discovery?.profile(Buffer.from(agent).toString('hex')) ?? null,
    discovery: () => runtime.discovery?.stats() ?? null,
    satiReputation: () => satiReputationOf(config.photonUrl),
    async identityHolder(agent) {
      const h = await withTimeout(findIdentityHolder(connection, new Key(agent)), CHAIN_PROBE_MS, 'the chain').catch(
        () => null,
      );
      return h ? h.owner.toBase58() : null;
    },
    async health() {
      return (await slotProbe.get()).value;
    },
  };

  const runtime: ChainRuntime = {
    connection,
    rpcUrl: chain.endpoint.rpcUrl,
    wsUrl: chain.endpoint.wsUrl,
    embedded,
    cluster,
    writeAccount: chain.embedded ? (a, acc) => chain.embedded!.writeAccount(a, acc) : null,
    faucetAccount: chain.embedded?.faucet ?? null,
    threadMemory: chain.embedded ? () => chain.embedded!.memory() : null,
    deployment,
    registry,
    indexer,
    reads,
    discovery: null,
    startDiscovery({ dial }) {
      runtime.discovery ??= startSatiDiscovery({
        connection,
        sati: cluster.sati,
        publicOnly: !embedded && config.discoveryAllowPrivate !== true,
        dial,
        log,
        setLabel: (id, label) => store.setAgentLabel(id, label),
      });
      return runtime.discovery;
    },
    onIdentityChange(fn) {
      identityChanged = fn;
    },
    async startIndexer(bus) {
      if (runtime.indexer) return runtime.indexer;
      indexer = await startChainIndexer({
        connection,
        store,
        bus,
        logger,
        epochSeconds: deployment?.config.epochSeconds,
        programIds: { ...cluster.programs },
      });
      runtime.indexer = indexer;
      return indexer;
    },
    async stop() {
      await runtime.discovery?.stop().catch(() => undefined);
      await runtime.indexer?.stop().catch((e: unknown) => log.warn('indexer stop failed', e));
      await registry.close().catch(() => undefined);
      const ws = (connection as unknown as { _rpcWebSocket?: { close(): void; setAutoReconnect?(v: boolean): void } })
        ._rpcWebSocket;
      ws?.setAutoReconnect?.(false);
      try {
        ws?.close();
      } catch {
        /* not open */
      }
      await chain.close().catch((e: unknown) => log.warn('chain close failed', e));
    },
  };
  return runtime;
}

/**
 * The demo mesh beside the observer (docs/app.md "Demo on chain"): DEMO_AGENTS agents, each its
 * own libp2p node in its own process, bootstrapped from the observer's TCP addresses, joining
 * the mesh while their identities are registered (lib/agents/demo-mesh.ts); with a
 * chain whose deployment this process controls, each agent's id is a Token-2022 NFT and the
 * agents stake, pay leases and submit batches; without one they register in the local signer table.
 */
import { startDemoMesh, type DemoMesh } from '../lib/agents/demo-mesh';
import { createDemoIdentities } from '../lib/chain/node/deployment';
import type { Observatory } from '../lib/observer/observatory';
import type { ChainRuntime } from './chain';
import type { ServerConfig } from './config';
import type { Logger } from './logger';
import type { StartupTimeline } from './startup';

export interface StartDemoParams {
  config: Pick<ServerConfig, 'demoAgents' | 'epochSeconds'>;
  observatory: Pick<Observatory, 'mesh' | 'registry'>;
  chain: ChainRuntime | null;
  /** Where agents upload their bilateral envelopes (this process's HTTP server). */
  observerUrl: string;
  log: Logger;
  /** Records the demo's start-up phases. */
  startup?: Pick<StartupTimeline, 'mark'>;
}

/** Starts `config.demoAgents` agents (null when 0). */
export async function startDemo(p: StartDemoParams): Promise<DemoMesh | null> {
  const { config, observatory, chain, log } = p;
  if (config.demoAgents === 0) return null;
  const bootstrap = observatory.mesh.multiaddrs().filter((a) => a.includes('/tcp/') && !a.includes('/ws'));
  const dep = chain?.deployment;
  const onChain = chain && dep?.admin ? {
    rpcUrl: chain.rpcUrl,
    wsUrl: chain.wsUrl,
    usdcMint: dep.config.usdcMint.toBase58(),
    treasury: dep.config.treasury.toBase58(),
    stakeVault: dep.config.stakeVault.toBase58(),
    epochSeconds: Number(dep.config.epochSeconds),
    createIdentities: async (seeds: Uint8Array[], mintSeeds: Uint8Array[], onIdentity: (i: number) => void) =>
      (await createDemoIdentities(chain.connection, { admin: dep.admin!, config: dep.config, seeds, mintSeeds, usdc: 1_000_000_000n, onIdentity })).map((x) => x.agent.toBytes()),
  } : undefined;
  const demoLog = log.child('demo');
  const demo = await startDemoMesh({
    count: config.demoAgents,
    bootstrap: bootstrap.length ? bootstrap : observatory.mesh.multiaddrs(),
    observerUrl: p.observerUrl,
    epochSeconds: onChain?.epochSeconds ?? config.epochSeconds,
    // Without a chain the agents register in the local signer table; on chain their
    // identities are NFTs the chain registry resolves.
    register: chain ? undefined : (agentId, publicKey) => observatory.registry.register(agentId, publicKey),
    chain: onChain,
    onPhase: (phase) => p.startup?.mark(`demo: ${phase}`),
    onReport: (i, m) => {
      if (m.t === 'sent') p.startup?.mark('demo: first envelope sent');
      if (m.t === 'chain') demoLog.info(`agent ${i}: ${m.message}`);
      else if (m.t === 'error' && /chain/.test(m.message)) demoLog.warn(`agent ${i}: ${m.message}`);
    },
  });
  log.info(`demo mesh: ${demo.agents.length} agents (${demo.agents.map((a) => `${a.strategy}${a.misbehaving ? '*' : ''}`).join(', ')}; * misbehaves)`);
  return demo;
}

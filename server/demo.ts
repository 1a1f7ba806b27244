/**
 * The demo mesh beside the observer (docs/app.md "Demo on chain"): DEMO_AGENTS agents, each its
 * own libp2p node in its own process, bootstrapped from the observer's TCP addresses, joining
 * the mesh while their identities are registered (lib/agents/demo-mesh.ts); with a
 * chain whose deployment this process controls, each agent is a SATI agent registered with
 * register_agent (a name, and a registration file served by this observatory at
 * /api/agents/{id}/registration), some sign their envelopes with a delegate hot wallet under a
 * DelegateV1 attestation (written as a fixture: SAS does not run on the embedded chain,
 * docs/chain.md "On the embedded chain: our stand-in registry"), one of those delegations expires mid-demo, and the
 * agents stake, pay leases and submit batches; without a chain they register in the local signer table.
 */

import { Keypair, PublicKey } from '@solana/web3.js';
import { type DemoMesh, startDemoMesh } from '../lib/agents/demo-mesh';
import { createDemoIdentities } from '../lib/chain/node/deployment';
import { MESH_SERVICE } from '../lib/chain/registration-file';
import { delegateAttestationAddress, encodeDelegateAttestation } from '../lib/chain/sati';
import type { Observatory } from '../lib/observer/observatory';
import { publicKeyFromSeed } from '../lib/protocol/crypto';
import type { RegistrationFile } from '../lib/wire';
import type { ChainRuntime } from './chain';
import type { ServerConfig } from './config';
import type { Logger } from './logger';
import type { StartupTimeline } from './startup';

/** A demo agent's SATI name (≤ 32 bytes). */
export const demoAgentName = (i: number): string => `Zerox1 demo agent ${i + 1}`;

/**
 * The registration file a demo agent's metadata uri points at (served by this observatory at
 * /api/agents/{id}/registration): its name and, once its node is up, its `zerox1-mesh` endpoint.
 */
export function demoRegistrationFile(demo: DemoMesh | null, agentHex: string): RegistrationFile | null {
  const a = demo?.agents.find((x) => x.agentId === agentHex);
  if (!a) return null;
  const mesh = a.multiaddrs.find((m) => m.includes('/tcp/') && !m.includes('/ws')) ?? a.multiaddrs[0];
  const how = a.delegate
    ? `signs with a delegate hot wallet` +
      (a.delegate.expiry !== '0'
        ? ` whose delegation expires at ${new Date(Number(a.delegate.expiry) * 1000).toISOString()}`
        : '')
    : 'signs with its owner key';
  return {
    type: 'https://eips.ethereum.org/EIPS/eip-8004#registration-v1',
    name: demoAgentName(a.index),
    description:
      `A demo agent of this Zerox1 observatory: ${a.strategy} negotiation strategy` +
      `${a.misbehaving ? ', sends invalid envelopes on purpose' : ''}; ${how}.`,
    services: mesh ? [{ name: MESH_SERVICE, endpoint: mesh, version: '1' }] : [],
  };
}

export interface StartDemoParams {
  config: Pick<ServerConfig, 'demoAgents' | 'epochSeconds' | 'demoLeasePause'>;
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
  const onChain =
    chain && dep?.admin
      ? {
          rpcUrl: chain.rpcUrl,
          wsUrl: chain.wsUrl,
          usdcMint: dep.config.usdcMint.toBase58(),
          treasury: dep.config.treasury.toBase58(),
          stakeVault: dep.config.stakeVault.toBase58(),
          satiProgram: dep.config.satiProgram.toBase58(),
          epochSeconds: Number(dep.config.epochSeconds),
          ...(config.demoLeasePause ? { leasePause: config.demoLeasePause } : {}),
          createIdentities: async (
            seeds: Uint8Array[],
            mintSeeds: Uint8Array[],
            onIdentity: (i: number) => void,
            delegates: ReadonlyArray<{ delegate: Uint8Array; expiry: bigint } | null>,
          ) => {
            const registrations = mintSeeds.map((m, i) => ({
              name: demoAgentName(i),
              symbol: 'ZX1',
              uri: `${p.observerUrl}/api/agents/${new PublicKey(publicKeyFromSeed(m)).toBase58()}/registration`,
            }));
            const ids = await createDemoIdentities(chain.connection, {
              admin: dep.admin!,
              config: dep.config,
              seeds,
              mintSeeds,
              registrations,
              usdc: 1_000_000_000n,
              onIdentity: (i, agent) => {
                // The delegation exists before the agent is told to speak, so its first envelope is accepted.
                const d = delegates[i];
                if (d && chain.writeAccount) {
                  const delegate = new PublicKey(d.delegate);
                  const data = encodeDelegateAttestation({
                    agent,
                    delegate,
                    delegator: Keypair.fromSeed(seeds[i]).publicKey,
                    expiry: d.expiry,
                    signer: dep.admin!.publicKey,
                    addresses: chain.cluster.sati,
                  });
                  void chain
                    .writeAccount(delegateAttestationAddress(delegate, agent, chain.cluster.sati).toBase58(), {
                      lamports: 5_000_000n,
                      data,
                      owner: chain.cluster.sati.sas.toBase58(),
                    })
                    .catch((e: unknown) => log.warn(`demo agent ${i}: delegation not written: ${String(e)}`))
                    .then(() => onIdentity(i));
                  return;
                }
                onIdentity(i);
              },
            });
            return ids.map((x) => x.agent.toBytes());
          },
        }
      : undefined;
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
  log.info(
    `demo mesh: ${demo.agents.length} agents (${demo.agents
      .map((a) => `${a.strategy}${a.misbehaving ? '*' : ''}`)
      .join(', ')}; * misbehaves)`,
  );
  return demo;
}

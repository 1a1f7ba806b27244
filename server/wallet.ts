/**
 * The browser wallet's side of the process (app/_lib/wallet-services.ts): which chain the
 * browser acts on, taken from the checked configuration only (the embedded chain through the
 * same-origin proxy /api/chain/rpc; SOLANA_RPC_URL as given otherwise), the embedded chain's
 * faucet, and the pre-filled evidence of one-click challenges. No user key is ever here: the
 * server receives addresses, never transactions to sign.
 */
import { PublicKey } from '@solana/web3.js';
import type { Cluster, WalletConfigView } from '../lib/wire';
import { faucetDrop } from '../lib/chain/node/faucet';
import type { WalletServices } from '../app/_lib/wallet-services';
import type { Store } from '../lib/store';
import type { ChainRuntime } from './chain';
import { challengeCandidates } from './challenge-candidates';

/** The cluster a JSON-RPC URL names (the public endpoints' host names; anything else is custom). */
export function clusterOf(rpcUrl: string): Cluster {
  const host = new URL(rpcUrl).hostname;
  if (/devnet/.test(host)) return 'devnet';
  if (/testnet/.test(host)) return 'testnet';
  if (/mainnet/.test(host)) return 'mainnet-beta';
  if (host === '127.0.0.1' || host === 'localhost' || host === '::1') return 'localnet';
  return 'custom';
}

class Refused extends Error {
  // Matched by name in the route: Next's bundle and the server hold different copies of classes.
  override name = 'FaucetRefused';
}

/** Builds the wallet services for a running chain; `satiRegisterUrl` is shown instead of registration on a cluster. */
export function walletServices(p: { chain: ChainRuntime; store: Store; satiRegisterUrl?: string }): WalletServices {
  const { chain } = p;
  const admin = chain.embedded ? chain.deployment?.admin ?? null : null;
  const config: WalletConfigView = chain.embedded
    ? { cluster: 'embedded', rpc: '/api/chain/rpc', faucet: admin !== null, registerUrl: null }
    : { cluster: clusterOf(chain.rpcUrl), rpc: chain.rpcUrl, faucet: false, registerUrl: p.satiRegisterUrl ?? null };
  return {
    clientConfig: () => config,
    embeddedRpcUrl: chain.embedded ? chain.rpcUrl : null,
    async faucet(address) {
      if (!chain.embedded) throw new Refused(`the faucet runs on the embedded chain only; this server acts on ${config.cluster} (${chain.rpcUrl})`);
      if (!admin || !chain.deployment) throw new Refused('the embedded chain has no deployment admin to mint demo USDC');
      const to = new PublicKey(address);
      const r = await faucetDrop(chain.connection, { admin, config: chain.deployment.config, to });
      return { address, lamports: r.lamports.toString(), usdc: r.usdc.toString(), signatures: r.signatures };
    },
    challengeCandidates: (agent, epoch) => challengeCandidates(p.store, agent, epoch),
  };
}

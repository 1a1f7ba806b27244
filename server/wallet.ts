/**
 * The browser wallet's side of the process (app/_lib/wallet-services.ts): which chain the
 * browser acts on, taken from the checked configuration only (the embedded chain through the
 * same-origin proxy /api/chain/rpc; SOLANA_RPC_URL as given otherwise), the embedded chain's
 * faucet, the budgets of the chain proxy (./rpc-gate.ts), and the pre-filled evidence of
 * one-click challenges. No user key is ever here: the server receives addresses, never
 * transactions to sign.
 *
 * The faucet (POST /api/chain/faucet and requestAirdrop through the proxy) exists only on the
 * embedded chain and only when FAUCET is on (by default when demo agents run); each drop is
 * charged to the asking client and to the receiving wallet, an airdrop through the proxy is at
 * most one drop's SOL, and a faucet account that cannot pay answers 503 with a sentence.
 */
import { PublicKey } from '@solana/web3.js';
import type { RpcRefusal, WalletServices } from '../app/_lib/wallet-services';
import { FAUCET_LAMPORTS, faucetDrop } from '../lib/chain/node/faucet';
import { BaseError } from '../lib/protocol/errors';
import type { Store } from '../lib/store';
import type { Cluster, WalletConfigView } from '../lib/wire';
import type { ChainRuntime } from './chain';
import { challengeCandidates } from './challenge-candidates';
import {
  createFaucetGate,
  createRpcGate,
  DEFAULT_FAUCET_LIMITS,
  DEFAULT_RPC_LIMITS,
  type FaucetLimits,
  type RpcLimits,
} from './rpc-gate';

/** The cluster a JSON-RPC URL names (the public endpoints' host names; anything else is custom). */
export function clusterOf(rpcUrl: string): Cluster {
  const host = new URL(rpcUrl).hostname;
  if (/devnet/.test(host)) return 'devnet';
  if (/testnet/.test(host)) return 'testnet';
  if (/mainnet/.test(host)) return 'mainnet-beta';
  if (host === '127.0.0.1' || host === 'localhost' || host === '::1') return 'localnet';
  return 'custom';
}

/** The wallet's cluster name: the configured row (CLUSTER), else what the URL names. */
function walletCluster(chain: ChainRuntime): Cluster {
  const name = chain.cluster?.name;
  return name === 'mainnet' ? 'mainnet-beta' : name === 'devnet' || name === 'custom' ? name : clusterOf(chain.rpcUrl);
}

class Refused extends BaseError {
  // Matched by name in the route: Next's bundle and the server hold different copies of classes.
  override name = 'FaucetRefused';
}

/** The faucet exists but cannot give now: over a budget (429) or empty (503). Matched by name too. */
class Unavailable extends BaseError {
  override name = 'FaucetUnavailable';
  constructor(
    readonly status: 429 | 503,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** Lamports a faucet transfer costs on top of the amount (one signature's fee, with margin). */
const FEE_MARGIN = 1_000_000n;

/**
 * Builds the wallet services for a running chain; `satiRegisterUrl` is shown instead of
 * registration on a cluster. `faucet` null turns the faucet off (FAUCET=off); on a cluster it is
 * off whatever it says.
 */
export function walletServices(p: {
  chain: ChainRuntime;
  store: Store;
  satiRegisterUrl?: string;
  rpcLimits?: RpcLimits;
  faucet?: FaucetLimits | null;
}): WalletServices {
  const { chain } = p;
  const admin = chain.embedded ? (chain.deployment?.admin ?? null) : null;
  const faucetLimits =
    chain.embedded && admin !== null ? (p.faucet === undefined ? DEFAULT_FAUCET_LIMITS : p.faucet) : null;
  const config: WalletConfigView = chain.embedded
    ? { cluster: 'embedded', rpc: '/api/chain/rpc', faucet: faucetLimits !== null, registerUrl: null }
    : { cluster: walletCluster(chain), rpc: chain.rpcUrl, faucet: false, registerUrl: p.satiRegisterUrl ?? null };
  const rpcGate = createRpcGate(p.rpcLimits ?? DEFAULT_RPC_LIMITS);
  const drops = faucetLimits ? createFaucetGate(faucetLimits) : null;
  const offReason = () =>
    !chain.embedded
      ? `the faucet runs on the embedded chain only; this server acts on ${config.cluster} (${chain.rpcUrl})`
      : !admin
        ? 'the embedded chain has no deployment admin to mint demo USDC'
        : 'the faucet is off on this server (FAUCET=off, the default without demo agents)';

  /** Lamports the faucet account holds, or null when that cannot be read. */
  const faucetBalance = async (): Promise<bigint | null> => {
    if (!chain.faucetAccount) return null;
    try {
      return BigInt(await chain.connection.getBalance(chain.faucetAccount, 'confirmed'));
    } catch {
      return null;
    }
  };
  const empty = (have: bigint) =>
    new Unavailable(
      503,
      `the faucet is empty: it holds ${have} lamports and one drop needs ` +
        `${BigInt(FAUCET_LAMPORTS) + FEE_MARGIN}; it refills only when the chain's data is reset`,
    );

  return {
    clientConfig: () => config,
    embeddedRpcUrl: chain.embedded ? chain.rpcUrl : null,
    rpcMaxBatch: rpcGate.limits.maxBatch,
    admitRpc: (client, cost) => rpcGate.admit(client, cost),
    rpcStats: () => rpcGate.stats(),
    admitAirdrops(client, calls): RpcRefusal | null {
      if (calls.length === 0) return null;
      if (!drops)
        return {
          status: 200,
          code: -32601,
          message: `Method not found: requestAirdrop is not served here: ${offReason()}`,
        };
      const taken: string[] = [];
      for (const c of calls) {
        const [to, lamports] = Array.isArray(c.params) ? (c.params as unknown[]) : [];
        if (typeof to !== 'string' || typeof lamports !== 'number' || !Number.isSafeInteger(lamports) || lamports < 1) {
          taken.forEach((w) => drops.refund(client, w));
          return { status: 200, code: -32602, message: 'Invalid params: requestAirdrop takes [address, lamports]' };
        }
        if (lamports > FAUCET_LAMPORTS) {
          taken.forEach((w) => drops.refund(client, w));
          return {
            status: 200,
            code: -32602,
            message:
              `Invalid params: an airdrop of ${lamports} lamports is over this ` +
              `server's cap of ${FAUCET_LAMPORTS} (${FAUCET_LAMPORTS / 1e9} SOL)`,
          };
        }
        const refused = drops.take(client, to);
        if (refused) {
          taken.forEach((w) => drops.refund(client, w));
          return { status: 429, code: -32005, message: refused.message, retryAfter: refused.retryAfter };
        }
        taken.push(to);
      }
      return null;
    },
    async faucet(address, client = 'unknown') {
      if (!drops || !admin || !chain.deployment) throw new Refused(offReason());
      const to = new PublicKey(address);
      const refused = drops.take(client, to.toBase58());
      if (refused) throw new Unavailable(429, refused.message, refused.retryAfter);
      // Checked before anything is sent: a drained faucet answers a sentence, not a failed transfer.
      const have = await faucetBalance();
      if (have !== null && have < BigInt(FAUCET_LAMPORTS) + FEE_MARGIN) {
        drops.refund(client, to.toBase58());
        throw empty(have);
      }
      try {
        const r = await faucetDrop(chain.connection, { admin, config: chain.deployment.config, to });
        return { address, lamports: r.lamports.toString(), usdc: r.usdc.toString(), signatures: r.signatures };
      } catch (e) {
        const now = await faucetBalance();
        if (now !== null && now < BigInt(FAUCET_LAMPORTS) + FEE_MARGIN) throw empty(now);
        throw new Unavailable(503, `the faucet could not send: ${String((e as Error)?.message ?? e).slice(0, 300)}`);
      }
    },
    challengeCandidates: (agent, epoch) => challengeCandidates(p.store, agent, epoch),
    close() {
      rpcGate.close();
      drops?.close();
    },
  };
}

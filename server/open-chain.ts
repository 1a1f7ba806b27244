/**
 * Opens the chain the process runs against: the cluster of SOLANA_RPC_URL, or the embedded chain
 * (lib/devchain) started here. Lives in the composition root because it is the one place that may
 * reach both lib/chain and lib/devchain.
 */
import type { Commitment, Connection } from '../lib/chain';
import { type ChainEndpoint, chainEndpointFromEnv, createConnection } from '../lib/chain/node/rpc';

/** Options of {@link openChain}. */
export interface OpenChainParams {
  env?: Record<string, string | undefined>;
  /**
   * Embedded chain options when no SOLANA_RPC_URL is set (port 8899 by default); it runs on a worker thread
   * (lib/devchain/thread.ts).
   */
  embedded?: import('../lib/devchain/thread').EmbeddedChainThreadParams;
  commitment?: Commitment;
}

/** A connection and, when it runs here, the embedded chain behind it. */
export interface OpenChainResult {
  connection: Connection;
  endpoint: ChainEndpoint;
  embedded: import('../lib/devchain/thread').EmbeddedChainThread | null;
  close(): Promise<void>;
}

/**
 * Connection factory: the cluster of SOLANA_RPC_URL, or a freshly started embedded
 * chain (lib/devchain) on 127.0.0.1, on a thread of its own so its work never stalls this
 * thread's pages. The embedded module is loaded only when needed (it pulls the litesvm native
 * addon).
 */
export async function openChain(p: OpenChainParams = {}): Promise<OpenChainResult> {
  const endpoint = chainEndpointFromEnv(p.env ?? process.env);
  if (endpoint) {
    const connection = createConnection(endpoint, p.commitment);
    return { connection, endpoint, embedded: null, close: async () => {} };
  }
  const { startEmbeddedChainThread } = await import('../lib/devchain/thread');
  const chain = await startEmbeddedChainThread(p.embedded ?? {});
  const ep = { rpcUrl: chain.rpcUrl, wsUrl: chain.wsUrl };
  return { connection: createConnection(ep, p.commitment), endpoint: ep, embedded: chain, close: () => chain.close() };
}

/**
 * NODE-ONLY (server, scripts): may start the embedded chain (lib/devchain).
 *
 * The one place that opens a Solana connection (`SOLANA_RPC_URL` + `SOLANA_WS_URL` point
 * everything at a real cluster, otherwise the embedded chain).
 */
import { Connection, type Commitment } from '@solana/web3.js';
import { z } from 'zod';
import { ChainConfigError } from '../errors';

const httpUrl = z.string().trim().regex(/^https?:\/\/[^\s]+$/, 'must be an http(s):// URL');
const wsUrl = z.string().trim().regex(/^wss?:\/\/[^\s]+$/, 'must be a ws(s):// URL');

/** Where the chain is: a cluster's URLs, or nothing (start the embedded chain). */
export interface ChainEndpoint {
  rpcUrl: string;
  /** PubSub endpoint; web3.js derives ws://host:PORT+1 when omitted. */
  wsUrl?: string;
}

/**
 * Reads `SOLANA_RPC_URL` / `SOLANA_WS_URL` (schema-checked). Null when SOLANA_RPC_URL is unset:
 * the caller starts the embedded chain. Throws ChainConfigError naming the variable when bad.
 */
export function chainEndpointFromEnv(env: Record<string, string | undefined> = process.env): ChainEndpoint | null {
  const raw = env.SOLANA_RPC_URL?.trim();
  if (!raw) return null;
  const r = httpUrl.safeParse(raw);
  if (!r.success) throw new ChainConfigError(`SOLANA_RPC_URL ${r.error.issues[0]?.message ?? 'is invalid'}`);
  const ws = env.SOLANA_WS_URL?.trim();
  if (ws) {
    const w = wsUrl.safeParse(ws);
    if (!w.success) throw new ChainConfigError(`SOLANA_WS_URL ${w.error.issues[0]?.message ?? 'is invalid'}`);
    return { rpcUrl: r.data, wsUrl: w.data };
  }
  return { rpcUrl: r.data };
}

/** A web3.js Connection to `endpoint` ('confirmed' by default; every commitment is final on the embedded chain). */
export function createConnection(endpoint: ChainEndpoint, commitment: Commitment = 'confirmed'): Connection {
  if (!endpoint || typeof endpoint.rpcUrl !== 'string') throw new TypeError('endpoint.rpcUrl must be a string');
  return new Connection(endpoint.rpcUrl, { commitment, wsEndpoint: endpoint.wsUrl, disableRetryOnRateLimit: true });
}

/** Options of {@link openChain}. */
export interface OpenChainParams {
  env?: Record<string, string | undefined>;
  /** Embedded chain options when no SOLANA_RPC_URL is set (port 8899 by default). */
  embedded?: import('../../devchain/index').EmbeddedChainParams;
  commitment?: Commitment;
}

/** A connection and, when it runs here, the embedded chain behind it. */
export interface OpenChainResult {
  connection: Connection;
  endpoint: ChainEndpoint;
  embedded: import('../../devchain/index').EmbeddedChain | null;
  close(): Promise<void>;
}

/**
 * Connection factory: the cluster of SOLANA_RPC_URL, or a freshly started embedded
 * chain (lib/devchain) on 127.0.0.1. The embedded module is loaded only when needed (it
 * pulls the litesvm native addon).
 */
export async function openChain(p: OpenChainParams = {}): Promise<OpenChainResult> {
  const endpoint = chainEndpointFromEnv(p.env ?? process.env);
  if (endpoint) {
    const connection = createConnection(endpoint, p.commitment);
    return { connection, endpoint, embedded: null, close: async () => {} };
  }
  const { startEmbeddedChain } = await import('../../devchain/index');
  const chain = await startEmbeddedChain(p.embedded ?? {});
  const ep = { rpcUrl: chain.rpcUrl, wsUrl: chain.wsUrl };
  return { connection: createConnection(ep, p.commitment), endpoint: ep, embedded: chain, close: () => chain.close() };
}

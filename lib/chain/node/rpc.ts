/**
 * NODE-ONLY (server, scripts): the one place that makes a Solana connection from configuration
 * (`SOLANA_RPC_URL` + `SOLANA_WS_URL` point everything at a real cluster; without them the
 * composition root starts the embedded chain, server/open-chain.ts).
 */
import { type Commitment, Connection } from '@solana/web3.js';
import { z } from 'zod';
import { ChainConfigError } from '../errors';

const httpUrl = z
  .string()
  .trim()
  .regex(/^https?:\/\/[^\s]+$/, 'must be an http(s):// URL');
const wsUrl = z
  .string()
  .trim()
  .regex(/^wss?:\/\/[^\s]+$/, 'must be a ws(s):// URL');

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

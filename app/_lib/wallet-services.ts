/**
 * What the wallet routes and the root layout use from the running process (implemented by
 * server/wallet.ts, reached through the services registry). Type-only: route bundles carry no
 * @solana/* or litesvm. The server holds no user key: the faucet signs with the embedded
 * chain's admin key, and every user action is built and signed in the browser.
 */

import { BaseError } from '../../lib/protocol/errors';
import type { ChallengeCandidateList, FaucetResult, WalletConfigView } from '../../lib/wire';

/** A faucet request the server refuses (a real cluster, or no admin key): the route answers 409. */
export class FaucetRefused extends BaseError {
  override name = 'FaucetRefused';
}

/** A refusal of the chain proxy, as a JSON-RPC error (`code`) sent with HTTP `status`. */
export interface RpcRefusal {
  status: number;
  code: number;
  message: string;
  /** Seconds, sent as Retry-After (429). */
  retryAfter?: number;
}

/** A proxied request's turn (release it once the chain answered), or why it has none. */
export type RpcAdmission = { release(): void } | { status: 413 | 429; message: string; retryAfter?: number };

export interface WalletServices {
  /** The chain the browser's wallet acts on, from the server's configuration. */
  clientConfig(): WalletConfigView;
  /** The embedded chain's JSON-RPC URL the same-origin proxy forwards to; null on a cluster. */
  readonly embeddedRpcUrl: string | null;
  /** Most calls in one proxied request. */
  readonly rpcMaxBatch: number;
  /** Charges a proxied request's calls to `client` and waits for a turn (server/rpc-gate.ts). */
  admitRpc(client: string, cost: { calls: number; heavy: number }): Promise<RpcAdmission>;
  /** The proxy's counters (for /api/health). */
  rpcStats(): { inFlight: number; queued: number; overBudget: number; busy: number };
  /**
   * requestAirdrop calls through the proxy: null when they may go (each charged to the faucet's
   * budgets), else the refusal (faucet off, amount over one drop, over budget).
   */
  admitAirdrops(client: string, calls: Array<{ params: unknown }>): RpcRefusal | null;
  /**
   * Airdrops SOL and mints demo USDC to `address`, charged to `client` (embedded chain with the
   * faucet on; FaucetRefused otherwise, FaucetUnavailable with `status` 429/503 over a budget or
   * when the faucet is empty).
   */
  faucet(address: string, client?: string): Promise<FaucetResult>;
  /** Entries of the agent's uploaded log of `epoch` its batch contradicts, with pre-filled evidence. */
  challengeCandidates(agent: Uint8Array, epoch: bigint): Promise<ChallengeCandidateList>;
  /** Stops the budgets' timers. */
  close?(): void;
}

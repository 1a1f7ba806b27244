/**
 * What the wallet routes and the root layout use from the running process (implemented by
 * server/wallet.ts, reached through the services registry). Type-only: route bundles carry no
 * @solana/* or litesvm. The server holds no user key: the faucet signs with the embedded
 * chain's admin key, and every user action is built and signed in the browser.
 */
import type { ChallengeCandidate, FaucetResult, WalletConfigView } from '../../lib/wire';

/** A faucet request the server refuses (a real cluster, or no admin key): the route answers 409. */
export class FaucetRefused extends Error {
  override name = 'FaucetRefused';
}

export interface WalletServices {
  /** The chain the browser's wallet acts on, from the server's configuration. */
  clientConfig(): WalletConfigView;
  /** The embedded chain's JSON-RPC URL the same-origin proxy forwards to; null on a cluster. */
  readonly embeddedRpcUrl: string | null;
  /** Airdrops SOL and mints demo USDC to `address` (embedded chain only; FaucetRefused otherwise). */
  faucet(address: string): Promise<FaucetResult>;
  /** Entries of the agent's uploaded log of `epoch` its batch contradicts, with pre-filled evidence. */
  challengeCandidates(agent: Uint8Array, epoch: bigint): Promise<ChallengeCandidate[]>;
}

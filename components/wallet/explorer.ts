'use client';
/**
 * Links to Solana Explorer (explorer.solana.com) for a signature or an address on the chain this
 * page acts on: mainnet as is, devnet/testnet by name, and the embedded chain or any other RPC as
 * Explorer's "custom" cluster with the RPC URL the browser uses (the embedded chain's same-origin
 * proxy, made absolute), so the link opens the same chain.
 */
import type { Cluster } from '../../lib/wire';
import { useWalletEnv } from './WalletIsland';

export interface ExplorerTarget { cluster: Cluster; rpc: string }

function query(t: ExplorerTarget): string {
  if (t.cluster === 'mainnet-beta') return '';
  if (t.cluster === 'devnet' || t.cluster === 'testnet') return `?cluster=${t.cluster}`;
  return `?cluster=custom&customUrl=${encodeURIComponent(t.rpc)}`;
}

export function explorerTx(t: ExplorerTarget, signature: string): string {
  return `https://explorer.solana.com/tx/${signature}${query(t)}`;
}
export function explorerAddress(t: ExplorerTarget, address: string): string {
  return `https://explorer.solana.com/address/${address}${query(t)}`;
}

/** The page's explorer target: cluster and absolute RPC URL. */
export function useExplorer(): ExplorerTarget {
  const { config } = useWalletEnv();
  const rpc = config.rpc.startsWith('/') && typeof window !== 'undefined' ? new URL(config.rpc, window.location.origin).toString() : config.rpc;
  return { cluster: config.cluster, rpc };
}

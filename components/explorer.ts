/**
 * Links to Solana Explorer for transactions and accounts, on the cluster this observatory reads:
 * mainnet without a parameter, devnet/testnet by name, anything else (the embedded chain, a
 * private validator) as Explorer's custom cluster with the RPC URL, which the viewer's browser
 * then reads itself. Browser-safe.
 */
const EXPLORER = 'https://explorer.solana.com';

/** The `?cluster=…` query for an RPC URL ('' for mainnet). */
export function explorerCluster(rpcUrl: string | null | undefined): string {
  if (!rpcUrl) return '';
  let host = '';
  try { host = new URL(rpcUrl).hostname; } catch { return ''; }
  if (/(^|\.)mainnet(-beta)?\.solana\.com$/.test(host)) return '';
  if (/(^|\.)devnet\.solana\.com$/.test(host)) return '?cluster=devnet';
  if (/(^|\.)testnet\.solana\.com$/.test(host)) return '?cluster=testnet';
  return `?cluster=custom&customUrl=${encodeURIComponent(rpcUrl)}`;
}

export function explorerTx(signature: string, rpcUrl: string | null | undefined): string {
  return `${EXPLORER}/tx/${encodeURIComponent(signature)}${explorerCluster(rpcUrl)}`;
}

export function explorerAccount(address: string, rpcUrl: string | null | undefined): string {
  return `${EXPLORER}/address/${encodeURIComponent(address)}${explorerCluster(rpcUrl)}`;
}

export function explorerSlot(slot: string | number | bigint, rpcUrl: string | null | undefined): string {
  return `${EXPLORER}/block/${String(slot)}${explorerCluster(rpcUrl)}`;
}

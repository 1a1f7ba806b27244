/**
 * Wraps the page in the wallet island with the chain config of the running process (lib/wire
 * WalletConfigView from server/wallet.ts, i.e. server/config.ts), read per request, never at
 * build time and never from the URL. Without a chain in this process the page renders bare and
 * the wallet components render nothing.
 */
import 'server-only';
import { connection } from 'next/server';
import { WalletIsland } from '../components/wallet/WalletIsland';
import { getServices } from './_lib/services';

export async function WalletRoot({ children }: { children: React.ReactNode }) {
  await connection();
  const config = getServices()?.wallet?.clientConfig() ?? null;
  return config ? <WalletIsland config={config}>{children}</WalletIsland> : children;
}

/**
 * The chain this request's page links to in Solana Explorer (lib/chain/explorer.ts), with the
 * host name the viewer reached the page at: a loopback RPC URL is linked only for a viewer on the
 * same machine.
 */
import 'server-only';
import { headers } from 'next/headers';
import type { ExplorerChain } from '../../lib/chain/explorer';
import { getServices, type Services } from './services';

/** The host name of a Host header value (`example.org:3000`, `[::1]:3000`), or null. */
export function hostnameOf(host: string | null | undefined): string | null {
  if (!host) return null;
  try {
    return new URL(`http://${host.split(',')[0].trim()}`).hostname;
  } catch {
    return null;
  }
}

/** Null when this process runs no chain. A proxy's X-Forwarded-Host is the host the browser used. */
export async function pageExplorer(o: Services | null | undefined = getServices()): Promise<ExplorerChain | null> {
  if (!o?.explorer) return null;
  const h = await headers();
  return { ...o.explorer, viewerHost: hostnameOf(h.get('x-forwarded-host') ?? h.get('host')) };
}

/**
 * Links to Solana Explorer (explorer.solana.com) for a transaction, an address or a block, the
 * one builder of every page, server-rendered or in the browser. Browser-safe (no node builtins).
 *
 * A link names a URL the viewer's browser can open: Explorer's own parameter for the clusters it
 * knows (mainnet-beta without one, devnet, testnet), and for any other chain (the embedded chain,
 * a local validator, a custom cluster) Explorer's custom cluster with `customUrl=<rpcUrl>`, which
 * Explorer then reads from the viewer's browser. That URL is PUBLIC_RPC_URL when the deployment
 * sets it, else the chain's own. A loopback or private one (127.0.0.0/8, ::1, localhost,
 * 10/8, 172.16/12, 192.168/16, fc00::/7) is named only to a viewer on the same machine (the page's
 * own host name is loopback): anyone else would be sent to an address that is not the chain, and
 * would learn the deployment's inner addresses; they get no link. (lib/net/addresses.ts judges
 * addresses the server may contact, far more finely, but with node's BlockList: not in a browser.)
 */

const EXPLORER = 'https://explorer.solana.com';

/** The clusters Explorer knows by name: the query each link carries. */
const KNOWN: Readonly<Record<string, string>> = {
  'mainnet-beta': '',
  mainnet: '',
  devnet: '?cluster=devnet',
  testnet: '?cluster=testnet',
};

/** The chain a page links to. */
export interface ExplorerChain {
  /**
   * The cluster as the wallet names it (lib/wire Cluster): `mainnet-beta`, `devnet` and `testnet`
   * are Explorer's own; any other (`embedded`, `localnet`, `custom`) is Explorer's custom cluster.
   */
  cluster: string;
  /** The JSON-RPC URL a custom-cluster link names (PUBLIC_RPC_URL, else the chain's own); null: none to name. */
  rpcUrl: string | null;
  /**
   * The host name the viewer reached the page at (the request's Host on the server); unset: this
   * browser's `location.hostname`, or none (not local) outside a browser.
   */
  viewerHost?: string | null;
}

/** The chain a deployment links to: PUBLIC_RPC_URL when set, else the chain's own RPC URL. */
export function explorerChainOf(p: {
  cluster: string;
  chainRpcUrl: string;
  publicRpcUrl?: string | null;
}): ExplorerChain {
  return { cluster: p.cluster, rpcUrl: p.publicRpcUrl ?? p.chainRpcUrl };
}

/** `hostname` without IPv6 brackets or a trailing dot, lowercase. */
const bare = (hostname: string) =>
  hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

/** The four numbers of a dotted IPv4 address, also inside an IPv4-mapped IPv6 one; else null. */
function ipv4Of(h: string): number[] | null {
  const dotted = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (dotted) return dotted.slice(1).map(Number);
  // The URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (!mapped) return null;
  const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255];
}

/** A loopback host name: localhost (and *.localhost), 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = bare(hostname);
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  return ipv4Of(h)?.[0] === 127;
}

/** A host name only its own machine or network reaches: loopback, 10/8, 172.16/12, 192.168/16, fc00::/7. */
export function isPrivateHost(hostname: string): boolean {
  if (isLoopbackHost(hostname)) return true;
  const h = bare(hostname);
  const v4 = ipv4Of(h);
  if (v4) return v4[0] === 10 || (v4[0] === 172 && v4[1] >= 16 && v4[1] <= 31) || (v4[0] === 192 && v4[1] === 168);
  return h.includes(':') && /^f[cd][0-9a-f]{2}:/.test(h);
}

/** The viewer's host name: the one given, else this browser's page, else none. */
function viewerOf(chain: ExplorerChain): string | null {
  if (chain.viewerHost !== undefined) return chain.viewerHost;
  return (globalThis as { location?: { hostname?: string } }).location?.hostname ?? null;
}

/**
 * The `?cluster=…` query of a link to `chain` ('' for mainnet), or null when there is no URL this viewer may be sent
 * to.
 */
export function explorerQuery(chain: ExplorerChain): string | null {
  if (chain.cluster in KNOWN) return KNOWN[chain.cluster];
  if (!chain.rpcUrl) return null;
  let host: string;
  try {
    const u = new URL(chain.rpcUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    host = u.hostname;
  } catch {
    return null;
  }
  if (isPrivateHost(host)) {
    const viewer = viewerOf(chain);
    if (!viewer || !isLoopbackHost(viewer)) return null;
  }
  return `?cluster=custom&customUrl=${encodeURIComponent(chain.rpcUrl)}`;
}

const link = (path: string, chain: ExplorerChain): string | null => {
  const q = explorerQuery(chain);
  return q === null ? null : `${EXPLORER}/${path}${q}`;
};

/** A transaction in Explorer, or null when no link may be given (module comment). */
export const explorerTx = (signature: string, chain: ExplorerChain): string | null =>
  link(`tx/${encodeURIComponent(signature)}`, chain);

/** An account in Explorer, or null. */
export const explorerAddress = (address: string, chain: ExplorerChain): string | null =>
  link(`address/${encodeURIComponent(address)}`, chain);

/** A block (slot) in Explorer, or null. */
export const explorerBlock = (slot: string | number | bigint, chain: ExplorerChain): string | null =>
  link(`block/${String(slot)}`, chain);

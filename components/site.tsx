'use client';
/**
 * What every page's client parts share, handed down once by the root layout: the agents' stored
 * (SATI) names, the chain Explorer links name (lib/chain/explorer.ts) and the epoch length (for
 * epoch clock ranges).
 */
import { createContext, useContext } from 'react';
import { type ExplorerChain, explorerAddress, explorerBlock, explorerTx } from '../lib/chain/explorer';
import { Ident } from './CopyId';

export interface SiteInfo {
  names: Readonly<Record<string, string>>;
  /** Null when the process runs no chain. */
  explorer: ExplorerChain | null;
  epochSeconds: number | null;
}

const SiteContext = createContext<SiteInfo>({ names: {}, explorer: null, epochSeconds: null });

export function SiteProvider({ value, children }: { value: SiteInfo; children: React.ReactNode }) {
  return <SiteContext.Provider value={value}>{children}</SiteContext.Provider>;
}

export function useSite(): SiteInfo {
  return useContext(SiteContext);
}

/**
 * A transaction signature, shortened, linking to Solana Explorer on this observatory's chain;
 * plain text where no link may be given (a private RPC URL and a viewer elsewhere).
 */
export function TxLink({
  signature,
  head = 8,
  copy = true,
}: {
  signature: string | null | undefined;
  head?: number;
  /** With a button copying the whole signature (default: a shortened signature is only useful with it). */
  copy?: boolean;
}) {
  if (!signature) return <span className="muted">none</span>;
  const link = <TxText signature={signature} head={head} />;
  return copy ? (
    <Ident kind="signature" value={signature}>
      {link}
    </Ident>
  ) : (
    link
  );
}

function TxText({ signature, head }: { signature: string; head: number }) {
  const { explorer } = useSite();
  const url = explorer ? explorerTx(signature, explorer) : null;
  const text = `${signature.length > head + 5 ? `${signature.slice(0, head)}…${signature.slice(-4)}` : signature}`;
  if (!url)
    return (
      <span className="mono" title={signature} data-testid="tx-link">
        {text}
      </span>
    );
  return (
    <a
      href={url}
      target="_blank"
      rel="noreferrer"
      className="mono"
      title={`${signature}\nopen in Solana Explorer`}
      data-testid="tx-link"
    >
      {text} ↗
    </a>
  );
}

/**
 * An account address linking to Solana Explorer (plain text where no link may be given), with its
 * copy button unless it is shown as a label instead.
 */
export function AccountLink({
  address,
  label,
  copy = label === undefined,
}: {
  address: string;
  label?: string;
  copy?: boolean;
}) {
  const link = <AccountText address={address} label={label} />;
  return copy ? (
    <Ident kind="address" value={address}>
      {link}
    </Ident>
  ) : (
    link
  );
}

function AccountText({ address, label }: { address: string; label?: string }) {
  const { explorer } = useSite();
  const url = explorer ? explorerAddress(address, explorer) : null;
  if (!url)
    return (
      <span
        className="mono"
        title={address}
        data-testid="account-link"
      >{`${address.slice(0, 5)}…${address.slice(-4)}`}</span>
    );
  return (
    <a
      href={url}
      target="_blank"
      rel="noreferrer"
      className="mono"
      title={`${address}\nopen in Solana Explorer`}
      data-testid="account-link"
    >
      {label ?? `${address.slice(0, 5)}…${address.slice(-4)}`} ↗
    </a>
  );
}

/** A slot linking to its block in Solana Explorer (plain text where no link may be given). */
export function BlockLink({ slot }: { slot: string | number | bigint }) {
  const { explorer } = useSite();
  const url = explorer ? explorerBlock(slot, explorer) : null;
  if (!url) return <span className="mono">{String(slot)}</span>;
  return (
    <a href={url} target="_blank" rel="noreferrer" className="mono">
      {String(slot)} ↗
    </a>
  );
}

'use client';
/**
 * What every page's client parts share, handed down once by the root layout: the agents' stored
 * (SATI) names, the chain's RPC URL (for explorer links) and the epoch length (for epoch clock
 * ranges).
 */
import { createContext, useContext } from 'react';
import { explorerAccount, explorerTx } from './explorer';

export interface SiteInfo {
  names: Readonly<Record<string, string>>;
  rpcUrl: string | null;
  epochSeconds: number | null;
}

const SiteContext = createContext<SiteInfo>({ names: {}, rpcUrl: null, epochSeconds: null });

export function SiteProvider({ value, children }: { value: SiteInfo; children: React.ReactNode }) {
  return <SiteContext.Provider value={value}>{children}</SiteContext.Provider>;
}

export function useSite(): SiteInfo {
  return useContext(SiteContext);
}

/** A transaction signature, shortened, linking to Solana Explorer on this observatory's cluster. */
export function TxLink({ signature, rpcUrl, head = 8 }: { signature: string | null | undefined; rpcUrl?: string | null; head?: number }) {
  const site = useSite();
  if (!signature) return <span className="muted">none</span>;
  const url = explorerTx(signature, rpcUrl ?? site.rpcUrl);
  return (
    <a href={url} target="_blank" rel="noreferrer" className="mono" title={`${signature}\nopen in Solana Explorer`} data-testid="tx-link">
      {signature.length > head + 5 ? `${signature.slice(0, head)}…${signature.slice(-4)}` : signature} ↗
    </a>
  );
}

/** An account address linking to Solana Explorer. */
export function AccountLink({ address, rpcUrl, label }: { address: string; rpcUrl?: string | null; label?: string }) {
  const site = useSite();
  return (
    <a href={explorerAccount(address, rpcUrl ?? site.rpcUrl)} target="_blank" rel="noreferrer" className="mono" title={`${address}\nopen in Solana Explorer`} data-testid="account-link">
      {label ?? `${address.slice(0, 5)}…${address.slice(-4)}`} ↗
    </a>
  );
}

'use client';
/**
 * The client-only wallet island: the wallet adapter's providers with `wallets={[]}`, so every
 * Wallet Standard wallet the page announces (Phantom, Solflare, Backpack, the e2e test wallet) is
 * found by itself, plus the chain config the server rendered (lib/wire WalletConfigView: the RPC
 * endpoint comes from the server's configuration only, never from the URL) and a counter the
 * actions bump so balances and agent state reload after a confirmed transaction.
 */
import { ConnectionProvider, WalletProvider } from '@solana/wallet-adapter-react';
import { WalletModalProvider } from '@solana/wallet-adapter-react-ui';
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import '@solana/wallet-adapter-react-ui/styles.css';
import './wallet.css';
import type { WalletConfigView } from '../../lib/wire';

interface WalletEnv {
  config: WalletConfigView;
  /** Bumped after every confirmed action; effects that read chain state depend on it. */
  version: number;
  changed(): void;
  /**
   * Priority fee (micro-lamports per compute unit) added to every transaction; always 0 on the embedded chain, which
   * has no fee market.
   */
  priorityMicroLamports: number;
  setPriorityMicroLamports(v: number): void;
}

const PRIORITY_KEY = 'zx1.priorityMicroLamports';

const Env = createContext<WalletEnv | null>(null);

/** The island's chain config and change counter (throws outside the island: a wiring bug). */
export function useWalletEnv(): WalletEnv {
  const e = useContext(Env);
  if (!e) throw new Error('useWalletEnv outside <WalletIsland>');
  return e;
}

/**
 * False during the server render and the hydration pass. The adapter restores the last wallet from
 * localStorage on the client's first render, so its connect button would differ from the server's
 * HTML; wallet-dependent UI renders after mount.
 */
export function useMounted(): boolean {
  const [m, set] = useState(false);
  useEffect(() => set(true), []);
  return m;
}

/** True inside the island (false when this process runs no chain). */
export function useHasWallet(): boolean {
  return useContext(Env) !== null;
}

/** An absolute endpoint: a same-origin path is resolved against the page (web3.js needs http(s)://). */
function endpointOf(rpc: string): string {
  if (!rpc.startsWith('/')) return rpc;
  return typeof window === 'undefined' ? `http://localhost${rpc}` : new URL(rpc, window.location.origin).toString();
}

export function WalletIsland({ config, children }: { config: WalletConfigView; children: React.ReactNode }) {
  const [version, setVersion] = useState(0);
  const changed = useCallback(() => setVersion((v) => v + 1), []);
  const [priority, setPriority] = useState(0);
  useEffect(() => {
    if (config.cluster === 'embedded') return;
    const v = Number(window.localStorage.getItem(PRIORITY_KEY) ?? '0');
    if (Number.isSafeInteger(v) && v >= 0) setPriority(v);
  }, [config.cluster]);
  const setPriorityMicroLamports = useCallback((v: number) => {
    setPriority(v);
    window.localStorage.setItem(PRIORITY_KEY, String(v));
  }, []);
  const priorityMicroLamports = config.cluster === 'embedded' ? 0 : priority;
  const env = useMemo(
    () => ({ config, version, changed, priorityMicroLamports, setPriorityMicroLamports }),
    [config, version, changed, priorityMicroLamports, setPriorityMicroLamports],
  );
  const endpoint = endpointOf(config.rpc);
  const onError = useCallback((e: Error) => console.warn('[wallet]', e.name, e.message), []);
  return (
    <Env.Provider value={env}>
      <ConnectionProvider endpoint={endpoint} config={{ commitment: 'confirmed' }}>
        <WalletProvider wallets={[]} autoConnect onError={onError}>
          <WalletModalProvider>{children}</WalletModalProvider>
        </WalletProvider>
      </ConnectionProvider>
    </Env.Provider>
  );
}

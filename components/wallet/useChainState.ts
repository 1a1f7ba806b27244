'use client';
/**
 * Reads the browser needs from the chain over the configured JSON-RPC: the deployment's economy
 * config (USDC mint, treasury, vault, epoch length), the wallet's SOL and USDC balances, and the
 * identity NFTs it holds. Each reloads when an action confirms (useWalletEnv().version).
 */
import { useConnection } from '@solana/wallet-adapter-react';
import { useEffect, useState } from 'react';
import { type EconomyConfig, loadEconomyConfig, type PublicKey, usdcAccountOf } from '../../lib/chain';
import { useWalletEnv } from './WalletIsland';

const economies = new WeakMap<object, Promise<EconomyConfig>>();

/**
 * Calls `read` until it answers: a failure is reported and tried again after `firstDelayMs`,
 * doubling up to 10 s (a busy RPC proxy answers 429 for a moment, and a failed read must not
 * stand as an answer). Returns the function that stops it (an effect's clean-up).
 */
export function retryRead<T>(
  read: () => Promise<T>,
  onValue: (value: T) => void,
  onError: (message: string) => void,
  firstDelayMs = 1000,
): () => void {
  let live = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const attempt = (n: number) => {
    read().then(
      (value) => live && onValue(value),
      (e: unknown) => {
        if (!live) return;
        onError(e instanceof Error ? e.message : String(e));
        timer = setTimeout(() => attempt(n + 1), Math.min(10_000, firstDelayMs * 2 ** Math.min(n, 4)));
      },
    );
  };
  attempt(0);
  return () => {
    live = false;
    clearTimeout(timer);
  };
}

/** The deployment's economy config; null while loading or when the programs are not initialized. */
export function useEconomy(): { economy: EconomyConfig | null; error: string | null } {
  const { connection } = useConnection();
  const [s, set] = useState<{ economy: EconomyConfig | null; error: string | null }>({ economy: null, error: null });
  useEffect(() => {
    // One read per connection shared by every card and action on the page; a failure is dropped
    // from the cache, so the next try reads again.
    const shared = (): Promise<EconomyConfig> => {
      let p = economies.get(connection);
      if (!p) {
        p = loadEconomyConfig(connection);
        economies.set(connection, p);
        p.catch(() => economies.delete(connection));
      }
      return p;
    };
    return retryRead(
      shared,
      (economy) => set({ economy, error: null }),
      (error) => set({ economy: null, error }),
      2000,
    );
  }, [connection]);
  return s;
}

export interface Balances {
  lamports: bigint | null;
  usdc: bigint | null;
}

/** SOL (lamports) and USDC (base units; 0 when the wallet has no USDC account) of `owner`. */
export function useBalances(owner: PublicKey | null, economy: EconomyConfig | null): Balances {
  const { connection } = useConnection();
  const { version } = useWalletEnv();
  const [b, set] = useState<Balances>({ lamports: null, usdc: null });
  useEffect(() => {
    if (!owner) return void set({ lamports: null, usdc: null });
    let live = true;
    const load = async () => {
      const lamports = BigInt(await connection.getBalance(owner, 'confirmed'));
      let usdc: bigint | null = null;
      if (economy) {
        const acc = await connection
          .getTokenAccountBalance(usdcAccountOf(economy.usdcMint, owner), 'confirmed')
          .catch(() => null);
        usdc = acc ? BigInt(acc.value.amount) : 0n;
      }
      if (live) set({ lamports, usdc });
    };
    load().catch(() => undefined);
    const t = setInterval(() => void load().catch(() => undefined), 5000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [connection, owner, economy, version]);
  return b;
}

// One timer for every component reading the clock.
const clockListeners = new Set<(s: number) => void>();
let clockTimer: ReturnType<typeof setInterval> | null = null;

/** Unix seconds, re-read every second: phases computed from the clock move on without a reload. */
export function useNowSec(): number {
  const [now, set] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    clockListeners.add(set);
    clockTimer ??= setInterval(() => {
      const s = Math.floor(Date.now() / 1000);
      for (const l of clockListeners) l(s);
    }, 1000);
    return () => {
      clockListeners.delete(set);
      if (clockListeners.size === 0 && clockTimer) {
        clearInterval(clockTimer);
        clockTimer = null;
      }
    };
  }, []);
  return now;
}

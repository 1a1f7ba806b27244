'use client';
/**
 * React state around run-action.ts: the current action's label and phase events, and the pending
 * confirmation of its preview (the Sign / Cancel buttons of ActionPhases); reloads chain reads on
 * confirmation.
 */
import { useConnection, useWallet } from '@solana/wallet-adapter-react';
import { useCallback, useRef, useState } from 'react';
import { type Transaction, usdcAccountOf } from '../../lib/chain';
import { type BuiltAction, type PhaseEvent, runAction } from './run-action';
import { useEconomy } from './useChainState';
import { useWalletEnv } from './WalletIsland';

export interface ActionView {
  /** Increases with every action started in this page (tests wait for a run newer than the last). */
  run: number;
  label: string;
  events: PhaseEvent[];
  /** Set while the preview waits for the person: true signs, false cancels. */
  decide?: (ok: boolean) => void;
}

let runs = 0;

export function useAction() {
  const { connection } = useConnection();
  const wallet = useWallet();
  const { changed, priorityMicroLamports } = useWalletEnv();
  const { economy } = useEconomy();
  const [view, setView] = useState<ActionView | null>(null);
  const [busy, setBusy] = useState(false);
  const decider = useRef<((ok: boolean) => void) | null>(null);
  const run = useCallback(
    async (label: string, build: () => Promise<BuiltAction>): Promise<PhaseEvent | null> => {
      const { publicKey, signTransaction, signAllTransactions } = wallet;
      if (!publicKey || !signTransaction) {
        setView({
          run: ++runs,
          label,
          events: [{ phase: 'failed', signatures: [], error: 'Connect a wallet that can sign transactions first.' }],
        });
        return null;
      }
      setBusy(true);
      const run = ++runs;
      setView({ run, label, events: [] });
      const signAll =
        signAllTransactions ??
        (async (txs: Transaction[]) => {
          const out: Transaction[] = [];
          for (const t of txs) out.push(await signTransaction(t));
          return out;
        });
      const last = await runAction({
        connection,
        feePayer: publicKey,
        build,
        signAll: signAll as (txs: Transaction[]) => Promise<Transaction[]>,
        usdcAccount: economy ? usdcAccountOf(economy.usdcMint, publicKey) : null,
        priorityMicroLamports,
        confirm: () =>
          new Promise<boolean>((resolve) => {
            const decide = (ok: boolean) => {
              decider.current = null;
              setView((v) => (v?.run === run ? { ...v, decide: undefined } : v));
              resolve(ok);
            };
            decider.current = decide;
            setView((v) => (v?.run === run ? { ...v, decide } : v));
          }),
        onPhase: (e) =>
          setView((v) => ({
            run,
            label,
            events: [...(v?.run === run ? v.events : []), e],
            decide: v?.run === run ? v.decide : undefined,
          })),
      });
      setBusy(false);
      if (last.phase === 'confirmed' || last.signatures.length > 0) changed();
      return last;
    },
    [connection, wallet, changed, economy, priorityMicroLamports],
  );
  return { view, busy, run };
}

'use client';
/**
 * The header's wallet corner: the cluster the server configured, the connect button (the wallet
 * adapter's modal lists every Wallet Standard wallet found), and once connected the address in
 * base58 with its SOL and USDC balances, plus the faucet on the embedded chain.
 */
import { useWallet } from '@solana/wallet-adapter-react';
import { WalletMultiButton } from '@solana/wallet-adapter-react-ui';
import { useState } from 'react';
import { FaucetResultSchema } from '../../lib/wire';
import { shortAddress, sol, usdc } from './format';
import { useBalances, useEconomy } from './useChainState';
import { useHasWallet, useMounted, useWalletEnv } from './WalletIsland';

/** Nothing when the process runs no chain (no island). */
export function HeaderWallet() {
  return useHasWallet() ? <Corner /> : null;
}

function Corner() {
  const { config, changed } = useWalletEnv();
  const { publicKey } = useWallet();
  const { economy } = useEconomy();
  const bal = useBalances(publicKey, economy);
  const [faucet, setFaucet] = useState<string | null>(null);
  const address = publicKey?.toBase58() ?? null;
  const mounted = useMounted();

  const drip = async () => {
    if (!address) return;
    setFaucet('sending…');
    try {
      const res = await fetch('/api/chain/faucet', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ address }),
      });
      const body = (await res.json()) as unknown;
      if (!res.ok) return setFaucet((body as { error?: string }).error ?? `faucet refused (${res.status})`);
      const r = FaucetResultSchema.parse(body);
      setFaucet(`+${sol(BigInt(r.lamports))} SOL, +${usdc(r.usdc)} USDC`);
      changed();
    } catch (e) {
      setFaucet(`faucet failed: ${(e as Error).message}`);
    }
  };

  return (
    <div className="wallet-corner" data-testid="wallet-corner">
      <span className={`cluster cluster-${config.cluster}`} data-testid="cluster" title={config.rpc}>
        {config.cluster === 'embedded' ? 'embedded chain' : config.cluster}
      </span>
      {address ? (
        <span className="wallet-balances mono" data-testid="wallet-balances">
          <span title={address} data-testid="wallet-address">
            {shortAddress(address)}
          </span>
          <span data-testid="wallet-sol">{sol(bal.lamports)} SOL</span>
          <span data-testid="wallet-usdc">{usdc(bal.usdc)} USDC</span>
        </span>
      ) : null}
      {address && config.faucet ? (
        <button
          type="button"
          className="btn small"
          onClick={drip}
          data-testid="faucet"
          title={faucet ?? 'airdrop 2 SOL and mint 100 demo USDC (embedded chain only)'}
        >
          Faucet
        </button>
      ) : null}
      {faucet ? (
        <span className="small muted faucet-result" data-testid="faucet-result" title={faucet}>
          {faucet}
        </span>
      ) : null}
      {mounted ? <WalletMultiButton /> : null}
    </div>
  );
}

'use client';
/**
 * "My agents": the agents whose identity NFT the connected wallet holds, each with its stake,
 * lease, batches and the challenges against it, and the actions possible now; plus registering a
 * new identity (embedded chain: a Token-2022 NFT minted to the wallet; a real cluster: SATI).
 */
import { useEffect, useState } from 'react';
import { useConnection, useWallet } from '@solana/wallet-adapter-react';
import { WalletMultiButton } from '@solana/wallet-adapter-react-ui';
import { IDENTITY_MINT_SIZE, createAgentIdentityInstructions, findOwnedIdentities, freshSigner, type PublicKey } from '../../lib/chain';
import { ActionPhases } from './ActionPhases';
import { AgentCard } from './AgentCard';
import { useAction } from './useAction';
import { useBalances, useEconomy } from './useChainState';
import { useHasWallet, useMounted, useWalletEnv } from './WalletIsland';

export function MyAgents() {
  if (!useHasWallet()) return <p className="muted empty">This observatory runs without a chain (CHAIN=off): there is nothing to act on.</p>;
  return <Owner />;
}

function Owner() {
  const { connection } = useConnection();
  const { publicKey } = useWallet();
  const { config, version } = useWalletEnv();
  const { economy, error: ecoError } = useEconomy();
  const bal = useBalances(publicKey, economy);
  const [agents, setAgents] = useState<PublicKey[] | null>(null);
  const register = useAction();
  const mounted = useMounted();

  useEffect(() => {
    if (!publicKey) return void setAgents(null);
    let live = true;
    findOwnedIdentities(connection, publicKey).then((a) => live && setAgents(a), () => live && setAgents([]));
    return () => { live = false; };
  }, [connection, publicKey, version]);

  if (!mounted) return <p className="muted">Looking for wallets…</p>;
  if (!publicKey) {
    return (
      <section className="card" data-testid="my-agents-disconnected">
        <p>Connect a wallet to see the agents whose identity NFT it holds and act for them.</p>
        <WalletMultiButton />
      </section>
    );
  }

  const onRegister = () => register.run('Register an agent identity', async () => {
    const mint = freshSigner();
    const lamports = await connection.getMinimumBalanceForRentExemption(IDENTITY_MINT_SIZE);
    return { txs: [{ ixs: createAgentIdentityInstructions({ payer: publicKey, mint: mint.publicKey, lamports }), partialSigners: [mint] }] };
  });
  const noSol = bal.lamports !== null && bal.lamports < 10_000_000n;

  return (
    <>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Register an agent</h2>
        {config.cluster === 'embedded' ? (
          <>
            <p className="small muted">Mints a Token-2022 NFT (supply 1) to this wallet: its address is the new agent id, and this wallet its owner.</p>
            <button type="button" className="btn" data-testid="register" onClick={onRegister} disabled={register.busy || noSol} title={noSol ? 'needs SOL for rent and fees: use the faucet' : undefined}>
              Register agent identity
            </button>
            {noSol ? <span className="reason small"> needs SOL for rent and fees: use the faucet</span> : null}
            <ActionPhases view={register.view} />
          </>
        ) : (
          <p>
            On {config.cluster} agent identities are registered with SATI:{' '}
            {config.registerUrl ? <a href={config.registerUrl} target="_blank" rel="noreferrer">register with SATI</a> : <span className="muted">set SATI_REGISTER_URL to link its registration page</span>}.
          </p>
        )}
      </section>
      {ecoError ? <p className="bad-text">The 0x01 programs are not initialized on this chain: {ecoError}</p> : null}
      {agents === null ? <p className="muted">Looking up the identities this wallet holds…</p> : agents.length === 0 ? (
        <p className="muted empty" data-testid="no-agents">This wallet holds no agent identity yet.</p>
      ) : (
        <div data-testid="my-agents">
          {agents.map((a) => <AgentCard key={a.toBase58()} agent={a} owner={publicKey} economy={economy} />)}
        </div>
      )}
    </>
  );
}

'use client';
/**
 * "My agents": the agents whose identity NFT the connected wallet holds, each with its stake,
 * lease, batches and the challenges against it, and the actions possible now; plus registering a
 * new agent with SATI's register_agent (embedded chain: its stand-in registry; a real cluster: a
 * link to SATI's registration page).
 */
import { useConnection, useWallet } from '@solana/wallet-adapter-react';
import { WalletMultiButton } from '@solana/wallet-adapter-react-ui';
import { useEffect, useState } from 'react';
import {
  findOwnedIdentities,
  freshSigner,
  loadRegistryConfig,
  type PublicKey,
  registerAgentInstruction,
} from '../../lib/chain';
import type { SatiAddressesView } from '../../lib/wire';
import { ActionPhases } from './ActionPhases';
import { AgentCard } from './AgentCard';
import { MyChallenges, NetworkPanel, OwnerHistory } from './OwnerPanels';
import { checkRegisterForm, type RegisterFormInput } from './register-form';
import { useAction } from './useAction';
import { retryRead, useBalances, useEconomy } from './useChainState';
import { useHasWallet, useMounted, useWalletEnv } from './WalletIsland';

/** `sati`: SATI's addresses on the server's chain (delegations are read with them); null without a chain. */
export function MyAgents({ sati = null }: { sati?: SatiAddressesView | null }) {
  if (!useHasWallet())
    return (
      <p className="muted empty">This observatory runs without a chain (CHAIN=off): there is nothing to act on.</p>
    );
  return <Owner sati={sati} />;
}

function Owner({ sati }: { sati: SatiAddressesView | null }) {
  const { connection } = useConnection();
  const { publicKey } = useWallet();
  const { config, version } = useWalletEnv();
  const { economy, error: ecoError } = useEconomy();
  const bal = useBalances(publicKey, economy);
  const [agents, setAgents] = useState<PublicKey[] | null>(null);
  const [agentsError, setAgentsError] = useState<string | null>(null);
  const register = useAction();
  const mounted = useMounted();
  const [form, setForm] = useState<RegisterFormInput>({ name: '', symbol: 'AGENT', uri: '', nonTransferable: false });
  const [tried, setTried] = useState(false);

  useEffect(() => {
    setAgentsError(null);
    if (!publicKey) return void setAgents(null);
    // A failed read is not "no agents": the page says the read failed and tries again.
    return retryRead(
      () => findOwnedIdentities(connection, publicKey),
      (a) => {
        setAgents(a);
        setAgentsError(null);
      },
      setAgentsError,
    );
  }, [connection, publicKey, version]);

  if (!mounted) return <p className="muted">Looking for wallets…</p>;
  if (!publicKey) {
    return (
      <>
        <NetworkPanel />
        <section className="card" data-testid="my-agents-disconnected">
          <p>Connect a wallet to see the agents whose identity NFT it holds and act for them.</p>
          <WalletMultiButton />
        </section>
      </>
    );
  }

  const checked = checkRegisterForm(form);
  const errors = !checked.ok && tried ? checked.errors : {};
  const onRegister = () => {
    setTried(true);
    if (!checked.ok) return;
    const args = checked.args;
    void register.run(`Register agent "${args.name}" with SATI`, async () => {
      if (!economy) throw new Error('the 0x01 programs are not initialized on this chain');
      const mint = freshSigner();
      const registry = await loadRegistryConfig(connection, economy.satiProgram);
      const ix = registerAgentInstruction({
        payer: publicKey,
        agentMint: mint.publicKey,
        registry,
        program: economy.satiProgram,
        ...args,
      });
      return {
        txs: [{ ixs: [ix], partialSigners: [mint] }],
        // The accounts SATI creates, named by their place in register_agent's account list.
        notes: [
          { address: mint.publicKey, label: 'identity NFT mint (the agent id)' },
          { address: ix.keys[5].pubkey, label: "this wallet's token account holding the NFT" },
          { address: ix.keys[7].pubkey, label: "SATI's AgentIndex entry (member number → agent)" },
        ],
        stakes: [
          'The identity NFT is minted to this wallet: whoever holds it owns the agent. ' +
            'The rent of the accounts SATI creates is not returned (the identity stays).',
        ],
      };
    });
  };
  const field = (k: 'name' | 'symbol' | 'uri', label: string, hint: string, placeholder: string) => (
    <label className="form-field">
      <span>
        {label} <span className="muted small">{hint}</span>
      </span>
      <input
        value={form[k]}
        placeholder={placeholder}
        data-testid={`register-${k}`}
        aria-invalid={errors[k] ? true : undefined}
        onChange={(e) => setForm({ ...form, [k]: e.target.value })}
      />
      {errors[k] ? (
        <span className="reason small" role="alert" data-testid={`register-${k}-error`}>
          {errors[k]}
        </span>
      ) : null}
    </label>
  );
  const noSol = bal.lamports !== null && bal.lamports < 10_000_000n;

  return (
    <>
      <NetworkPanel />
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Register an agent</h2>
        {config.cluster === 'embedded' ? (
          <>
            <p className="small muted">
              Registers an agent with SATI (register_agent): a Token-2022 NFT (supply 1) in SATI&apos;s group, minted to
              this wallet. Its address is the new agent id, and this wallet its owner.
            </p>
            <form
              className="register-form"
              data-testid="register-form"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                onRegister();
              }}
            >
              {field('name', 'Name', '(required, ≤ 32 bytes)', 'weather bot')}
              {field('symbol', 'Symbol', '(≤ 10 bytes)', 'AGENT')}
              {field(
                'uri',
                'Registration file URI',
                '(optional, ≤ 200 bytes; https://, http:// or data:)',
                'https://example.com/agent.json',
              )}
              <label className="form-check">
                <input
                  type="checkbox"
                  checked={form.nonTransferable}
                  data-testid="register-nontransferable"
                  onChange={(e) => setForm({ ...form, nonTransferable: e.target.checked })}
                />
                <span>
                  Non-transferable{' '}
                  <span
                    className="muted small"
                    title={
                      'Token-2022 NonTransferable extension: the identity NFT can ' +
                      'never leave this wallet, so the agent can never change owner'
                    }
                  >
                    (the NFT can never move to another wallet)
                  </span>
                </span>
              </label>
              <button
                type="submit"
                className="btn"
                data-testid="register"
                disabled={register.busy || noSol || !economy}
                title={
                  noSol
                    ? 'needs SOL for rent and fees: use the faucet'
                    : !economy
                      ? 'reading the deployment from the chain…'
                      : undefined
                }
              >
                Register agent identity
              </button>
            </form>
            {noSol ? <span className="reason small"> needs SOL for rent and fees: use the faucet</span> : null}
            <ActionPhases view={register.view} />
          </>
        ) : (
          <p>
            On {config.cluster} agent identities are registered with SATI:{' '}
            {config.registerUrl ? (
              <a href={config.registerUrl} target="_blank" rel="noreferrer">
                register with SATI
              </a>
            ) : (
              <span className="muted">set SATI_REGISTER_URL to link its registration page</span>
            )}
            .
          </p>
        )}
      </section>
      {ecoError ? <p className="bad-text">The 0x01 programs are not initialized on this chain: {ecoError}</p> : null}
      {agents === null && agentsError ? (
        <p className="bad-text" role="alert" data-testid="my-agents-error">
          Could not read the identities this wallet holds ({agentsError}); trying again…
        </p>
      ) : agents === null ? (
        <p className="muted">Looking up the identities this wallet holds…</p>
      ) : agents.length === 0 ? (
        <p className="muted empty" data-testid="no-agents">
          This wallet holds no agent identity yet.
        </p>
      ) : (
        <div data-testid="my-agents">
          {agents.map((a) => (
            <AgentCard
              key={a.toBase58()}
              agent={a}
              owner={publicKey}
              economy={economy}
              sati={sati}
              usdcHeld={bal.usdc}
            />
          ))}
        </div>
      )}
      <MyChallenges owner={publicKey} agents={agents ?? []} economy={economy} />
      <OwnerHistory owner={publicKey} economy={economy} />
    </>
  );
}

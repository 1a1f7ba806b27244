'use client';
/**
 * One agent of "My agents": stake, lease (status, next due epoch, grace and deactivation), its
 * batches with their check against the uploaded log, the challenges against it (window,
 * resolution), and the actions possible now, each disabled with its reason when it cannot act.
 */
import { useEffect, useState } from 'react';
import { useConnection } from '@solana/wallet-adapter-react';
import {
  PublicKey, claimStakeInstructions, lockStakeInstructions, payLeaseInstructions, queueUnlockInstructions, readAgentAccounts, tickLeaseInstructions,
  type EconomyConfig,
} from '../../lib/chain';
import type { BatchJson, ChallengeJson } from '../../lib/wire';
import { ActionPhases } from './ActionPhases';
import { ChallengeRows } from './ChallengeRows';
import { parseUsdc, usdc } from './format';
import { STAKE_STATUS_NAMES, leaseSummary, ownerActions, type AgentNow, type Can } from './owner-state';
import { useAction } from './useAction';
import { useWalletEnv } from './WalletIsland';

const hexOf = (k: PublicKey) => Array.from(k.toBytes(), (b) => b.toString(16).padStart(2, '0')).join('');

function Act({ can, onClick, busy, children, id }: { can: Can; onClick: () => void; busy: boolean; children: React.ReactNode; id: string }) {
  return (
    <span className="act">
      <button type="button" className="btn" data-testid={id} disabled={busy || !can.ok} onClick={onClick}>{children}</button>
      {!can.ok ? <span className="reason small" data-testid={`${id}-reason`}>{can.reason}</span> : null}
    </span>
  );
}

export function AgentCard({ agent, owner, economy }: { agent: PublicKey; owner: PublicKey; economy: EconomyConfig | null }) {
  const { connection } = useConnection();
  const { version } = useWalletEnv();
  const [now, setNow] = useState<AgentNow | null>(null);
  const [batches, setBatches] = useState<BatchJson[]>([]);
  const [challenges, setChallenges] = useState<ChallengeJson[]>([]);
  const [amount, setAmount] = useState('10');
  const [epochs, setEpochs] = useState('1');
  const action = useAction();
  const address = agent.toBase58();

  useEffect(() => {
    if (!economy) return;
    let live = true;
    const load = async () => {
      const [acc, slot] = await Promise.all([readAgentAccounts(connection, agent), connection.getSlot('confirmed')]);
      const epoch = BigInt(Math.floor(Date.now() / 1000)) / economy.epochSeconds;
      const [b, c] = await Promise.all([
        fetch(`/api/batches?agent=${address}&limit=20`, { cache: 'no-store' }).then((r) => (r.ok ? r.json() : { batches: [] })) as Promise<{ batches: BatchJson[] }>,
        fetch(`/api/challenges?agent=${address}`, { cache: 'no-store' }).then((r) => (r.ok ? r.json() : { challenges: [] })) as Promise<{ challenges: ChallengeJson[] }>,
      ]);
      if (!live) return;
      setNow({ stake: acc.stake, lease: acc.lease, epoch, slot: BigInt(slot) });
      setBatches(b.batches);
      setChallenges(c.challenges);
    };
    void load().catch(() => undefined);
    const t = setInterval(() => void load().catch(() => undefined), 3000);
    return () => { live = false; clearInterval(t); };
  }, [connection, agent, address, economy, version]);

  if (!economy || !now) return <section className="card agent-card"><p className="muted">Loading {address}…</p></section>;
  const can = ownerActions(now);
  const amt = parseUsdc(amount);
  const n = Number(epochs);
  const epochsOk = Number.isInteger(n) && n >= 1 && n <= 1000;
  const eco = economy;

  return (
    <section className="card agent-card" data-testid="agent-card" data-agent={address} style={{ marginBottom: 16 }}>
      <h2 className="mono" style={{ textTransform: 'none' }}><a href={`/agents/${hexOf(agent)}`}>{address}</a></h2>
      <dl className="kv">
        <dt>Stake</dt>
        <dd className="mono" data-testid="card-stake">{now.stake ? `${usdc(now.stake.amount)} USDC, ${STAKE_STATUS_NAMES[now.stake.status] ?? now.stake.status}` : 'none'}</dd>
        <dt>Lease</dt>
        <dd className="mono" data-testid="card-lease">{leaseSummary(now)}</dd>
        <dt>Epoch now</dt>
        <dd className="mono">{now.epoch.toString()} (slot {now.slot.toString()})</dd>
      </dl>
      <div className="actions">
        <span className="act">
          <input aria-label="stake USDC" className="num" value={amount} onChange={(e) => setAmount(e.target.value)} data-testid="stake-amount" />
          <Act id="lock-stake" busy={action.busy} can={!amt ? { ok: false, reason: 'enter a USDC amount' } : can.lockStake}
            onClick={() => action.run(`Lock ${usdc(amt!)} USDC stake`, async () => ({ txs: [{ ixs: lockStakeInstructions({ owner, agent, amount: amt!, config: eco }) }] }))}>Lock stake</Act>
        </span>
        <span className="act">
          <input aria-label="lease epochs" className="num" value={epochs} onChange={(e) => setEpochs(e.target.value)} data-testid="lease-epochs" />
          <Act id="pay-lease" busy={action.busy} can={epochsOk ? can.payLease : { ok: false, reason: 'epochs must be 1..1000' }}
            onClick={() => action.run(`Pay lease for ${n} epoch${n === 1 ? '' : 's'}`, async () => ({ txs: [{ ixs: payLeaseInstructions({ payer: owner, agent, epochs: n, config: eco }) }] }))}>Pay lease</Act>
        </span>
        <Act id="tick-lease" busy={action.busy} can={can.tickLease} onClick={() => action.run('Tick lease', async () => ({ txs: [{ ixs: tickLeaseInstructions({ agent }) }] }))}>Tick lease</Act>
        <Act id="queue-unlock" busy={action.busy} can={can.queueUnlock} onClick={() => action.run('Queue unlock', async () => ({ txs: [{ ixs: queueUnlockInstructions({ owner, agent }) }] }))}>Queue unlock</Act>
        <Act id="claim-stake" busy={action.busy} can={can.claimStake} onClick={() => action.run('Claim stake', async () => ({ txs: [{ ixs: claimStakeInstructions({ owner, agent, config: eco }) }] }))}>Claim stake</Act>
      </div>
      <ActionPhases view={action.view} />
      <h3 className="small">Batches</h3>
      {batches.length === 0 ? <p className="muted empty">No batch submitted yet.</p> : (
        <table className="list" data-testid="card-batches">
          <thead><tr><th>Epoch</th><th>Status</th><th>Bids</th></tr></thead>
          <tbody>{batches.map((b) => <tr key={b.epoch}><td className="mono">{b.epoch}</td><td>{b.status}</td><td className="mono">{String((b.data as { bidCount?: unknown } | null)?.bidCount ?? '')}</td></tr>)}</tbody>
        </table>
      )}
      <h3 className="small">Challenges against this agent</h3>
      <ChallengeRows challenges={challenges} agentHex={hexOf(agent)} />
    </section>
  );
}

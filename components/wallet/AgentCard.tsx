'use client';
/**
 * One agent of "My agents": stake, lease (status, next due epoch, grace and deactivation), its
 * batches with their check against the uploaded log, the challenges against it (window,
 * resolution), and the actions possible now, each disabled with its reason when it cannot act.
 */
import { useEffect, useState } from 'react';
import { useConnection } from '@solana/wallet-adapter-react';
import {
  PublicKey, claimStakeInstructions, lease, loadSatiMembership, lockStakeInstructions, payLeaseInstructions, queueUnlockInstructions, readAgentAccounts,
  stakeLock, tickLeaseInstructions,
  type EconomyConfig,
} from '../../lib/chain';
import { GRACE_PERIOD_EPOCHS, LEASE_COST_PER_EPOCH, UNLOCK_DELAY_SLOTS } from '../../lib/protocol/constants';
import type { BatchJson, ChallengeJson, SatiAddressesView } from '../../lib/wire';
import { ActionPhases } from './ActionPhases';
import { ChallengeRows } from './ChallengeRows';
import { Delegations } from './Delegations';
import { expiryText, parseUsdc, usdc } from './format';
import { STAKE_STATUS_NAMES, leaseHealth, leaseSummary, ownerActions, type AgentNow, type Can, type LeaseHealth } from './owner-state';
import type { BuiltAction } from './run-action';
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

const LEASE_TIP = `The lease keeps the agent active on the mesh: ${LEASE_COST_PER_EPOCH / 1_000_000n} USDC per epoch, paid ahead. Unpaid epochs start a grace of ${GRACE_PERIOD_EPOCHS} epochs; after it a tick (anyone may send one) deactivates the lease, and only paying every unpaid epoch reactivates it.`;

const HEALTH: Record<LeaseHealth['state'], { text: string; cls: string }> = {
  none: { text: 'no lease', cls: 'muted' },
  ok: { text: 'paid', cls: 'good-text' },
  'due-soon': { text: 'due soon', cls: 'warn-text' },
  grace: { text: 'in grace: unpaid', cls: 'warn-text' },
  lapsed: { text: 'lapsed: deactivated or deactivatable', cls: 'bad-text' },
};

/** Due date and grace deadline in clock time with the zone, and relative. */
function LeaseClock({ h, nowSec }: { h: LeaseHealth; nowSec: number }) {
  if (h.state === 'none' || h.dueAt === null || h.deactivatesAt === null) return null;
  const s = HEALTH[h.state];
  return (
    <div className="small" data-testid="lease-health" data-state={h.state}>
      <strong className={s.cls}>{s.text}</strong>
      {h.state === 'ok' || h.state === 'due-soon' ? <> · next payment due {expiryText(BigInt(h.dueAt), nowSec)}; grace ends {expiryText(BigInt(h.deactivatesAt), nowSec)}</> : null}
      {h.state === 'grace' ? <> · unpaid since {expiryText(BigInt(h.dueAt), nowSec)}; a tick deactivates it from {expiryText(BigInt(h.deactivatesAt), nowSec)}</> : null}
      {h.state === 'lapsed' ? <> · unpaid since {expiryText(BigInt(h.dueAt), nowSec)}; grace ended {expiryText(BigInt(h.deactivatesAt), nowSec)}</> : null}
    </div>
  );
}

export function AgentCard({ agent, owner, economy, sati }: { agent: PublicKey; owner: PublicKey; economy: EconomyConfig | null; sati: SatiAddressesView | null }) {
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
  const nowSec = Math.floor(Date.now() / 1000);
  const health = leaseHealth(now, eco.epochSeconds, nowSec);
  const epochEnd = Number(now.epoch + 1n) * Number(eco.epochSeconds);
  const leaseNotes = (): BuiltAction['notes'] => (now.lease ? [] : [{ address: lease.findLeasePda(agent)[0], label: 'Lease account', size: lease.LEASE_SIZE }]);
  const payLease = (k: number, label: string) => action.run(label, async () => ({
    txs: [{ ixs: payLeaseInstructions({ payer: owner, agent, epochs: k, config: eco }) }],
    notes: leaseNotes(),
    stakes: [`${k} epoch${k === 1 ? '' : 's'} × ${usdc(LEASE_COST_PER_EPOCH)} USDC = ${usdc(LEASE_COST_PER_EPOCH * BigInt(k))} USDC to the treasury; not refundable.`],
  }));
  // pay_lease: the first payment covers the current epoch onwards; later ones extend paid_through_epoch.
  const payThrough = now.lease ? now.lease.paidThroughEpoch + (epochsOk ? BigInt(n) : 0n) : now.epoch + (epochsOk ? BigInt(n) - 1n : 0n);
  const reactivate = health.reactivateEpochs > 0n ? Number(health.reactivateEpochs) : 0;

  return (
    <section className="card agent-card" data-testid="agent-card" data-agent={address} style={{ marginBottom: 16 }}>
      <h2 className="mono" style={{ textTransform: 'none' }}><a href={`/agents/${hexOf(agent)}`} data-testid="card-link">{address}</a></h2>
      <dl className="kv">
        <dt>Stake</dt>
        <dd className="mono" data-testid="card-stake">{now.stake ? `${usdc(now.stake.amount)} USDC, ${STAKE_STATUS_NAMES[now.stake.status] ?? now.stake.status}` : 'none'}</dd>
        <dt><span className="tip" title={LEASE_TIP}>Lease</span></dt>
        <dd>
          <span className="mono" data-testid="card-lease">{leaseSummary(now)}</span>
          <LeaseClock h={health} nowSec={nowSec} />
        </dd>
        <dt>Epoch now</dt>
        <dd className="mono">{now.epoch.toString()} (slot {now.slot.toString()}); ends {expiryText(BigInt(epochEnd), nowSec)}</dd>
      </dl>
      <div className="actions">
        {reactivate > 0 ? (
          <span className="act">
            <button type="button" className="btn" data-testid="reactivate-lease" data-epochs={reactivate} disabled={action.busy}
              onClick={() => void payLease(reactivate, `Pay ${reactivate} epoch${reactivate === 1 ? '' : 's'} of lease to ${health.state === 'lapsed' ? 'reactivate' : 'leave grace'}`)}>
              Pay {reactivate} epoch{reactivate === 1 ? '' : 's'} to {health.state === 'lapsed' ? 'reactivate' : 'leave grace'}
            </button>
            <span className="small" data-testid="reactivate-amount">{reactivate} epoch{reactivate === 1 ? '' : 's'} × {usdc(LEASE_COST_PER_EPOCH)} USDC = {usdc(LEASE_COST_PER_EPOCH * BigInt(reactivate))} USDC
              <span className="muted"> ({health.backEpochs.toString()} unpaid through epoch {now.epoch.toString()}{BigInt(reactivate) > health.backEpochs ? ', plus the next epoch since this one ends within a minute' : ''})</span>
            </span>
          </span>
        ) : null}
        <span className="act">
          <label className="unit-input"><input aria-label="stake USDC" className="num" value={amount} onChange={(e) => setAmount(e.target.value)} data-testid="stake-amount" /> USDC</label>
          <Act id="lock-stake" busy={action.busy} can={!amt ? { ok: false, reason: 'enter a USDC amount (up to 6 decimals)' } : can.lockStake}
            onClick={() => action.run(`Lock ${usdc(amt!)} USDC stake`, async () => {
              // lock_stake names SATI's AgentIndex PDA, found by the agent's member number.
              const { memberNumber } = await loadSatiMembership(connection, agent, eco.satiProgram);
              return {
                txs: [{ ixs: lockStakeInstructions({ owner, agent, amount: amt!, config: eco, memberNumber }) }],
                notes: [{ address: stakeLock.findStakePda(agent)[0], label: 'Stake account', size: stakeLock.STAKE_SIZE }],
                stakes: [`${usdc(amt!)} USDC stays locked while the agent is leased; it comes back after the lease is deactivated, the unlock is queued and ${UNLOCK_DELAY_SLOTS.toLocaleString('en-US')} slots (about 2 days) pass. An upheld challenge slashes all of it (half to the challenger, half to the treasury).`],
              };
            })}>Lock stake</Act>
        </span>
        <span className="act">
          <label className="unit-input"><input aria-label="lease epochs" className="num" value={epochs} onChange={(e) => setEpochs(e.target.value)} data-testid="lease-epochs" /> epochs</label>
          <Act id="pay-lease" busy={action.busy} can={epochsOk ? can.payLease : { ok: false, reason: 'epochs must be a whole number 1..1000' }}
            onClick={() => void payLease(n, `Pay lease for ${n} epoch${n === 1 ? '' : 's'}`)}>Pay lease</Act>
          {epochsOk ? (
            <span className="small" data-testid="lease-total">{n} epoch{n === 1 ? '' : 's'} × {usdc(LEASE_COST_PER_EPOCH)} USDC = {usdc(LEASE_COST_PER_EPOCH * BigInt(n))} USDC
              <span className="muted"> (paid through epoch {payThrough.toString()}, until {expiryText(BigInt(Number(payThrough + 1n) * Number(eco.epochSeconds)), nowSec)})</span>
            </span>
          ) : null}
        </span>
        <Act id="tick-lease" busy={action.busy} can={can.tickLease} onClick={() => action.run('Tick lease', async () => ({ txs: [{ ixs: tickLeaseInstructions({ agent }) }], stakes: ['Anyone may tick: it only moves the stored status to what the epochs say (grace, deactivated).'] }))}>Tick lease</Act>
        <Act id="queue-unlock" busy={action.busy} can={can.queueUnlock} onClick={() => action.run('Queue unlock', async () => ({ txs: [{ ixs: queueUnlockInstructions({ owner, agent }) }], stakes: [`The stake becomes claimable ${UNLOCK_DELAY_SLOTS.toLocaleString('en-US')} slots (about 2 days) from now; until then it can still be slashed.`] }))}>Queue unlock</Act>
        <Act id="claim-stake" busy={action.busy} can={can.claimStake} onClick={() => action.run('Claim stake', async () => ({ txs: [{ ixs: claimStakeInstructions({ owner, agent, config: eco }) }], stakes: ['The whole stake comes back to this wallet\'s USDC account; the Stake account stays (its rent is not returned) and can be locked again.'] }))}>Claim stake</Act>
      </div>
      <ActionPhases view={action.view} />
      {sati ? <Delegations agent={agent} sati={sati} /> : null}
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

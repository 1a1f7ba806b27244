'use client';
/**
 * One agent of "My agents": stake, lease (status, next due epoch, grace and deactivation), its
 * batches with their check against the uploaded log, the challenges against it (window,
 * resolution), and the actions possible now, each disabled with its reason when it cannot act.
 */
import { useConnection } from '@solana/wallet-adapter-react';
import { useEffect, useState } from 'react';
import {
  claimStakeInstructions,
  type EconomyConfig,
  lease,
  loadSatiMembership,
  lockStakeInstructions,
  type PublicKey,
  payLeaseInstructions,
  queueUnlockInstructions,
  readAgentAccounts,
  stakeLock,
  tickLeaseInstructions,
} from '../../lib/chain';
import { GRACE_PERIOD_EPOCHS, LEASE_COST_PER_EPOCH, UNLOCK_DELAY_SLOTS } from '../../lib/protocol/constants';
import { toHex } from '../../lib/protocol/hex';
import type { BatchJson, ChallengeJson, SatiAddressesView } from '../../lib/wire';
import { EpochTime } from '../time/Time';
import { TimedText } from '../time/TimedText';
import { ActionPhases } from './ActionPhases';
import { ChallengeRows } from './ChallengeRows';
import { Delegations } from './Delegations';
import { expiryText, parseUsdc, usdc } from './format';
import { checkLeaseForm, checkStakeAmount, checkUsdcHeld, defaultLeaseEpochs, type Guard, leasePlan } from './guards';
import {
  type AgentNow,
  type Can,
  type LeaseHealth,
  leaseHealth,
  leaseSummary,
  ownerActions,
  STAKE_STATUS_NAMES,
} from './owner-state';
import type { BuiltAction } from './run-action';
import { useAction } from './useAction';
import { useNowSec } from './useChainState';
import { useWalletEnv } from './WalletIsland';

/** A program-state verdict first (stake already locked…), then the form's own (amounts, epochs). */
const both = (state: Can, form: Guard): Guard => (state.ok ? form : state);

/**
 * A button, disabled with the reason beside it; a refusal naming amounts carries them (base units) for tests and tools.
 */
function Act({
  can,
  onClick,
  busy,
  children,
  id,
}: {
  can: Can | Guard;
  onClick: () => void;
  busy: boolean;
  children: React.ReactNode;
  id: string;
}) {
  const g = can as Guard;
  return (
    <span className="act">
      <button type="button" className="btn" data-testid={id} disabled={busy || !can.ok} onClick={onClick}>
        {children}
      </button>
      {!g.ok ? (
        <span
          className="reason small"
          role="status"
          data-testid={`${id}-reason`}
          data-held={g.held?.toString()}
          data-need={g.need?.toString()}
        >
          {g.reason}
        </span>
      ) : g.note ? (
        <span className="small warn-text" data-testid={`${id}-note`}>
          {g.note}
        </span>
      ) : null}
    </span>
  );
}

const LEASE_TIP =
  `The lease keeps the agent active on the mesh: ${LEASE_COST_PER_EPOCH / 1_000_000n} USDC per ` +
  `epoch, paid ahead. Unpaid epochs start a grace of ${GRACE_PERIOD_EPOCHS} epochs; after it a tick ` +
  `(anyone may send one) deactivates the lease, and only paying every unpaid epoch reactivates it.`;

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
      {h.state === 'ok' || h.state === 'due-soon' ? (
        <>
          {' '}
          · next payment due {expiryText(BigInt(h.dueAt), nowSec)}; grace ends{' '}
          {expiryText(BigInt(h.deactivatesAt), nowSec)}
        </>
      ) : null}
      {h.state === 'grace' ? (
        <>
          {' '}
          · unpaid since {expiryText(BigInt(h.dueAt), nowSec)}; a tick deactivates it from{' '}
          {expiryText(BigInt(h.deactivatesAt), nowSec)}
        </>
      ) : null}
      {h.state === 'lapsed' ? (
        <>
          {' '}
          · unpaid since {expiryText(BigInt(h.dueAt), nowSec)}; grace ended{' '}
          {expiryText(BigInt(h.deactivatesAt), nowSec)}
        </>
      ) : null}
    </div>
  );
}

/** `usdcHeld`: the wallet's USDC (base units) as last read; null while unknown (the simulation then decides). */
export function AgentCard({
  agent,
  owner,
  economy,
  sati,
  usdcHeld,
}: {
  agent: PublicKey;
  owner: PublicKey;
  economy: EconomyConfig | null;
  sati: SatiAddressesView | null;
  usdcHeld: bigint | null;
}) {
  const { connection } = useConnection();
  const { version } = useWalletEnv();
  const [now, setNow] = useState<AgentNow | null>(null);
  const [batches, setBatches] = useState<BatchJson[]>([]);
  const [challenges, setChallenges] = useState<ChallengeJson[]>([]);
  const [amount, setAmount] = useState('10');
  // null: the proposed number of epochs (it follows the clock); text once the person types one.
  const [epochsText, setEpochs] = useState<string | null>(null);
  const action = useAction();
  const nowSec = useNowSec();
  const address = agent.toBase58();

  useEffect(() => {
    if (!economy) return;
    let live = true;
    const load = async () => {
      const [acc, slot] = await Promise.all([readAgentAccounts(connection, agent), connection.getSlot('confirmed')]);
      const epoch = BigInt(Math.floor(Date.now() / 1000)) / economy.epochSeconds;
      const [b, c] = await Promise.all([
        fetch(`/api/batches?agent=${address}&limit=20`, { cache: 'no-store' }).then((r) =>
          r.ok ? r.json() : { batches: [] },
        ) as Promise<{ batches: BatchJson[] }>,
        fetch(`/api/challenges?agent=${address}`, { cache: 'no-store' }).then((r) =>
          r.ok ? r.json() : { challenges: [] },
        ) as Promise<{ challenges: ChallengeJson[] }>,
      ]);
      if (!live) return;
      setNow({ stake: acc.stake, lease: acc.lease, epoch, slot: BigInt(slot) });
      setBatches(b.batches);
      setChallenges(c.challenges);
    };
    void load().catch(() => undefined);
    const t = setInterval(() => void load().catch(() => undefined), 3000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [connection, agent, address, economy, version]);

  if (!economy || !now)
    return (
      <section className="card agent-card">
        <p className="muted">Loading {address}…</p>
      </section>
    );
  const eco = economy;
  // The epoch from the clock this card re-renders with every second (the chain's Clock is wall time), not the last
  // read's.
  const at = { ...now, epoch: BigInt(nowSec) / eco.epochSeconds };
  const can = ownerActions(at);
  const amt = parseUsdc(amount);
  const stakeCheck = both(can.lockStake, checkStakeAmount(amt, usdcHeld));
  const paidThrough = now.lease?.paidThroughEpoch ?? null;
  const proposed = defaultLeaseEpochs(paidThrough, eco.epochSeconds, nowSec);
  const epochs = epochsText ?? proposed.toString();
  const leaseCheck = checkLeaseForm(epochs, paidThrough, eco.epochSeconds, nowSec, usdcHeld);
  const plan = leaseCheck.plan;
  const health = leaseHealth(at, eco.epochSeconds, nowSec);
  const leaseNotes = (): BuiltAction['notes'] =>
    now.lease ? [] : [{ address: lease.findLeasePda(agent)[0], label: 'Lease account', size: lease.LEASE_SIZE }];
  const payLease = async (k: number, label: string) => {
    const last = await action.run(label, async () => {
      // Built when clicked: the paid-through epoch and its end as of now, from pay_lease's rule.
      const p = leasePlan(paidThrough, eco.epochSeconds, Math.floor(Date.now() / 1000), BigInt(k));
      return {
        txs: [{ ixs: payLeaseInstructions({ payer: owner, agent, epochs: k, config: eco }) }],
        notes: leaseNotes(),
        stakes: [
          `${k} epoch${k === 1 ? '' : 's'} × ${usdc(LEASE_COST_PER_EPOCH)}` +
            ` USDC = ${usdc(p.cost)} USDC to the treasury; not refundable.`,
          `Paid through epoch ${p.paidThrough}, until ` +
            `${expiryText(BigInt(p.untilSec), Math.floor(Date.now() / 1000))}` +
            `${now.lease ? '' : ' (a first payment starts with the epoch it lands in)'}.`,
        ],
      };
    });
    // Paid: the form proposes again from the new paid-through epoch.
    if (last?.phase === 'confirmed') setEpochs(null);
  };
  const reactivate = health.reactivateEpochs > 0n ? Number(health.reactivateEpochs) : 0;
  const reactivateCheck = checkUsdcHeld(
    LEASE_COST_PER_EPOCH * BigInt(reactivate),
    usdcHeld,
    `${reactivate} epoch${reactivate === 1 ? '' : 's'} of lease`,
  );
  const reactivatePlan = reactivate > 0 ? leasePlan(paidThrough, eco.epochSeconds, nowSec, BigInt(reactivate)) : null;

  return (
    <section className="card agent-card" data-testid="agent-card" data-agent={address} style={{ marginBottom: 16 }}>
      <h2 className="mono" style={{ textTransform: 'none' }}>
        <a href={`/agents/${toHex(agent.toBytes())}`} data-testid="card-link">
          {address}
        </a>
      </h2>
      <dl className="kv">
        <dt>Stake</dt>
        <dd className="mono" data-testid="card-stake">
          {now.stake
            ? `${usdc(now.stake.amount)} USDC, ${STAKE_STATUS_NAMES[now.stake.status] ?? now.stake.status}`
            : 'none'}
        </dd>
        <dt>
          <span className="tip" title={LEASE_TIP}>
            Lease
          </span>
        </dt>
        <dd>
          <span data-testid="card-lease">
            <TimedText text={leaseSummary(now)} />
          </span>
          <LeaseClock h={health} nowSec={nowSec} />
        </dd>
        <dt>Epoch now</dt>
        <dd data-testid="card-epoch">
          <EpochTime epoch={at.epoch} epochSeconds={Number(eco.epochSeconds)} label={false} />{' '}
          <span className="muted small">(slot {now.slot.toString()})</span>
        </dd>
      </dl>
      <div className="actions">
        {reactivate > 0 && reactivatePlan ? (
          <span className="act">
            <Act
              id="reactivate-lease"
              busy={action.busy}
              can={reactivateCheck}
              onClick={() =>
                void payLease(
                  reactivate,
                  `Pay ${reactivate} epoch${reactivate === 1 ? '' : 's'} of lease ` +
                    `to ${health.state === 'lapsed' ? 'reactivate' : 'leave grace'}`,
                )
              }
            >
              Pay {reactivate} epoch{reactivate === 1 ? '' : 's'} to{' '}
              {health.state === 'lapsed' ? 'reactivate' : 'leave grace'}
            </Act>
            <span
              className="small"
              data-testid="reactivate-amount"
              data-epochs={reactivate}
              data-until={reactivatePlan.untilSec}
            >
              {reactivate} epoch{reactivate === 1 ? '' : 's'} × {usdc(LEASE_COST_PER_EPOCH)} USDC ={' '}
              {usdc(reactivatePlan.cost)} USDC
              <span className="muted">
                {' '}
                ({health.backEpochs.toString()} unpaid through epoch {at.epoch.toString()}, then paid through epoch{' '}
                {reactivatePlan.paidThrough.toString()}, until {expiryText(BigInt(reactivatePlan.untilSec), nowSec)})
              </span>
            </span>
          </span>
        ) : null}
        <span className="act">
          <label className="unit-input">
            <input
              aria-label="stake USDC"
              className="num"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              data-testid="stake-amount"
            />{' '}
            USDC
          </label>
          <Act
            id="lock-stake"
            busy={action.busy}
            can={stakeCheck}
            onClick={() =>
              action.run(`Lock ${usdc(amt!)} USDC stake`, async () => {
                // lock_stake names SATI's AgentIndex PDA, found by the agent's member number.
                const { memberNumber } = await loadSatiMembership(connection, agent, eco.satiProgram);
                return {
                  txs: [{ ixs: lockStakeInstructions({ owner, agent, amount: amt!, config: eco, memberNumber }) }],
                  notes: [
                    { address: stakeLock.findStakePda(agent)[0], label: 'Stake account', size: stakeLock.STAKE_SIZE },
                  ],
                  stakes: [
                    `${usdc(amt!)} USDC stays locked while the agent is leased; it comes back ` +
                      `after the lease is deactivated, the unlock is queued and ` +
                      `${UNLOCK_DELAY_SLOTS.toLocaleString('en-US')} slots (about 2 days) pass. An upheld ` +
                      `challenge slashes all of it (half to the challenger, half to the treasury).`,
                  ],
                };
              })
            }
          >
            Lock stake
          </Act>
        </span>
        <span className="act">
          <label className="unit-input">
            <input
              aria-label="lease epochs"
              className="num"
              value={epochs}
              onChange={(e) => setEpochs(e.target.value)}
              data-testid="lease-epochs"
            />{' '}
            epochs
          </label>
          <Act
            id="pay-lease"
            busy={action.busy}
            can={both(can.payLease, leaseCheck)}
            onClick={() => void payLease(Number(epochs), `Pay lease for ${epochs} epoch${epochs === '1' ? '' : 's'}`)}
          >
            Pay lease
          </Act>
          {plan ? (
            <span
              className="small"
              data-testid="lease-total"
              data-epochs={plan.epochs.toString()}
              data-paid-through={plan.paidThrough.toString()}
              data-until={plan.untilSec}
              data-whole-future={plan.wholeFutureEpochs.toString()}
            >
              {plan.epochs.toString()} epoch{plan.epochs === 1n ? '' : 's'} × {usdc(LEASE_COST_PER_EPOCH)} USDC ={' '}
              {usdc(plan.cost)} USDC
              <span className="muted">
                {' '}
                (paid through epoch {plan.paidThrough.toString()}, until{' '}
                <span data-testid="lease-until">{expiryText(BigInt(plan.untilSec), nowSec)}</span>
                {epochsText === null ? '; proposed so that one whole epoch after the current one is paid' : ''})
              </span>
            </span>
          ) : null}
        </span>
        <Act
          id="tick-lease"
          busy={action.busy}
          can={can.tickLease}
          onClick={() =>
            action.run('Tick lease', async () => ({
              txs: [{ ixs: tickLeaseInstructions({ agent }) }],
              stakes: ['Anyone may tick: it only moves the stored status to what the epochs say (grace, deactivated).'],
            }))
          }
        >
          Tick lease
        </Act>
        <Act
          id="queue-unlock"
          busy={action.busy}
          can={can.queueUnlock}
          onClick={() =>
            action.run('Queue unlock', async () => ({
              txs: [{ ixs: queueUnlockInstructions({ owner, agent }) }],
              stakes: [
                `The stake becomes claimable ${UNLOCK_DELAY_SLOTS.toLocaleString('en-US')}` +
                  ` slots (about 2 days) from now; until then it can still be slashed.`,
              ],
            }))
          }
        >
          Queue unlock
        </Act>
        <Act
          id="claim-stake"
          busy={action.busy}
          can={can.claimStake}
          onClick={() =>
            action.run('Claim stake', async () => ({
              txs: [{ ixs: claimStakeInstructions({ owner, agent, config: eco }) }],
              stakes: [
                "The whole stake comes back to this wallet's USDC account; the Stake " +
                  'account stays (its rent is not returned) and can be locked again.',
              ],
            }))
          }
        >
          Claim stake
        </Act>
      </div>
      <ActionPhases view={action.view} />
      {sati ? <Delegations agent={agent} sati={sati} /> : null}
      <h3 className="small">Batches</h3>
      {batches.length === 0 ? (
        <p className="muted empty">No batch submitted yet.</p>
      ) : (
        <table className="list" data-testid="card-batches">
          <thead>
            <tr>
              <th>Epoch</th>
              <th>Status</th>
              <th>Bids</th>
            </tr>
          </thead>
          <tbody>
            {batches.map((b) => (
              <tr key={b.epoch}>
                <td className="mono">
                  <EpochTime epoch={b.epoch} epochSeconds={Number(eco.epochSeconds)} label={false} />
                </td>
                <td>{b.status}</td>
                <td className="mono">{String((b.data as { bidCount?: unknown } | null)?.bidCount ?? '')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3 className="small">Challenges against this agent</h3>
      <ChallengeRows challenges={challenges} agentHex={toHex(agent.toBytes())} />
    </section>
  );
}

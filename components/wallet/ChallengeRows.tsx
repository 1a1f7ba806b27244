'use client';
/**
 * Challenges against one agent with their window (open through epoch e + 2, resolvable after,
 * expirable after e + 4) and resolution, and the permissionless resolve / expire buttons for any
 * connected wallet.
 */
import { useConnection, useWallet } from '@solana/wallet-adapter-react';
import { PublicKey } from '../../lib/chain';
import type { ChallengeJson } from '../../lib/wire';
import { ActionPhases } from './ActionPhases';
import { buildExpire, buildResolve, candidateFor } from './challenge-actions';
import { challengeWindow } from './owner-state';
import { useAction } from './useAction';
import { useEconomy } from './useChainState';

function outcome(c: ChallengeJson): string {
  const d = c.data as { statusName?: string } | null;
  if (c.status === 'upheld') return 'upheld: the batch left the entry out; the agent\'s stake was slashed';
  if (c.status === 'rejected') return 'rejected: the batch reports the entry; the challenger lost the challenge stake';
  if (c.status === 'expired') return 'expired unresolved: the challenge stake went to the treasury';
  return d?.statusName ?? c.status;
}

/** `pendingOnly`: only challenges still open or awaiting resolution (the agent page's action list). */
export function ChallengeRows({ challenges: all, agentHex, pendingOnly = false }: { challenges: ChallengeJson[]; agentHex: string; pendingOnly?: boolean }) {
  const { connection } = useConnection();
  const { economy } = useEconomy();
  const epochNow = economy ? BigInt(Math.floor(Date.now() / 1000)) / economy.epochSeconds : 0n;
  const challenges = pendingOnly ? all.filter((c) => c.status === 'pending') : all;
  const { publicKey } = useWallet();
  const action = useAction();
  // The last action's outcome stays on screen after its challenge leaves the pending list.
  if (challenges.length === 0) return pendingOnly ? <ActionPhases view={action.view} /> : <p className="muted empty">No challenge against this agent.</p>;
  const resolve = (c: ChallengeJson) => action.run(`Resolve the challenge of epoch ${c.epoch}`, async () => {
    const addr = new PublicKey(c.address);
    const cand = await candidateFor(connection, addr, agentHex, c.epoch);
    if (!cand) throw new Error('the observatory has no evidence for this challenge\'s entry (no uploaded log or batch for that epoch)');
    return buildResolve(connection, publicKey!, economy!, addr, cand);
  });
  const expire = (c: ChallengeJson) => action.run(`Expire the challenge of epoch ${c.epoch}`, async () => buildExpire(new PublicKey(c.address), new PublicKey(c.agentAddress), economy!));
  return (
    <>
      {pendingOnly ? <h3 className="small">Pending challenges: resolve or expire (anyone may)</h3> : null}
      <table className="list" data-testid="challenge-rows">
        <thead><tr><th>Epoch</th><th>Status</th><th>Window</th><th>Challenger</th><th /></tr></thead>
        <tbody>
          {challenges.map((c) => {
            const w = challengeWindow(BigInt(c.epoch), epochNow);
            const pending = c.status === 'pending';
            const why = !publicKey ? 'connect a wallet' : !economy ? 'loading' : null;
            return (
              <tr key={c.address} data-testid="challenge-row" data-status={c.status}>
                <td className="mono">{c.epoch}</td>
                <td data-testid="challenge-outcome">{pending ? c.status : outcome(c)}</td>
                <td className="small">{pending ? (w.phase === 'open' ? `window open; resolvable from epoch ${w.resolveFrom}` : w.phase === 'resolvable' ? `resolvable now (expires from epoch ${w.expireFrom})` : 'expirable now') : c.transitions.map((t) => t.status).join(' → ')}</td>
                <td className="mono small" title={c.challenger}>{c.challenger.slice(0, 6)}…</td>
                <td>
                  {pending ? (
                    <>
                      <button type="button" className="btn small" data-testid="resolve-challenge" disabled={!!why || action.busy || w.phase === 'open'} title={w.phase === 'open' ? `the window is open until epoch ${w.resolveFrom - 1n}` : why ?? undefined} onClick={() => resolve(c)}>Resolve</button>{' '}
                      <button type="button" className="btn small" data-testid="expire-challenge" disabled={!!why || action.busy || w.phase !== 'expirable'} title={w.phase !== 'expirable' ? `expirable from epoch ${w.expireFrom}` : why ?? undefined} onClick={() => expire(c)}>Expire</button>
                    </>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ActionPhases view={action.view} />
    </>
  );
}

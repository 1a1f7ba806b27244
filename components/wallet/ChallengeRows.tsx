'use client';
/**
 * Challenges against one agent with their window and resolution, and the permissionless resolve /
 * expire buttons for any connected wallet. A row's state comes from the chain: the Challenge
 * account's status (read over RPC, so a challenge resolved but not yet indexed shows its result)
 * and the clock, re-read every second (open through epoch e + 2, resolvable after, expirable
 * after e + 4), so a reload or a window closing never leaves a stale phase on screen.
 */
import { useConnection, useWallet } from '@solana/wallet-adapter-react';
import { useEffect, useState } from 'react';
import {
  type Connection,
  challenge as challengeProgram,
  type EconomyConfig,
  PublicKey,
  readChallenge,
  usdcAccountOf,
} from '../../lib/chain';
import type { ChallengeRowView } from '../../lib/wire';
import { AccountLink } from '../site';
import { Td } from '../table/DataTable';
import { EpochTime } from '../time/Time';
import { TimedText } from '../time/TimedText';
import { ActionPhases } from './ActionPhases';
import { buildExpire, buildResolve, candidateFor } from './challenge-actions';
import { expiryText, sol, usdc } from './format';
import { challengeWindow } from './owner-state';
import { useAction } from './useAction';
import { useEconomy, useNowSec } from './useChainState';
import { useWalletEnv } from './WalletIsland';

/** What a row needs of a challenge (lib/wire ChallengeRowView). */
export type ChallengeRow = ChallengeRowView;

export const CHALLENGE_STATUS = ['pending', 'upheld', 'rejected', 'void', 'expired'] as const;

function outcome(status: string): string {
  if (status === 'upheld') return "upheld: the batch left the entry out; the agent's stake was slashed";
  if (status === 'rejected') return 'rejected: the batch reports the entry; the challenger lost the challenge stake';
  if (status === 'void') return 'void: the batch was full; the challenge stake went back';
  if (status === 'expired') return 'expired unresolved: the challenge stake went to the treasury';
  return status;
}

/** The window in words, with clock times (zone and relative). */
export function windowText(
  epoch: bigint,
  nowSec: number,
  epochSeconds: bigint,
): { phase: 'open' | 'resolvable' | 'expirable'; text: string } {
  const w = challengeWindow(epoch, BigInt(nowSec) / epochSeconds);
  const at = (e: bigint) => expiryText(e * epochSeconds, nowSec);
  if (w.phase === 'open')
    return { phase: w.phase, text: `window open; resolvable from epoch ${w.resolveFrom}, ${at(w.resolveFrom)}` };
  if (w.phase === 'resolvable')
    return { phase: w.phase, text: `resolvable now; expirable from epoch ${w.expireFrom}, ${at(w.expireFrom)}` };
  return { phase: w.phase, text: 'resolvable or expirable now' };
}

/** A challenge's result for the wallet that resolved it, in words: who won and what moved. */
export async function resolvedOutcome(
  connection: Connection,
  address: PublicKey,
  viewer: PublicKey,
  economy: EconomyConfig,
  before: { lamports: bigint; usdc: bigint },
): Promise<string> {
  const ch = await readChallenge(connection, address);
  if (!ch) return 'The challenge account is gone.';
  const [lamports, tok] = await Promise.all([
    connection.getBalance(viewer, 'confirmed').then(BigInt),
    connection.getTokenAccountBalance(usdcAccountOf(economy.usdcMint, viewer), 'confirmed').then(
      (r) => BigInt(r.value.amount),
      () => 0n,
    ),
  ]);
  const dUsdc = tok - before.usdc;
  const dSol = lamports - before.lamports;
  const moved =
    `Your USDC ${dUsdc >= 0n ? '+' : '−'}${usdc(dUsdc < 0n ? -dUsdc : dUsdc)}, SOL ` +
    `${dSol >= 0n ? '+' : '−'}${sol(dSol < 0n ? -dSol : dSol)} (fee paid, evidence ` +
    `rent ${ch.challenger.equals(viewer) ? 'back to you' : 'to the challenger'}).`;
  const status = CHALLENGE_STATUS[ch.status] ?? `status ${ch.status}`;
  const mine = ch.challenger.equals(viewer);
  if (status === 'upheld')
    return (
      `${mine ? 'You won' : 'The challenger won'}: upheld, the batch left the entry out; ` +
      `the agent's stake was slashed and the 10 USDC challenge stake came back. ${moved}`
    );
  if (status === 'rejected')
    return (
      `${mine ? 'You lost' : 'The challenger lost'}: rejected, the batch reports ` +
      `the entry; the 10 USDC challenge stake went to the treasury. ${moved}`
    );
  if (status === 'void') return `Void: the batch was full, nobody won; the 10 USDC challenge stake came back. ${moved}`;
  return `Challenge ${status}. ${moved}`;
}

/**
 * The on-chain status of each challenge the indexer still calls pending (by address), re-read every 4 s and after every
 * action.
 */
function useChainStatuses(addresses: string[]): Map<string, string> {
  const { connection } = useConnection();
  const { version } = useWalletEnv();
  const [m, set] = useState<Map<string, string>>(new Map());
  const key = addresses.join(',');
  useEffect(() => {
    if (!key) return;
    let live = true;
    const load = async () => {
      const keys = key.split(',').map((a) => new PublicKey(a));
      // One getAccountInfo each: a challenger may hold more challenges than a cheap getMultipleAccounts reads.
      const infos = await Promise.all(keys.map((k) => connection.getAccountInfo(k, 'confirmed')));
      if (!live) return;
      set(
        new Map(
          keys.map((k, i) => {
            const c = infos[i] ? challengeProgram.decodeChallenge(infos[i]!.data) : null;
            return [k.toBase58(), c ? (CHALLENGE_STATUS[c.status] ?? 'pending') : ''];
          }),
        ),
      );
    };
    void load().catch(() => undefined);
    const t = setInterval(() => void load().catch(() => undefined), 4000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [connection, key, version]);
  return m;
}

/**
 * `pendingOnly`: only challenges still open or awaiting resolution (the agent page's action list).
 * `batchHref`: each epoch links there (the agent page pins the challenged batch, with its own actions).
 */
export function ChallengeRows({
  challenges: all,
  agentHex,
  pendingOnly = false,
  batchHref,
}: {
  challenges: ChallengeRow[];
  agentHex: string;
  pendingOnly?: boolean;
  batchHref?: (epoch: string) => string;
}) {
  const { connection } = useConnection();
  const { economy } = useEconomy();
  const epochLength = economy ? Number(economy.epochSeconds) : undefined;
  const nowSec = useNowSec();
  const chain = useChainStatuses(all.filter((c) => c.status === 'pending').map((c) => c.address));
  // The chain's status wins over the indexer's (which may lag a resolution by a few seconds).
  const statusOf = (c: ChallengeRow) => chain.get(c.address) || c.status;
  const challenges = pendingOnly ? all.filter((c) => statusOf(c) === 'pending') : all;
  const { publicKey } = useWallet();
  const action = useAction();
  // The last action's outcome stays on screen after its challenge leaves the pending list.
  if (challenges.length === 0)
    return pendingOnly ? (
      <ActionPhases view={action.view} />
    ) : (
      <>
        <p className="muted empty">No challenge against this agent.</p>
        <ActionPhases view={action.view} />
      </>
    );
  const resolve = (c: ChallengeRow) =>
    action.run(`Resolve the challenge of epoch ${c.epoch}`, async () => {
      const addr = new PublicKey(c.address);
      const cand = await candidateFor(connection, addr, agentHex, c.epoch);
      if (!cand)
        throw new Error(
          "the observatory has no evidence for this challenge's entry (no uploaded log or batch for that epoch)",
        );
      const eco = economy!;
      const before = {
        lamports: BigInt(await connection.getBalance(publicKey!, 'confirmed')),
        usdc: await connection.getTokenAccountBalance(usdcAccountOf(eco.usdcMint, publicKey!), 'confirmed').then(
          (r) => BigInt(r.value.amount),
          () => 0n,
        ),
      };
      const built = await buildResolve(connection, publicKey!, eco, addr, cand);
      return { ...built, after: () => resolvedOutcome(connection, addr, publicKey!, eco, before) };
    });
  const expire = (c: ChallengeRow) =>
    action.run(`Expire the challenge of epoch ${c.epoch}`, async () =>
      buildExpire(new PublicKey(c.address), new PublicKey(c.agentAddress), economy!),
    );
  return (
    <>
      {pendingOnly ? <h3 className="small">Pending challenges: resolve or expire (anyone may)</h3> : null}
      <div className="table-wrap dt-wrap">
        <table className="list dt" data-testid="challenge-rows">
          <thead>
            <tr>
              <th data-col="priority">Epoch</th>
              <th data-col="priority">Status</th>
              <th data-col="priority">Window</th>
              <th data-col="priority">Challenger</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {challenges.map((c) => {
              const status = statusOf(c);
              const w = economy ? windowText(BigInt(c.epoch), nowSec, economy.epochSeconds) : null;
              const pending = status === 'pending';
              const why = !publicKey ? 'connect a wallet' : !economy || !w ? 'loading' : null;
              const phase = w?.phase ?? 'open';
              return (
                <tr
                  key={c.address}
                  data-testid="challenge-row"
                  data-status={status}
                  data-phase={pending ? phase : 'done'}
                >
                  <Td label="Epoch" className="small">
                    {batchHref ? (
                      <a href={batchHref(c.epoch)} data-testid="challenge-batch" title="its batch">
                        <EpochTime epoch={c.epoch} epochSeconds={epochLength} label={false} />
                      </a>
                    ) : (
                      <EpochTime epoch={c.epoch} epochSeconds={epochLength} label={false} />
                    )}
                  </Td>
                  <Td label="Status" testId="challenge-outcome">
                    {pending ? status : outcome(status)}
                  </Td>
                  <Td label="Window" className="small" testId="challenge-window">
                    {pending ? (
                      w ? (
                        <TimedText text={w.text} />
                      ) : (
                        '…'
                      )
                    ) : (
                      c.transitions.map((t) => t.status).join(' → ') || status
                    )}
                  </Td>
                  <Td label="Challenger" className="small" title={c.challenger}>
                    <AccountLink address={c.challenger} />
                  </Td>
                  <Td label="Act">
                    {pending ? (
                      <>
                        <button
                          type="button"
                          className="btn small"
                          data-testid="resolve-challenge"
                          disabled={!!why || action.busy || phase === 'open'}
                          title={phase === 'open' ? w?.text : (why ?? undefined)}
                          onClick={() => resolve(c)}
                        >
                          Resolve
                        </button>{' '}
                        <button
                          type="button"
                          className="btn small"
                          data-testid="expire-challenge"
                          disabled={!!why || action.busy || phase !== 'expirable'}
                          title={phase !== 'expirable' ? 'expirable after twice the window' : (why ?? undefined)}
                          onClick={() => expire(c)}
                        >
                          Expire
                        </button>
                      </>
                    ) : null}
                  </Td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ActionPhases view={action.view} />
    </>
  );
}

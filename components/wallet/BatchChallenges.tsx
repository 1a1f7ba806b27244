'use client';
/**
 * One-click challenges on the agent page's batch view: for each batch the observatory's check
 * flags (uploaded log vs batch), the log entries the batch contradicts, each with a "Challenge"
 * button whose evidence (entry, merkle proof, batch bytes) the server pre-filled; the entries the
 * batch does report sit below, folded (challenging one of those loses the challenge stake).
 * Anyone with a wallet and 10 USDC can open a challenge while the window is open.
 */
import { useConnection, useWallet } from '@solana/wallet-adapter-react';
import { useEffect, useState } from 'react';
import { challengeAddress, PublicKey, readChallenge } from '../../lib/chain';
import { type BatchJson, type ChallengeCandidate, ChallengeCandidateListSchema, hexToBytes } from '../../lib/wire';
import { ActionPhases } from './ActionPhases';
import { CHALLENGE_STATUS, windowText } from './ChallengeRows';
import { buildOpenChallenge } from './challenge-actions';
import { challengeWindow } from './owner-state';
import { useAction } from './useAction';
import { useEconomy, useNowSec } from './useChainState';
import { useWalletEnv } from './WalletIsland';

/**
 * The connected wallet's Challenge of this batch, read from the chain (so it survives the window closing and reloads).
 */
function useMyChallenge(agentHex: string, epoch: string, poll: boolean): { address: string; status: string } | null {
  const { connection } = useConnection();
  const { publicKey } = useWallet();
  const { version } = useWalletEnv();
  const [mine, set] = useState<{ address: string; status: string } | null>(null);
  useEffect(() => {
    if (!publicKey) return void set(null);
    let live = true;
    const addr = challengeAddress(new PublicKey(hexToBytes(agentHex, 32)), BigInt(epoch), publicKey);
    const load = async () => {
      const ch = await readChallenge(connection, addr);
      if (live)
        set(ch ? { address: addr.toBase58(), status: CHALLENGE_STATUS[ch.status] ?? `status ${ch.status}` } : null);
    };
    void load().catch(() => undefined);
    // Re-read only while it can change: during the window, or while the challenge is pending.
    const t = poll ? setInterval(() => void load().catch(() => undefined), 3000) : null;
    return () => {
      live = false;
      if (t) clearInterval(t);
    };
  }, [connection, publicKey, agentHex, epoch, version, poll]);
  return mine;
}

function Entry({
  c,
  onChallenge,
  disabled,
  why,
}: {
  c: ChallengeCandidate;
  onChallenge: () => void;
  disabled: boolean;
  why: string | null;
}) {
  return (
    <li data-testid={c.contradicted ? 'contradiction' : 'reported-entry'} data-index={c.index}>
      <span className="small">
        entry {c.index}: {c.reason}
      </span>{' '}
      <button
        type="button"
        className={`btn small ${c.contradicted ? '' : 'ghost'}`}
        data-testid="challenge-entry"
        disabled={disabled}
        onClick={onChallenge}
        title={
          why ?? 'stakes 10 USDC (a wrong challenge forfeits it to the treasury); you see the full cost before signing'
        }
      >
        Challenge
      </button>
      {why ? <span className="reason small"> {why}</span> : null}
    </li>
  );
}

export function BatchChallenges({ agent, batch }: { agent: string; batch: Pick<BatchJson, 'epoch' | 'status'> }) {
  const { connection } = useConnection();
  const { publicKey } = useWallet();
  const { economy } = useEconomy();
  const [list, setList] = useState<ChallengeCandidate[] | null>(null);
  const [unprovable, setUnprovable] = useState(0);
  const action = useAction();
  const nowSec = useNowSec();
  // The server builds a proof per entry: ask for flagged batches, and for the others only while they can still be
  // challenged.
  const inWindow = economy
    ? challengeWindow(BigInt(batch.epoch), BigInt(nowSec) / economy.epochSeconds).phase === 'open'
    : false;
  const [pendingSeen, setPendingSeen] = useState(false);
  const mine = useMyChallenge(agent, batch.epoch, inWindow || pendingSeen);
  useEffect(() => setPendingSeen(mine?.status === 'pending'), [mine?.status]);
  const wanted = batch.status === 'mismatch' || inWindow;
  useEffect(() => {
    if (!wanted) return void setList(null);
    let live = true;
    fetch(`/api/batches/challengeable?agent=${agent}&epoch=${batch.epoch}`, { cache: 'no-store' })
      .then((r) => (r.ok ? r.json() : { candidates: [] }))
      .then(
        (b) => {
          if (!live) return;
          const l = ChallengeCandidateListSchema.parse(b);
          setList(l.candidates);
          setUnprovable(l.unprovable);
        },
        () => live && setList([]),
      );
    return () => {
      live = false;
    };
  }, [agent, batch.epoch, batch.status, wanted]);
  const delegated =
    unprovable > 0 ? (
      <p
        className="small muted"
        data-testid="unprovable-entries"
        title={
          "resolve_challenge verifies an entry's signature against the key that signed the batch. " +
          'An entry signed by a delegate hot wallet cannot be verified there, so a challenge of ' +
          "it could never be resolved: it would only expire and forfeit the challenger's 10 USDC."
        }
      >
        {unprovable} entr{unprovable === 1 ? 'y' : 'ies'} of epoch {batch.epoch} signed by a delegate key cannot be
        challenged on chain.
      </p>
    ) : null;
  // The wallet's own challenge and the last action stay shown whatever the window does meanwhile.
  const w0 =
    economy && mine?.status === 'pending' ? windowText(BigInt(batch.epoch), nowSec, economy.epochSeconds) : null;
  const mineLine = mine ? (
    <p className="small" data-testid="my-batch-challenge" data-status={mine.status} data-phase={w0?.phase ?? 'done'}>
      Your challenge of epoch {batch.epoch}: <strong>{mine.status}</strong>
      {w0 ? ` (${w0.text})` : ''}.
    </p>
  ) : null;
  if (!list || list.length === 0) {
    return delegated || mineLine || action.view ? (
      <div className="batch-challenges" data-testid="batch-challenges" data-epoch={batch.epoch}>
        {delegated}
        {mineLine}
        <ActionPhases view={action.view} />
      </div>
    ) : null;
  }
  const epochNow = economy ? BigInt(nowSec) / economy.epochSeconds : null;
  const w = epochNow !== null ? challengeWindow(BigInt(batch.epoch), epochNow) : null;
  const why = !publicKey
    ? 'connect a wallet to challenge'
    : !economy
      ? 'loading the deployment'
      : w && w.phase !== 'open'
        ? `the challenge window closed after epoch ${w.resolveFrom - 1n}`
        : null;
  const open = (c: ChallengeCandidate) =>
    action.run(`Challenge entry ${c.index} of epoch ${c.epoch}`, () =>
      buildOpenChallenge(connection, publicKey!, economy!, c),
    );
  const bad = list.filter((c) => c.contradicted);
  const good = list.filter((c) => !c.contradicted);
  return (
    <div className="batch-challenges" data-testid="batch-challenges" data-epoch={batch.epoch}>
      {bad.length ? (
        <p className="small bad-text">
          Epoch {batch.epoch}: {bad.length} signed log entr{bad.length === 1 ? 'y contradicts' : 'ies contradict'} the
          batch.
        </p>
      ) : null}
      <ul>
        {bad.map((c) => (
          <Entry key={c.index} c={c} disabled={!!why || action.busy} why={why} onChallenge={() => open(c)} />
        ))}
      </ul>
      {good.length ? (
        <details>
          <summary className="small muted">
            {good.length} entr{good.length === 1 ? 'y' : 'ies'} of epoch {batch.epoch} the batch reports (challenging
            one forfeits the 10 USDC stake to the treasury)
          </summary>
          <ul>
            {good.map((c) => (
              <Entry key={c.index} c={c} disabled={!!why || action.busy} why={why} onChallenge={() => open(c)} />
            ))}
          </ul>
        </details>
      ) : null}
      {delegated}
      {mineLine}
      <ActionPhases view={action.view} />
    </div>
  );
}

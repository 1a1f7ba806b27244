'use client';
/**
 * One-click challenges on the agent page's batch view: for each batch the observatory's check
 * flags (uploaded log vs batch), the log entries the batch contradicts, each with a "Challenge"
 * button whose evidence (entry, merkle proof, batch bytes) the server pre-filled; the entries the
 * batch does report sit below, folded (challenging one of those loses the challenge stake).
 * Anyone with a wallet and 10 USDC can open a challenge while the window is open.
 */
import { useEffect, useState } from 'react';
import { useConnection, useWallet } from '@solana/wallet-adapter-react';
import { ChallengeCandidateListSchema, type BatchJson, type ChallengeCandidate } from '../../lib/wire';
import { ActionPhases } from './ActionPhases';
import { buildOpenChallenge } from './challenge-actions';
import { challengeWindow } from './owner-state';
import { useAction } from './useAction';
import { useEconomy } from './useChainState';

function Entry({ c, onChallenge, disabled, why }: { c: ChallengeCandidate; onChallenge: () => void; disabled: boolean; why: string | null }) {
  return (
    <li data-testid={c.contradicted ? 'contradiction' : 'reported-entry'} data-index={c.index}>
      <span className="small">entry {c.index}: {c.reason}</span>{' '}
      <button type="button" className={`btn small ${c.contradicted ? '' : 'ghost'}`} data-testid="challenge-entry" disabled={disabled} onClick={onChallenge} title={why ?? 'submit_challenge + evidence buffer, signed in your wallet'}>Challenge</button>
      {why ? <span className="reason small"> {why}</span> : null}
    </li>
  );
}

export function BatchChallenges({ agent, batch }: { agent: string; batch: BatchJson }) {
  const { connection } = useConnection();
  const { publicKey } = useWallet();
  const { economy } = useEconomy();
  const [list, setList] = useState<ChallengeCandidate[] | null>(null);
  const action = useAction();
  // The server builds a proof per entry: ask for flagged batches, and for the others only while they can still be challenged.
  const inWindow = economy ? challengeWindow(BigInt(batch.epoch), BigInt(Math.floor(Date.now() / 1000)) / economy.epochSeconds).phase === 'open' : false;
  const wanted = batch.status === 'mismatch' || inWindow;
  useEffect(() => {
    if (!wanted) return void setList(null);
    let live = true;
    fetch(`/api/batches/challengeable?agent=${agent}&epoch=${batch.epoch}`, { cache: 'no-store' })
      .then((r) => (r.ok ? r.json() : { candidates: [] }))
      .then((b) => live && setList(ChallengeCandidateListSchema.parse(b).candidates), () => live && setList([]));
    return () => { live = false; };
  }, [agent, batch.epoch, batch.status, wanted]);
  if (!list || list.length === 0) return null;
  const epochNow = economy ? BigInt(Math.floor(Date.now() / 1000)) / economy.epochSeconds : null;
  const w = epochNow !== null ? challengeWindow(BigInt(batch.epoch), epochNow) : null;
  const why = !publicKey ? 'connect a wallet to challenge' : !economy ? 'loading the deployment' : w && w.phase !== 'open' ? `the challenge window closed after epoch ${w.resolveFrom - 1n}` : null;
  const open = (c: ChallengeCandidate) => action.run(`Challenge entry ${c.index} of epoch ${c.epoch}`, () => buildOpenChallenge(connection, publicKey!, economy!, c));
  const bad = list.filter((c) => c.contradicted);
  const good = list.filter((c) => !c.contradicted);
  return (
    <div className="batch-challenges" data-testid="batch-challenges" data-epoch={batch.epoch}>
      {bad.length ? <p className="small bad-text">Epoch {batch.epoch}: {bad.length} signed log entr{bad.length === 1 ? 'y contradicts' : 'ies contradict'} the batch.</p> : null}
      <ul>{bad.map((c) => <Entry key={c.index} c={c} disabled={!!why || action.busy} why={why} onChallenge={() => open(c)} />)}</ul>
      {good.length ? (
        <details>
          <summary className="small muted">{good.length} entr{good.length === 1 ? 'y' : 'ies'} of epoch {batch.epoch} the batch reports</summary>
          <ul>{good.map((c) => <Entry key={c.index} c={c} disabled={!!why || action.busy} why={why} onChallenge={() => open(c)} />)}</ul>
        </details>
      ) : null}
      <ActionPhases view={action.view} />
    </div>
  );
}

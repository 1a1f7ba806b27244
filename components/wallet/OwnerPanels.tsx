'use client';
/**
 * The owner's side panels on "My agents": the network this page acts on (cluster, RPC, and a
 * priority fee where the cluster has a fee market), "My challenges" (the wallet's challenges as
 * challenger and those against its agents, from the chain, with the stake at risk, and its
 * evidence buffers with their rent to reclaim), and the wallet's history with our programs
 * (getSignaturesForAddress + getTransaction: the effect in words from the programs' events and
 * the wallet's own balance changes, the time, an explorer link).
 */
import { useConnection } from '@solana/wallet-adapter-react';
import { useEffect, useState } from 'react';
import type { TokenBalance, VersionedTransactionResponse } from '../../lib/chain';
import {
  challenge,
  type EconomyConfig,
  findChallenges,
  findEvidenceBuffers,
  PROGRAM_IDS,
  type ProgramEvent,
  PublicKey,
  parseEvents,
  stakeLock,
  usdcAccountOf,
} from '../../lib/chain';
import { explorerAddress, explorerTx } from '../../lib/chain/explorer';
import { keccak256 } from '../../lib/protocol/crypto';
import { toHex } from '../../lib/protocol/hex';
import { agentDisplayName } from '../names/label';
import { useSite } from '../site';
import { TimedText } from '../time/TimedText';
import { ActionPhases, signedSol, signedUsdc } from './ActionPhases';
import { CHALLENGE_STATUS, windowText } from './ChallengeRows';
import { buildCloseBuffer } from './challenge-actions';
import { expiryText, shortAddress, sol, usdc } from './format';
import { useAction } from './useAction';
import { useNowSec } from './useChainState';
import { useWalletEnv } from './WalletIsland';

export function NetworkPanel() {
  const { config, priorityMicroLamports, setPriorityMicroLamports } = useWalletEnv();
  // The endpoint this browser reads, absolute (the embedded chain's is a same-origin path).
  const rpc =
    config.rpc.startsWith('/') && typeof window !== 'undefined'
      ? new URL(config.rpc, window.location.origin).toString()
      : config.rpc;
  const [text, setText] = useState(String(priorityMicroLamports));
  useEffect(() => setText(String(priorityMicroLamports)), [priorityMicroLamports]);
  const v = Number(text);
  const ok = /^\d{1,9}$/.test(text.trim()) && Number.isSafeInteger(v);
  return (
    <section className="card network" data-testid="network" style={{ marginBottom: 16 }}>
      <span>
        Cluster:{' '}
        <strong data-testid="network-cluster">
          {config.cluster === 'embedded' ? "embedded chain (this observatory's own litesvm)" : config.cluster}
        </strong>
      </span>
      <span>
        RPC:{' '}
        <code className="mono" data-testid="network-rpc">
          {rpc}
        </code>
      </span>
      {config.cluster === 'embedded' ? (
        <span
          className="small muted"
          title="The embedded chain has no fee market: every signature costs 5,000 lamports."
        >
          no priority fee on the embedded chain
        </span>
      ) : (
        <label className="small">
          <span
            className="tip"
            title={
              'Paid per compute unit on top of the 5,000-lamport signature fee, so validators include ' +
              'the transaction sooner when the cluster is busy. The preview shows the resulting fee.'
            }
          >
            Priority fee
          </span>{' '}
          <input
            className="num"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onBlur={() => ok && setPriorityMicroLamports(v)}
            data-testid="priority-fee"
            aria-label="priority fee in micro-lamports per compute unit"
          />
          micro-lamports / compute unit {ok ? null : <span className="reason">a whole number, 0 for none</span>}
        </label>
      )}
    </section>
  );
}

interface ChallengeRow {
  address: string;
  role: 'challenger' | 'target';
  c: challenge.Challenge;
}
interface BufferRow {
  address: string;
  lamports: bigint;
  usedBy: string | null;
}

export function MyChallenges({
  owner,
  agents,
  economy,
}: {
  owner: PublicKey;
  agents: PublicKey[];
  economy: EconomyConfig | null;
}) {
  const { names } = useSite();
  const { connection } = useConnection();
  const { version } = useWalletEnv();
  const nowSec = useNowSec();
  const [rows, setRows] = useState<ChallengeRow[] | null>(null);
  const [buffers, setBuffers] = useState<BufferRow[]>([]);
  const [stakes, setStakes] = useState<Map<string, bigint>>(new Map());
  const action = useAction();
  const agentKey = agents.map((a) => a.toBase58()).join(',');

  useEffect(() => {
    let live = true;
    const load = async () => {
      const targets = agentKey ? agentKey.split(',').map((a) => new PublicKey(a)) : [];
      const [stakeInfos, mine, against, bufs] = await Promise.all([
        connection.getMultipleAccountsInfo(
          targets.map((a) => stakeLock.findStakePda(a)[0]),
          'confirmed',
        ),
        findChallenges(connection, 8, owner),
        Promise.all(targets.map((a) => findChallenges(connection, 104, a))),
        findEvidenceBuffers(connection, owner),
      ]);
      const out: ChallengeRow[] = [];
      for (const { pubkey, account } of mine) {
        const c = challenge.decodeChallenge(account.data);
        if (c) out.push({ address: pubkey.toBase58(), role: 'challenger', c });
      }
      for (const { pubkey, account } of against.flat()) {
        const c = challenge.decodeChallenge(account.data);
        if (c) out.push({ address: pubkey.toBase58(), role: 'target', c });
      }
      out.sort((a, b) => Number(b.c.epoch - a.c.epoch));
      // A buffer serves the pending challenge whose committed leaf is keccak(entry) of its evidence.
      const pendingLeaves = new Map(
        out
          .filter((r) => r.role === 'challenger' && r.c.status === 0)
          .map((r) => [toHex(new PublicKey(r.c.leaf).toBytes()), r.c.epoch.toString()]),
      );
      const b: BufferRow[] = bufs.map(({ pubkey, account }) => {
        const d = account.data.subarray(challenge.BUFFER_SIZE);
        const len = d.length >= 4 ? d[0] | (d[1] << 8) | (d[2] << 16) | (d[3] << 24) : -1;
        const leaf = len >= 0 && 4 + len <= d.length ? toHex(keccak256(d.subarray(4, 4 + len))) : '';
        return {
          address: pubkey.toBase58(),
          lamports: BigInt(account.lamports),
          usedBy: pendingLeaves.get(leaf) ?? null,
        };
      });
      const st = new Map(
        targets.map((a, i) => {
          const x = stakeInfos[i] ? stakeLock.decodeStake(stakeInfos[i]!.data) : null;
          return [a.toBase58(), x && (x.status === 1 || x.status === 2) ? x.amount : 0n];
        }),
      );
      if (live) {
        setRows(out);
        setBuffers(b);
        setStakes(st);
      }
    };
    void load().catch(() => live && setRows([]));
    // getProgramAccounts is on the proxy's small budget of expensive calls: re-read slowly, and after every action.
    const t = setInterval(() => void load().catch(() => undefined), 20_000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [connection, owner, agentKey, version]);

  return (
    <section className="card" data-testid="my-challenges" style={{ marginBottom: 16 }}>
      <h2>My challenges</h2>
      {rows === null ? (
        <p className="muted">Reading challenges from the chain…</p>
      ) : rows.length === 0 ? (
        <p className="muted empty" data-testid="no-challenges">
          No challenge by this wallet or against its agents.
        </p>
      ) : (
        <table className="list small stack-narrow">
          <thead>
            <tr>
              <th>Role</th>
              <th>Agent</th>
              <th>Epoch</th>
              <th>Status</th>
              <th>Window</th>
              <th>
                <span
                  className="tip"
                  title={
                    'What this wallet can still lose: as challenger the 10 USDC challenge stake (lost when ' +
                    "rejected or expired); as the target, the agent's whole stake (slashed when upheld)."
                  }
                >
                  At risk
                </span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const status = CHALLENGE_STATUS[r.c.status] ?? String(r.c.status);
              const pending = r.c.status === 0;
              const w = economy && pending ? windowText(r.c.epoch, nowSec, economy.epochSeconds) : null;
              const atRisk = !pending
                ? '—'
                : r.role === 'challenger'
                  ? `${usdc(r.c.stake)} USDC challenge stake`
                  : `${usdc(stakes.get(r.c.agent.toBase58()) ?? 0n)} USDC agent stake`;
              const result = pending
                ? 'pending'
                : r.role === 'challenger'
                  ? status === 'upheld'
                    ? 'won (upheld)'
                    : status === 'rejected'
                      ? 'lost (rejected)'
                      : status === 'expired'
                        ? 'lost (expired)'
                        : status
                  : status === 'upheld'
                    ? 'lost: stake slashed (upheld)'
                    : status === 'rejected'
                      ? 'won (rejected)'
                      : status;
              return (
                <tr
                  key={r.address}
                  data-testid="my-challenge"
                  data-role={r.role}
                  data-status={status}
                  data-address={r.address}
                >
                  <td data-label="Role">{r.role === 'challenger' ? 'you challenged' : 'against your agent'}</td>
                  <td className="mono" data-label="Agent">
                    <a href={`/agents/${toHex(r.c.agent.toBytes())}`} title={r.c.agent.toBase58()}>
                      {agentNameOf(names, r.c.agent)}
                    </a>
                  </td>
                  <td className="mono" data-label="Epoch">
                    {r.c.epoch.toString()}
                  </td>
                  <td data-label="Status">{result}</td>
                  <td data-label="Window">{w?.text ?? '—'}</td>
                  <td data-testid="my-challenge-risk" data-label="At risk">
                    {atRisk}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {buffers.length ? (
        <>
          <h3 className="small">
            <span
              className="tip"
              title={
                "Evidence buffers hold a challenge's evidence on chain; their rent " +
                'comes back when the challenge is resolved, or here when it expired.'
              }
            >
              Evidence buffers
            </span>
          </h3>
          <ul className="small">
            {buffers.map((b) => (
              <li key={b.address} data-testid="my-buffer">
                <span className="mono" title={b.address}>
                  {shortAddress(b.address)}
                </span>
                : {sol(b.lamports)} SOL of rent{' '}
                {b.usedBy ? (
                  <span className="muted">
                    kept for the pending challenge of epoch {b.usedBy} (resolving it returns the rent)
                  </span>
                ) : (
                  <button
                    type="button"
                    className="btn small"
                    data-testid="close-buffer"
                    disabled={action.busy}
                    onClick={() =>
                      void action.run('Close an evidence buffer (rent back)', async () =>
                        buildCloseBuffer(owner, new PublicKey(b.address)),
                      )
                    }
                  >
                    Close: rent back
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <ActionPhases view={action.view} />
    </section>
  );
}

interface HistoryRow {
  signature: string;
  time: number | null;
  ok: boolean;
  effect: string;
  sol: bigint | null;
  usdc: bigint | null;
}

/** Transactions never change once confirmed: fetched once per page. */
const txCache = new Map<string, Promise<VersionedTransactionResponse | null>>();
const HISTORY_READS_AT_ONCE = 3;
/** A refresh costs one getSignaturesForAddress plus the transactions not yet read. */
const HISTORY_REFRESH_MS = 15_000;

const OURS = new Set(Object.values(PROGRAM_IDS).map((k) => (k as PublicKey).toBase58()));

/** An agent as every page names it (SATI name, else the label from its id) and its short address. */
const agentNameOf = (names: Readonly<Record<string, string>>, agent: PublicKey) => {
  const hex = toHex(agent.toBytes());
  return `${agentDisplayName(hex, names[hex])} (${shortAddress(agent.toBase58())})`;
};

/** One event in words, from the wallet's point of view. */
function eventWords(e: ProgramEvent, owner: string, nameOf: (agent: PublicKey) => string): string | null {
  const d = e.event.data as unknown as Record<string, unknown>;
  const agent = d.agent instanceof PublicKey ? nameOf(d.agent) : '';
  switch (e.event.name) {
    case 'LeasePaid':
      return (
        `paid ${String(d.epochs)} lease epoch${d.epochs === 1 ? '' : 's'} for ${agent} (paid through ` +
        `epoch ${String(d.paidThroughEpoch)}${d.prevStatus === 2 && d.status === 0 ? ', reactivated' : ''})`
      );
    case 'LeaseTicked':
      return `ticked ${agent}'s lease (${['active', 'grace', 'deactivated'][Number(d.status)] ?? d.status})`;
    case 'StakeLocked':
      return `locked ${usdc(d.amount as bigint)} USDC stake for ${agent}`;
    case 'UnlockQueued':
      return `queued the unlock of ${agent}'s ${usdc(d.amount as bigint)} USDC stake`;
    case 'StakeClaimed':
      return `claimed ${usdc(d.amount as bigint)} USDC stake of ${agent}`;
    case 'StakeSlashed':
      return `${agent}'s stake was slashed`;
    case 'ChallengeSubmitted':
      return `challenged ${agent}'s batch of epoch ${String(d.epoch)} (10 USDC staked)`;
    case 'ChallengeResolved': {
      const s = CHALLENGE_STATUS[Number(d.status)] ?? String(d.status);
      const mine = d.challenger instanceof PublicKey && d.challenger.toBase58() === owner;
      return (
        `challenge of ${agent}'s epoch ${String(d.epoch)} ${s}` +
        (mine
          ? s === 'upheld'
            ? ': you won'
            : s === 'rejected' || s === 'expired'
              ? ': you lost the 10 USDC'
              : ''
          : '')
      );
    }
    case 'BufferInitialized':
      return 'staged an evidence buffer';
    case 'BufferClosed':
      return 'closed an evidence buffer (rent back)';
    default:
      return null;
  }
}

export function OwnerHistory({ owner, economy }: { owner: PublicKey; economy: EconomyConfig | null }) {
  const { names, explorer } = useSite();
  const { connection } = useConnection();
  const { version } = useWalletEnv();
  const nowSec = useNowSec();
  const [rows, setRows] = useState<HistoryRow[] | null>(null);
  useEffect(() => {
    let live = true;
    const load = async () => {
      const sigs = await connection.getSignaturesForAddress(owner, { limit: 15 }, 'confirmed');
      const usdcAcc = economy ? usdcAccountOf(economy.usdcMint, owner).toBase58() : null;
      const me = owner.toBase58();
      const nameOf = (a: PublicKey) => agentNameOf(names, a);
      // getTransaction is on the proxy's small budget of expensive calls, shared with every
      // other panel: read the transactions not yet cached a few at a time, newest first. One the
      // budget refused is left out of this pass and read on the next refresh.
      const txs: (VersionedTransactionResponse | null)[] = new Array(sigs.length).fill(null);
      for (let i = 0; i < sigs.length; i += HISTORY_READS_AT_ONCE) {
        if (!live) return;
        await Promise.all(
          sigs.slice(i, i + HISTORY_READS_AT_ONCE).map(async (s, j) => {
            let p = txCache.get(s.signature);
            if (!p) {
              p = connection
                .getTransaction(s.signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
                .catch(() => null);
              txCache.set(s.signature, p);
              void p.then((t) => {
                if (!t) txCache.delete(s.signature);
              });
            }
            txs[i + j] = await p;
          }),
        );
      }
      const out: HistoryRow[] = [];
      sigs.forEach((s, i) => {
        const t = txs[i];
        if (!t) return;
        const keys = t.transaction.message.staticAccountKeys.map((k) => k.toBase58());
        const programs = new Set(t.transaction.message.compiledInstructions.map((ix) => keys[ix.programIdIndex]));
        const logs = t.meta?.logMessages ?? [];
        const sati = economy?.satiProgram.toBase58();
        const ours = [...programs].some((p) => OURS.has(p) || p === sati);
        if (!ours) return;
        const words = parseEvents(logs)
          .map((e) => eventWords(e, me, nameOf))
          .filter((x): x is string => !!x);
        const wordsUniq = [...new Set(words.filter((w) => !/evidence buffer/.test(w) || words.length === 1))];
        if (sati && programs.has(sati) && wordsUniq.length === 0)
          wordsUniq.push('registered an agent identity with SATI');
        // write_buffer is the one challenge instruction without an event: an evidence chunk.
        if (programs.has(challenge.PROGRAM_ID.toBase58()) && wordsUniq.length === 0)
          wordsUniq.push('wrote a chunk of evidence into an evidence buffer');
        const at = keys.indexOf(me);
        const dSol = at >= 0 && t.meta ? BigInt(t.meta.postBalances[at]) - BigInt(t.meta.preBalances[at]) : null;
        const tok = (list: readonly TokenBalance[] | null | undefined) =>
          (list ?? []).find((b) => keys[b.accountIndex] === usdcAcc)?.uiTokenAmount.amount;
        const pre = tok(t.meta?.preTokenBalances);
        const post = tok(t.meta?.postTokenBalances);
        const dUsdc = pre !== undefined || post !== undefined ? BigInt(post ?? '0') - BigInt(pre ?? '0') : 0n;
        out.push({
          signature: s.signature,
          time: s.blockTime ?? t.blockTime ?? null,
          ok: !s.err,
          effect: wordsUniq.join('; ') || (words[0] ?? 'a transaction with the 0x01 programs'),
          sol: dSol,
          usdc: dUsdc,
        });
      });
      if (live) setRows(out);
    };
    void load().catch(() => live && setRows((r) => r ?? []));
    const t = setInterval(() => void load().catch(() => undefined), HISTORY_REFRESH_MS);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [connection, owner, economy, version, names]);
  // No link where none may be given (lib/chain/explorer.ts: a private RPC URL, a viewer elsewhere).
  const walletUrl = explorer ? explorerAddress(owner.toBase58(), explorer) : null;
  const txUrl = (signature: string) => (explorer ? explorerTx(signature, explorer) : null);
  return (
    <section className="card" data-testid="owner-history" style={{ marginBottom: 16 }}>
      <h2>
        History <span className="small muted">(this wallet&apos;s transactions with the 0x01 programs and SATI)</span>
      </h2>
      {walletUrl ? (
        <p className="small">
          <a href={walletUrl} target="_blank" rel="noreferrer">
            this wallet in Solana Explorer
          </a>
        </p>
      ) : null}
      {rows === null ? (
        <p className="muted">Reading the wallet&apos;s signatures…</p>
      ) : rows.length === 0 ? (
        <p className="muted empty">No transaction with the 0x01 programs yet.</p>
      ) : (
        <table className="list small history stack-narrow">
          <thead>
            <tr>
              <th>When</th>
              <th>What it did</th>
              <th>SOL</th>
              <th>USDC</th>
              <th>Signature</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.signature} data-testid="history-row" data-signature={r.signature}>
                <td data-label="When">{r.time ? expiryText(BigInt(r.time), nowSec) : 'unknown (no block time)'}</td>
                <td className="effect" data-testid="history-effect" data-label="What it did">
                  <TimedText text={r.ok ? r.effect : `failed: ${r.effect}`} />
                </td>
                <td className="mono" data-label="SOL">
                  {r.sol === null ? '—' : signedSol(r.sol)}
                </td>
                <td className="mono" data-label="USDC">
                  {r.usdc === null || r.usdc === 0n ? '—' : signedUsdc(r.usdc)}
                </td>
                <td className="mono" data-label="Signature">
                  {txUrl(r.signature) ? (
                    <a href={txUrl(r.signature)!} target="_blank" rel="noreferrer" data-testid="history-link">
                      {shortAddress(r.signature)}
                    </a>
                  ) : (
                    shortAddress(r.signature)
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

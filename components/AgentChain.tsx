'use client';
/**
 * The agent page's chain section: stake and lease, its BehaviorBatches listed once each (the
 * verdict, the authoritative fold after it, its log against the mesh, its challenges; a page at a
 * time, newest first, older ones fetched from GET /api/agents/{id}/batches on request), the newest
 * challenges against it and the pending ones anyone may resolve. Every challenge's epoch links to
 * its batch (`?batch=<epoch>#batch-<epoch>`): the page pins that batch above the newest when it is
 * older, so a challenged batch (the wallet's own challenge of it, its one-click challenges) is a
 * click away however old, with no paging. Server-rendered from the first pages, then live: a chain
 * event about this agent on `/api/stream` reloads the first pages and the pinned batch from the
 * REST endpoints and updates stake and lease from the event itself.
 */
import Link from 'next/link';
import { useCallback, useState } from 'react';
import {
  type AgentBatchPage,
  AgentBatchPageSchema,
  type AgentBatchRow,
  type AgentChainView,
  isChainEvent,
  type LiveEvent,
} from '../lib/wire';
import { scorePoints } from '../lib/wire/score';
import { batchHref, ChallengeTable } from './agent/ChallengeTable';
import { pendingRows } from './agent/pending-rows';
import { count, formatTokenAmount } from './format';
import { TxLink, useSite } from './site';
import { Term } from './Term';
import { Td } from './table/DataTable';
import { EpochTime } from './time/Time';
import { useLiveStream } from './useLiveStream';
import { BatchChallenges } from './wallet/BatchChallenges';
import { type ChallengeRow, ChallengeRows } from './wallet/ChallengeRows';

const usdc = (base: string) => formatTokenAmount(BigInt(base), { decimals: 6, minFractionDigits: 2 });
/** Narrow cells: the table fits a phone's width with its wrapper scrolling, headers wrap. */
const TH = { whiteSpace: 'normal', overflowWrap: 'normal', wordBreak: 'keep-all', verticalAlign: 'bottom' } as const;

/** What the table shows of a batch (the API's row also carries its hashes and account JSON). */
export type BatchLine = Pick<
  AgentBatchRow,
  'epoch' | 'status' | 'signature' | 'after' | 'reconciliation' | 'challenges'
>;
const line = (r: AgentBatchRow): BatchLine => ({
  epoch: r.epoch,
  status: r.status,
  signature: r.signature,
  after: r.after,
  reconciliation: r.reconciliation,
  challenges: r.challenges,
});

/** A page of challenge lines, `next` as GET /api/challenges gives it. */
export interface ChallengeLines {
  challenges: ChallengeRow[];
  next: string | null;
}

export interface AgentChainInitial extends Omit<AgentChainState, 'pending'> {
  /**
   * The pending ones (one page), resolvable or expirable by anyone; one also among the newest
   * `challenges` is given by its address alone (most pending challenges are the newest: sent once).
   */
  pending: { challenges: (ChallengeRow | string)[]; next: string | null };
}

/** The section's state: the first pages, as the server gave them and live reloads replace them. */
interface AgentChainState extends Pick<AgentChainView, 'stake' | 'lease'> {
  /** The agent's base58 address (links). */
  agentAddress: string;
  batches: { rows: BatchLine[]; next: AgentBatchPage['next'] };
  /** The linked batch, shown above the first page when older than it. */
  pinned: BatchLine | null;
  /** The epoch `?batch=` links to, and what went wrong with the link (not an epoch, no such batch). */
  linked: string | null;
  linkedNote: string | null;
  /** The newest challenges by batch epoch (one page). */
  challenges: ChallengeLines;
  /** The pending ones (one page), resolvable or expirable by anyone. */
  pending: ChallengeLines;
}

/**
 * The section's state from the server's first pages: a pending challenge given by its address is the newest list's row.
 */
function firstState(initial: AgentChainInitial): AgentChainState {
  const challenges = pendingRows(initial.challenges.challenges, initial.pending.challenges);
  return { ...initial, pending: { ...initial.pending, challenges } };
}

/** New first-page rows replace the same epochs; older rows already fetched stay below them. */
function mergeFirstPage(rows: BatchLine[], first: BatchLine[]): BatchLine[] {
  const oldest = first.length ? BigInt(first[first.length - 1].epoch) : null;
  return [...first, ...rows.filter((r) => oldest === null || BigInt(r.epoch) < oldest)];
}

function Reconciliation({ r, agentAddress }: { r: BatchLine; agentAddress: string }) {
  const x = r.reconciliation;
  if (x.seen === null)
    return (
      <Td label="Seen / not logged / never seen" className="muted small" title={x.unknownReason ?? undefined}>
        unknown
      </Td>
    );
  const href = (anchor?: string) => `/reconciliation/${agentAddress}/${r.epoch}${anchor ? `#${anchor}` : ''}`;
  return (
    <Td label="Seen / not logged / never seen" className="mono small">
      <Link href={href()} prefetch={false} title="envelopes seen live that belong in this log">
        {count(x.seen)}
      </Link>
      {' / '}
      <Link href={href('seen-not-logged')} prefetch={false} title="seen live, not in the log">
        {count(x.seenNotLogged ?? 0)}
      </Link>
      {' / '}
      <Link href={href('logged-not-seen')} prefetch={false} title="in the log, never seen live">
        {count(x.loggedNotSeen ?? 0)}
      </Link>
    </Td>
  );
}

function BatchTr({
  b,
  address,
  epochSeconds,
  pin,
}: {
  b: BatchLine;
  address: string;
  epochSeconds: number | null;
  pin?: boolean;
}) {
  return (
    <tr id={`batch-${b.epoch}`} data-status={b.status} data-pinned={pin ? 'linked' : undefined}>
      <Td label="Epoch" className="small">
        <EpochTime epoch={b.epoch} epochSeconds={epochSeconds} label={false} />
        {pin ? <div className="muted small">linked</div> : null}
      </Td>
      <Td label="Verdict">{b.status}</Td>
      <Td label="Reliability after" className="mono small">
        {b.after ? (
          scorePoints(b.after.reliabilityScore, 2)
        ) : (
          <span
            className="muted"
            title={
              b.status === 'verified' ? 'verified, but its log could not be folded' : 'only a verified batch is folded'
            }
          >
            not folded
          </span>
        )}
      </Td>
      <Reconciliation r={b} agentAddress={address} />
      <Td label="Challenges" className="num mono">
        {b.challenges ? <a href="#challenges">{b.challenges}</a> : 0}
      </Td>
      <Td label="Transaction">
        <TxLink signature={b.signature} copy />
      </Td>
      <Td label="Verify">
        <a href={`/batches/${address}/${b.epoch}`} className="small">
          verify
        </a>
      </Td>
    </tr>
  );
}

export function AgentChain({ agent, initial }: { agent: string; initial: AgentChainInitial }) {
  const [c, setC] = useState(() => firstState(initial));
  const [older, setOlder] = useState<{ loading: boolean; error: string | null }>({ loading: false, error: null });
  const { epochSeconds } = useSite();
  const reload = useCallback(async () => {
    try {
      const get = (path: string) => fetch(path, { cache: 'no-store' }).then((r) => (r.ok ? r.json() : null));
      const [b, ch, pe] = await Promise.all([
        get(`/api/agents/${agent}/batches?limit=${initial.batches.rows.length || 10}`),
        get(`/api/challenges?agent=${agent}&sort=epoch&order=desc&limit=${initial.challenges.challenges.length || 10}`),
        get(`/api/challenges?agent=${agent}&status=pending&sort=epoch&order=desc&limit=${PENDING_PAGE}`),
      ]);
      const page = b ? AgentBatchPageSchema.safeParse(b) : null;
      // The linked batch's challenges change with the others: re-read it while it is pinned (not on the first page).
      const linked = initial.linked;
      const pinned =
        linked === null || !page?.success || page.data.rows.some((r) => r.epoch === linked)
          ? undefined
          : await get(`/api/agents/${agent}/batches?epoch=${linked}`).then((p) => {
              const r = p ? AgentBatchPageSchema.safeParse(p) : null;
              return r?.success && r.data.rows[0] ? line(r.data.rows[0]) : undefined;
            });
      setC((x) => ({
        ...x,
        batches: page?.success
          ? {
              ...x.batches,
              rows: mergeFirstPage(x.batches.rows, page.data.rows.map(line)),
              next: x.batches.rows.length > page.data.rows.length ? x.batches.next : page.data.next,
            }
          : x.batches,
        pinned: pinned ?? x.pinned,
        challenges: (ch as ChallengeLines | null) ?? x.challenges,
        pending: (pe as ChallengeLines | null) ?? x.pending,
      }));
    } catch {
      // offline: the next event retries
    }
  }, [agent, initial.batches.rows.length, initial.challenges.challenges.length, initial.linked]);
  const onEvent = useCallback(
    (e: LiveEvent) => {
      if (!isChainEvent(e) || e.data.agentHex !== agent) return;
      const slot = String(e.data.slot);
      if (e.type === 'stake_locked') setC((x) => ({ ...x, stake: { amount: e.data.amount, status: 'locked', slot } }));
      else if (e.type === 'stake_slashed') setC((x) => ({ ...x, stake: { amount: '0', status: 'slashed', slot } }));
      else if (e.type === 'lease_paid')
        setC((x) => ({
          ...x,
          lease: {
            paidThroughEpoch: e.data.paidThroughEpoch,
            lastPaidEpoch: e.data.epoch,
            missedEpochs: 0,
            active: true,
          },
        }));
      else if (e.type === 'agent_deactivated')
        setC((x) => (x.lease ? { ...x, lease: { ...x.lease, active: false } } : x));
      else void reload();
    },
    [agent, reload],
  );
  useLiveStream({ onEvent, onResync: reload });

  const showOlder = async () => {
    const before = c.batches.next;
    if (!before) return;
    setOlder({ loading: true, error: null });
    try {
      const r = await fetch(`/api/agents/${agent}/batches?before=${before}&limit=10`, { cache: 'no-store' });
      const body: unknown = await r.json();
      if (!r.ok) throw new Error((body as { error?: string } | null)?.error ?? `HTTP ${r.status}`);
      const page = AgentBatchPageSchema.parse(body);
      setC((x) => ({
        ...x,
        batches: {
          ...x.batches,
          rows: [
            ...x.batches.rows,
            ...page.rows.filter((n) => !x.batches.rows.some((o) => o.epoch === n.epoch)).map(line),
          ],
          next: page.next,
        },
      }));
      setOlder({ loading: false, error: null });
    } catch (e) {
      setOlder({ loading: false, error: `older batches could not be read: ${(e as Error).message}` });
    }
  };

  const rows = c.batches.rows;
  const address = c.agentAddress;
  // A pinned batch that "Show older batches" or the newest page has since reached is listed in its place instead.
  const pinned = c.pinned && !rows.some((r) => r.epoch === c.pinned!.epoch) ? c.pinned : null;
  return (
    <section className="card" style={{ marginBottom: 16 }} data-testid="agent-chain">
      <h2>On chain</h2>
      <dl className="kv">
        <dt>Stake</dt>
        <dd className="mono" data-testid="agent-stake">
          {c.stake ? `${usdc(c.stake.amount)} USDC, ${c.stake.status}` : 'none'}
        </dd>
        <dt>Lease</dt>
        <dd data-testid="agent-lease">
          <LeaseText lease={c.lease} />
        </dd>
      </dl>
      <h3 className="small" id="batches">
        Batches, newest first
      </h3>
      {c.linkedNote ? (
        <p className="reason small" role="alert" data-testid="linked-batch-note">
          {c.linkedNote}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="muted empty">No batch submitted yet.</p>
      ) : (
        <>
          <p className="muted small" style={{ marginTop: 0 }}>
            Each <Term k="batch">batch</Term> once: its verdict against the log the agent uploaded, the authoritative
            reliability after folding it (verified batches only), and its log against what the observer saw on the mesh
            (seen live / seen but not logged / logged but never seen; each number opens the envelopes).
          </p>
          <div className="table-wrap dt-wrap">
            <table className="list dt" data-testid="agent-batches">
              <thead>
                <tr>
                  <th style={TH} data-col="priority">
                    <Term k="epoch">Epoch</Term>
                  </th>
                  <th style={TH} data-col="priority">
                    Verdict
                  </th>
                  <th style={TH} title="the authoritative fold's reliability after this batch, in points">
                    Reliability after
                  </th>
                  <th style={TH}>
                    <Term k="reconciliation">Seen / not logged / never seen</Term>
                  </th>
                  <th className="num" style={TH}>
                    Challenges
                  </th>
                  <th style={TH} data-col="priority">
                    Transaction
                  </th>
                  <th />
                </tr>
              </thead>
              {pinned ? (
                <tbody data-testid="pinned-batches">
                  <BatchTr b={pinned} address={address} epochSeconds={epochSeconds} pin />
                  <tr>
                    <td colSpan={7} className="muted small">
                      Newest:
                    </td>
                  </tr>
                </tbody>
              ) : null}
              <tbody>
                {rows.map((b) => (
                  <BatchTr key={b.epoch} b={b} address={address} epochSeconds={epochSeconds} />
                ))}
              </tbody>
            </table>
          </div>
          <p className="small">
            {c.batches.next ? (
              <MoreButton testId="older-batches" label="Show older batches" state={older} onClick={showOlder} />
            ) : (
              <span className="muted">
                {rows.length === 1 ? 'Its only batch.' : `All ${rows.length} of its batches.`}
              </span>
            )}
            ·{' '}
            <Link href={`/batches?agent=${address}`} prefetch={false}>
              as a list with filters
            </Link>
          </p>
        </>
      )}
      {(pinned ? [pinned, ...rows] : rows).map((b) => (
        <BatchChallenges key={b.epoch} agent={agent} batch={b} />
      ))}
      <h3 className="small" id="challenges">
        Challenges, newest batch first
      </h3>
      {c.challenges.challenges.length === 0 ? (
        <p className="muted empty">No challenge against this agent.</p>
      ) : (
        <ChallengeTable challenges={c.challenges.challenges} />
      )}
      {c.challenges.next ? (
        <p className="small">
          <Link href={`/batches?agent=${address}`} prefetch={false}>
            Every challenge against this agent →
          </Link>
        </p>
      ) : null}
      <PendingChallenges agent={agent} first={c.pending} />
    </section>
  );
}

/**
 * Pending challenges on the page at first and per "more" (the server's first page is as long: AGENT_PAGE_ROWS.pending).
 */
const PENDING_PAGE = 10;

/**
 * The pending challenges, anyone's to resolve or expire: the first page (kept fresh by the
 * section's live reload), then older pages from GET /api/challenges on request, each once.
 */
/** A list's "show more" button while its next page is read, and why the last read failed. */
function MoreButton(p: {
  testId: string;
  label: string;
  state: { loading: boolean; error?: string | null };
  onClick: () => Promise<void>;
}) {
  return (
    <>
      <button
        type="button"
        className="btn small ghost"
        data-testid={p.testId}
        onClick={() => void p.onClick()}
        disabled={p.state.loading}
      >
        {p.state.loading ? 'Reading…' : p.label}
      </button>
      {p.state.error ? (
        <span className="reason small" role="alert">
          {' '}
          {p.state.error}
        </span>
      ) : null}
    </>
  );
}

function PendingChallenges({ agent, first }: { agent: string; first: ChallengeLines }) {
  // Null until "more" is first pressed: from then on its cursor, not the first page's, says what comes next.
  const [more, setMore] = useState<ChallengeLines | null>(null);
  const [state, setState] = useState<{ loading: boolean; error: string | null }>({ loading: false, error: null });
  const shown = new Set(first.challenges.map((x) => x.address));
  const rows = [...first.challenges, ...(more?.challenges ?? []).filter((x) => !shown.has(x.address))];
  const next = more ? more.next : first.next;
  const read = async () => {
    if (!next) return;
    setState({ loading: true, error: null });
    try {
      const q =
        `agent=${agent}&status=pending&sort=epoch&order=desc&limit=` +
        `${PENDING_PAGE}&before=${encodeURIComponent(next)}`;
      const r = await fetch(`/api/challenges?${q}`, { cache: 'no-store' });
      const body: unknown = await r.json();
      if (!r.ok) throw new Error((body as { error?: string } | null)?.error ?? `HTTP ${r.status}`);
      const page = body as ChallengeLines;
      setMore((m) => ({
        challenges: [
          ...(m?.challenges ?? []),
          ...page.challenges.filter((x) => !m?.challenges.some((o) => o.address === x.address)),
        ],
        next: page.next,
      }));
      setState({ loading: false, error: null });
    } catch (e) {
      setState({ loading: false, error: `older pending challenges could not be read: ${(e as Error).message}` });
    }
  };
  return (
    <>
      <ChallengeRows challenges={rows} agentHex={agent} pendingOnly batchHref={batchHref} />
      {next ? (
        <p className="small">
          <MoreButton testId="more-pending" label="Show more pending challenges" state={state} onClick={read} />
        </p>
      ) : null}
    </>
  );
}

/** The lease in words, its paid-through epoch with its clock span. */
function LeaseText({ lease }: { lease: AgentChainView['lease'] }) {
  if (!lease) return 'none';
  return (
    <>
      paid through <EpochTime epoch={lease.paidThroughEpoch} />
      {lease.active ? '' : ', deactivated'}
      {lease.missedEpochs ? `, ${lease.missedEpochs} missed` : ''}
    </>
  );
}

/**
 * /batches: BehaviorBatches and the challenges against them, filtered by agent (hex or base58),
 * epoch and status, sorted, each list paged with its own keyset cursor. The filter is the query
 * string, checked by the schemas of GET /api/batches and /api/challenges (the challenge list's own
 * parameters carry a `c` prefix: cstatus, csort, corder, climit, cbefore), so a view is a link to share.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { AgentName } from '../../components/names/AgentName';
import { AccountLink, TxLink } from '../../components/site';
import { type Column, DataTable } from '../../components/table/DataTable';
import { EpochTime } from '../../components/time/Time';
import type { BatchList, ChallengeList } from '../../lib/wire';
import { agentBytes } from '../../lib/wire/agent-id';
import {
  BATCH_SORTS,
  BATCH_STATUSES,
  BatchesQuerySchema,
  CHALLENGE_SORTS,
  CHALLENGE_STATUSES,
  ChallengesQuerySchema,
} from '../../lib/wire/params';
import { NotRunning } from '../_lib/not-running';
import { flatParams, type SearchParams, withParams } from '../_lib/query-string';
import { getServices } from '../_lib/services';

type BatchView = BatchList['batches'][number];
type ChallengeView = ChallengeList['challenges'][number];

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Batches' };

/** The challenge list's parameters on this page and their names in GET /api/challenges. */
const C_PARAMS = { cstatus: 'status', csort: 'sort', corder: 'order', climit: 'limit', cbefore: 'before' } as const;

/** Agent, epoch, status and transaction at every width; "verify" folds into the row's details when short of room. */
const batchColumns = (epochSeconds: number): Column<BatchView>[] => [
  { label: 'Agent', priority: true, cell: (x) => <AgentName id={x.agent} /> },
  {
    label: 'Epoch',
    priority: true,
    className: 'small',
    cell: (x) => <EpochTime epoch={x.epoch} epochSeconds={epochSeconds} label={false} />,
  },
  {
    label: 'Status',
    priority: true,
    cell: (x) => (
      <span className={`badge ${x.status === 'verified' ? 't-accept' : x.status === 'mismatch' ? 't-reject' : ''}`}>
        {x.status}
      </span>
    ),
  },
  { label: 'Transaction', priority: true, cell: (x) => <TxLink signature={x.signature} copy /> },
  {
    label: 'Check',
    head: <span className="visually-hidden">Check</span>,
    bare: true,
    cell: (x) => (
      <Link href={`/batches/${x.agentAddress}/${x.epoch}`} className="small">
        verify
      </Link>
    ),
  },
];

const CHALLENGE_COLUMNS: Column<ChallengeView>[] = [
  { label: 'Challenge', priority: true, cell: (x) => <AccountLink address={x.address} copy /> },
  { label: 'Agent', priority: true, cell: (x) => <AgentName id={x.agent} /> },
  { label: 'Epoch', priority: true, className: 'small', cell: (x) => <EpochTime epoch={x.epoch} label={false} /> },
  {
    label: 'Status',
    priority: true,
    cell: (x) => <span className={`badge ${x.status === 'upheld' ? 't-reject' : ''}`}>{x.status}</span>,
  },
];

export default async function BatchesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  if (!o.chain) return <p className="notice">This observatory runs without a chain (CHAIN=off).</p>;
  const all = flatParams(await searchParams);
  const raw: Record<string, string> = {};
  const craw: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) {
    if (k in C_PARAMS) craw[C_PARAMS[k as keyof typeof C_PARAMS]] = v;
    else raw[k] = v;
  }
  const b = BatchesQuerySchema.strict().safeParse({ limit: '200', ...raw });
  const c = ChallengesQuerySchema.strict().safeParse({ agent: raw.agent, epoch: raw.epoch, ...craw });
  const agent = b.success && b.data.agent !== undefined ? agentBytes(b.data.agent) : undefined;
  const cname = (path: PropertyKey[]) =>
    Object.entries(C_PARAMS).find(([, api]) => api === path[0])?.[0] ?? String(path[0]);
  const errors = [
    ...(b.success ? [] : b.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`)),
    ...(c.success
      ? []
      : c.error.issues
          .filter((i) => i.path[0] !== 'agent' && i.path[0] !== 'epoch')
          .map((i) => `${cname(i.path)}: ${i.message}`)),
    ...(agent === null ? ['agent: must be 64 hex characters or a base58 address'] : []),
  ];
  const ok = errors.length === 0 && b.success && c.success;
  const [bp, cp] = ok
    ? await Promise.all([
        o.chain.batchesPage({ ...b.data, agent: agent ?? undefined }),
        o.chain.challengesPage({ ...c.data, agent: agent ?? undefined }),
      ])
    : [
        { batches: [], next: null },
        { challenges: [], next: null },
      ];
  const { batches } = bp;
  const shownChallenges = cp.challenges;
  const keep = (extra: Record<string, string | undefined>) => withParams('/batches', all, extra);
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Batches and challenges</h1>
          <p className="muted">
            Each agent commits a merkle root of its epoch log on chain; the observatory checks it against the log the
            agent uploaded.
          </p>
        </div>
      </header>
      <section className="card" style={{ marginBottom: 16 }}>
        <form className="filters" method="get" action="/batches" data-testid="batch-filters">
          <label>
            Agent{' '}
            <input name="agent" defaultValue={raw.agent ?? ''} placeholder="hex or base58" size={24} className="mono" />
          </label>
          <label>
            Epoch <input name="epoch" defaultValue={raw.epoch ?? ''} size={10} />
          </label>
          <label>
            Batch status{' '}
            <select name="status" defaultValue={raw.status ?? ''}>
              <option value="">any</option>
              {BATCH_STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            Batches by{' '}
            <select name="sort" defaultValue={raw.sort ?? 'epoch'}>
              {BATCH_SORTS.map((s) => (
                <option key={s} value={s}>
                  {s} (newest)
                </option>
              ))}
            </select>
          </label>
          <label>
            Batches per page <input name="limit" defaultValue={raw.limit ?? ''} placeholder="200" size={5} />
          </label>
          <label>
            Challenge status{' '}
            <select name="cstatus" defaultValue={all.cstatus ?? ''}>
              <option value="">any</option>
              {CHALLENGE_STATUSES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            Challenges by{' '}
            <select name="csort" defaultValue={all.csort ?? 'opened_slot'}>
              {CHALLENGE_SORTS.map((s) => (
                <option key={s} value={s}>
                  {s.replace('_', ' ')}
                </option>
              ))}
            </select>
          </label>
          <label>
            Order{' '}
            <select name="corder" defaultValue={all.corder ?? 'asc'}>
              <option value="asc">oldest first</option>
              <option value="desc">newest first</option>
            </select>
          </label>
          <label>
            Challenges per page <input name="climit" defaultValue={all.climit ?? ''} placeholder="500" size={5} />
          </label>
          <button type="submit">Apply</button>
          <Link href="/batches" className="small">
            reset
          </Link>
        </form>
      </section>
      {errors.length > 0 && (
        <p className="notice" role="alert">
          Bad filter: {errors.join('; ')}
        </p>
      )}
      <div className="grid-2">
        <section className="card">
          <h2>
            Batches ({batches.length}
            {bp.next ? '+' : ''}
            {raw.before ? ', continued' : ''})
          </h2>
          <DataTable
            testId="batches-table"
            rows={batches}
            rowKey={(x) => `${x.agent}/${x.epoch}`}
            columns={batchColumns(o.config.epochSeconds)}
          />
          <p className="small" style={{ marginTop: 12 }}>
            {raw.before && (
              <Link href={keep({ before: undefined })} style={{ marginRight: 12 }}>
                ← newest
              </Link>
            )}
            {bp.next && (
              <Link href={keep({ before: bp.next })} data-testid="batches-next">
                Older batches →
              </Link>
            )}
          </p>
        </section>
        <section className="card">
          <h2>
            Challenges ({shownChallenges.length}
            {cp.next ? '+' : ''}
            {all.cbefore ? ', continued' : ''})
          </h2>
          <DataTable
            testId="challenges-table"
            rows={shownChallenges}
            rowKey={(x) => x.address}
            columns={CHALLENGE_COLUMNS}
          />
          <p className="small" style={{ marginTop: 12 }}>
            {all.cbefore && (
              <Link href={keep({ cbefore: undefined })} style={{ marginRight: 12 }}>
                ← first page
              </Link>
            )}
            {cp.next && (
              <Link href={keep({ cbefore: cp.next })} data-testid="challenges-next">
                More challenges →
              </Link>
            )}
          </p>
        </section>
      </div>
    </>
  );
}

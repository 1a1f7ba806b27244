/**
 * /batches: BehaviorBatches and the challenges against them, filtered by agent (hex or base58),
 * epoch and status. The filter is the query string, checked by the schemas of GET /api/batches
 * and /api/challenges (`cstatus` carries the challenges' status), so a view is a link to share.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { BatchesQuerySchema, ChallengesQuerySchema } from '../../lib/wire/params';
import { NotRunning } from '../_lib/not-running';
import { flatParams, type SearchParams } from '../_lib/query-string';
import { agentBytes } from '../_lib/search';
import { getServices } from '../_lib/services';
import { shortHex } from '../../components/format';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Batches' };

const BATCH_STATUS = ['unverified', 'verified', 'mismatch'] as const;
const CHALLENGE_STATUS = ['pending', 'upheld', 'rejected', 'void', 'expired'] as const;

export default async function BatchesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  if (!o.chain) return <p className="notice">This observatory runs without a chain (CHAIN=off).</p>;
  const { cstatus, ...raw } = flatParams(await searchParams);
  const b = BatchesQuerySchema.strict().safeParse(raw);
  const c = ChallengesQuerySchema.safeParse({ agent: raw.agent, status: cstatus });
  const agent = b.success && b.data.agent !== undefined ? agentBytes(b.data.agent) : undefined;
  const errors = [
    ...(b.success ? [] : b.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`)),
    ...(c.success ? [] : c.error.issues.map((i) => `cstatus: ${i.message}`)),
    ...(agent === null ? ['agent: must be 64 hex characters or a base58 address'] : []),
  ];
  const ok = errors.length === 0 && b.success && c.success;
  const [batches, challenges] = ok
    ? await Promise.all([
      o.chain.listBatches({ agent: agent ?? undefined, epoch: b.data.epoch === undefined ? undefined : BigInt(b.data.epoch), status: b.data.status, limit: b.data.limit ?? 200 }),
      o.chain.listChallenges({ agent: agent ?? undefined, status: c.data.status }),
    ])
    : [[], []];
  const shownChallenges = ok && b.data.epoch !== undefined ? challenges.filter((x) => x.epoch === b.data.epoch) : challenges;
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Batches and challenges</h1>
          <p className="muted">Each agent commits a merkle root of its epoch log on chain; the observatory checks it against the log the agent uploaded.</p>
        </div>
      </header>
      <section className="card" style={{ marginBottom: 16 }}>
        <form className="filters" method="get" action="/batches" data-testid="batch-filters">
          <label>Agent <input name="agent" defaultValue={raw.agent ?? ''} placeholder="hex or base58" size={24} className="mono" /></label>
          <label>Epoch <input name="epoch" defaultValue={raw.epoch ?? ''} size={10} /></label>
          <label>Batch status <select name="status" defaultValue={raw.status ?? ''}><option value="">any</option>{BATCH_STATUS.map((s) => <option key={s}>{s}</option>)}</select></label>
          <label>Challenge status <select name="cstatus" defaultValue={cstatus ?? ''}><option value="">any</option>{CHALLENGE_STATUS.map((s) => <option key={s}>{s}</option>)}</select></label>
          <label>Batches shown <input name="limit" defaultValue={raw.limit ?? ''} placeholder="200" size={5} /></label>
          <button type="submit">Apply</button>
          <Link href="/batches" className="small">reset</Link>
        </form>
      </section>
      {errors.length > 0 && <p className="notice" role="alert">Bad filter: {errors.join('; ')}</p>}
      <div className="grid-2">
        <section className="card">
          <h2>Batches ({batches.length})</h2>
          <div className="table-wrap">
            <table className="list" data-testid="batches-table">
              <thead><tr><th>Agent</th><th className="num">Epoch</th><th>Status</th><th>Log root</th></tr></thead>
              <tbody>
                {batches.map((x) => (
                  <tr key={`${x.agent}/${x.epoch}`}>
                    <td><Link href={`/agents/${x.agent}#batch-${x.epoch}`} className="mono" title={x.agentAddress}>{shortHex(x.agent)}</Link></td>
                    <td className="num mono">{x.epoch}</td>
                    <td><span className={`badge ${x.status === 'verified' ? 't-accept' : x.status === 'mismatch' ? 't-reject' : ''}`}>{x.status}</span></td>
                    <td className="mono">{shortHex(x.logMerkleRoot, 10, 6)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
        <section className="card">
          <h2>Challenges ({shownChallenges.length})</h2>
          <div className="table-wrap">
            <table className="list" data-testid="challenges-table">
              <thead><tr><th>Challenge</th><th>Agent</th><th className="num">Epoch</th><th>Status</th></tr></thead>
              <tbody>
                {shownChallenges.map((x) => (
                  <tr key={x.address}>
                    <td className="mono" title={x.address}>{shortHex(x.address, 8, 6)}</td>
                    <td><Link href={`/agents/${x.agent}#challenges`} className="mono">{shortHex(x.agent)}</Link></td>
                    <td className="num mono">{x.epoch}</td>
                    <td><span className={`badge ${x.status === 'upheld' ? 't-reject' : ''}`}>{x.status}</span></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </div>
    </>
  );
}

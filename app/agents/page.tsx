import type { Metadata } from 'next';
import Link from 'next/link';
import { loadAgents } from '../_lib/data';
import { NotRunning } from '../_lib/not-running';
import { getServices } from '../_lib/services';
import { count, dateTime, shortHex } from '../../components/format';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Agents' };

export default async function AgentsPage() {
  const o = getServices();
  if (!o) return <NotRunning />;
  const agents = await loadAgents(o);
  const online = agents.filter((a) => a.online).length;
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Agents</h1>
          <p className="muted">
            {count(agents.length)} agents seen, {count(online)} online.
          </p>
        </div>
      </header>
      <section className="card">
        {agents.length === 0 ? (
          <p className="muted empty">No agents seen yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="list" data-testid="agents-table">
              <thead>
                <tr>
                  <th>State</th>
                  <th>Agent id</th>
                  <th>Label</th>
                  <th className="num">Envelopes sent</th>
                  <th>First seen (UTC)</th>
                  <th>Last seen (UTC)</th>
                </tr>
              </thead>
              <tbody>
                {agents.map((a) => (
                  <tr key={a.id} data-agent-row={a.id}>
                    <td>
                      <span className={`dot ${a.online ? 'on' : ''}`} aria-hidden /> {a.online ? 'online' : <span className="muted">offline</span>}
                    </td>
                    <td>
                      <Link href={`/agents/${a.id}`} className="mono" title={a.id}>
                        {shortHex(a.id, 16, 8)}
                      </Link>
                    </td>
                    <td>{a.name ?? <span className="muted">—</span>}</td>
                    <td className="num mono">{count(a.envelopes)}</td>
                    <td className="mono">{dateTime(a.firstSeenMs)}</td>
                    <td className="mono">{dateTime(a.lastSeenMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

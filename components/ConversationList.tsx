/** Table of conversations: id, counterparties, state, message count, last activity. */
import Link from 'next/link';
import type { ConversationSummaryView } from '../lib/wire';
import { count, dateTime, shortHex } from './format';

export function ConversationList({ conversations, self }: { conversations: ConversationSummaryView[]; self?: string }) {
  if (conversations.length === 0) return <p className="muted empty">No conversations.</p>;
  return (
    <div className="table-wrap">
      <table className="list">
        <thead>
          <tr>
            <th>Conversation</th>
            <th>{self ? 'With' : 'Participants'}</th>
            <th>State</th>
            <th className="num">Messages</th>
            <th>Last activity (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {conversations.map((c) => (
            <tr key={c.id}>
              <td>
                <Link href={`/conversations/${c.id}`} className="mono">
                  {c.id}
                </Link>
              </td>
              <td>
                {c.participants
                  .filter((p) => p !== self)
                  .map((p) => (
                    <Link key={p} href={`/agents/${p}`} className="mono" style={{ marginRight: 8 }} title={p}>
                      {shortHex(p)}
                    </Link>
                  ))}
              </td>
              <td>{c.state ?? '—'}</td>
              <td className="num mono">{count(c.messages)}</td>
              <td className="mono">{dateTime(c.lastMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

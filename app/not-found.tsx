/** The 404 page: says what was not found and offers the search and the main pages instead of a dead end. */
import Link from 'next/link';

export default function NotFound() {
  return (
    <section className="card" data-testid="not-found" style={{ maxWidth: 720 }}>
      <h1>Nothing here</h1>
      <p>
        This address names no page, or no agent, conversation, envelope or batch this observatory has stored. Ids work
        in base58 or hex; a conversation id is 32 hex characters.
      </p>
      <form action="/search" method="get" role="search" style={{ display: 'flex', gap: 8, margin: '12px 0' }}>
        <input
          name="q"
          placeholder="agent name, base58 or hex id, prefix, agent epoch, signature"
          aria-label="Search"
          className="mono"
          style={{
            flex: 1,
            minWidth: 0,
            padding: '6px 10px',
            background: 'var(--bg)',
            color: 'var(--text)',
            border: '1px solid var(--border)',
            borderRadius: 6,
          }}
        />
        <button type="submit" className="theme-toggle">
          Search
        </button>
      </form>
      <p className="small">
        Or start from the <Link href="/">overview</Link>, <Link href="/agents">agents</Link>,{' '}
        <Link href="/conversations">conversations</Link>, <Link href="/batches">batches</Link>,{' '}
        <Link href="/challenges">challenges</Link> or the <Link href="/glossary">glossary</Link>.
      </p>
    </section>
  );
}

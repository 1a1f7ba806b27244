/**
 * /search?q=: every hit of a query grouped by kind (GET /api/search's answer, rendered on the
 * server). A query that names exactly one thing in full goes straight to its page.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { Ident, type IdentKind } from '../../components/CopyId';
import { AgentName } from '../../components/names/AgentName';
import { shortBase58 } from '../../components/names/label';
import { Td } from '../../components/table/DataTable';
import { EpochTime, Time } from '../../components/time/Time';
import { SEARCH_KINDS, type SearchHit } from '../../lib/wire/search';
import { NotRunning } from '../_lib/not-running';
import { runSearch } from '../_lib/search';
import { getServices } from '../_lib/services';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Search' };

const TITLES: Record<SearchHit['kind'], string> = {
  agent: 'Agents',
  conversation: 'Conversations',
  envelope: 'Envelopes',
  batch: 'Batches',
  challenge: 'Challenges',
  transaction: 'Transactions',
};

const EXAMPLES = [
  ['an agent id', '64 hex characters or a base58 address'],
  ['a prefix', 'the first hex characters of an agent, conversation or envelope id'],
  ['a batch', '<agent> <epoch>, e.g. 3fa2…9c01 42'],
  ['a challenge or transaction', 'its base58 address or signature, or the start of one'],
  ['a label', 'part of an agent’s name'],
];

export default async function SearchPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const raw = (await searchParams).q;
  const q = (Array.isArray(raw) ? raw[0] : raw)?.trim().slice(0, 200) ?? '';
  const result = q ? await runSearch(o, q, 20) : null;
  if (result?.direct) redirect(result.direct);
  const groups = SEARCH_KINDS.map((k) => [k, result?.hits.filter((h) => h.kind === k) ?? []] as const).filter(
    ([, hs]) => hs.length > 0,
  );
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Search</h1>
          <p className="muted">
            {!q
              ? 'Type in the box above, or put the query in the URL: /search?q=…'
              : result && result.hits.length > 0
                ? `${result.hits.length} ${result.hits.length === 1 ? 'hit' : 'hits'} for “${q}”`
                : `Nothing matches “${q}”.`}
          </p>
        </div>
      </header>
      {groups.length === 0 && (
        <section className="card">
          <h2>What you can search for</h2>
          <dl className="kv">
            {EXAMPLES.map(([k, v]) => (
              <div key={k} style={{ display: 'contents' }}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
      <div className="stack">
        {groups.map(([kind, hits]) => (
          <section className="card" key={kind} data-search-group={kind}>
            <h2>
              {TITLES[kind]} <span className="muted">({hits.length})</span>
            </h2>
            <div className="table-wrap dt-wrap">
              <table className="list dt" data-testid={`search-${kind}`}>
                <thead>
                  <tr>
                    <th data-col="priority">Found</th>
                    <th data-col="priority">What it is</th>
                  </tr>
                </thead>
                <tbody>
                  {hits.map((h) => (
                    <tr key={`${h.id}:${h.detail}`} data-hit={h.id}>
                      <Td label="Found" className="mono">
                        <HitId h={h} />
                      </Td>
                      <HitDetail h={h} />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        ))}
      </div>
    </>
  );
}

const IDENT: Record<Exclude<SearchHit['kind'], 'batch' | 'agent'>, IdentKind> = {
  conversation: 'conversation id',
  envelope: 'envelope id',
  challenge: 'address',
  transaction: 'signature',
};

/** A hit's own id as a link to its page, with the button that copies it whole. */
function HitId({ h }: { h: SearchHit }) {
  if (h.kind === 'batch') {
    const [agent, epoch] = h.id.split('/');
    return (
      <Link href={h.href} title={h.id}>
        {shortBase58(agent)} <EpochTime epoch={epoch} />
      </Link>
    );
  }
  if (h.kind === 'agent') return <AgentName id={h.id} />;
  const id = h.id;
  return (
    <Ident kind={IDENT[h.kind]} value={id}>
      <Link href={h.href} title={h.id}>
        {id}
      </Link>
    </Ident>
  );
}

/** A hit's line, with when it was last seen in the page's clock. */
function HitDetail({ h }: { h: SearchHit }) {
  return (
    <Td label="What it is" className="muted">
      {h.detail}
      {h.at ? (
        <>
          {' · last seen '}
          <Time ms={Date.parse(h.at)} />
        </>
      ) : null}
    </Td>
  );
}
